/** Elements that take what is typed: a key pressed in one is the person's text, never a shortcut or a reason to move focus. */
const EDITABLE = 'input, textarea, select, [role="combobox"], [role="textbox"]';

export function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.matches(EDITABLE));
}
