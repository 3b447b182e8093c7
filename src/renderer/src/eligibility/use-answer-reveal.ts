import { useLayoutEffect, useRef } from 'react';
import type { Check } from '../../../shared/contract';
import { isEditable } from '../ui/editable';

export const CHECK_RESULT_ID = 'check-result';

/**
 * Scrolls the desk's main area (only it: scrollIntoView would also move the window, banners
 * and all) so the element starts near its top.
 */
export function scrollIntoMain(element: HTMLElement): void {
  const main = element.closest<HTMLElement>('.main');
  if (!main) return;
  main.scrollTop += element.getBoundingClientRect().top - main.getBoundingClientRect().top - 16;
}

/**
 * Brings the answer into view and gives it focus (the rejection's first correction field if
 * there is one) now, before this frame paints; and into view once more at the next frame, as
 * what loads above it (a screen opened on this answer) may have pushed it down meanwhile.
 */
export function revealAnswer(): void {
  const box = document.getElementById(CHECK_RESULT_ID);
  if (!box) return;
  scrollIntoMain(box);
  const fix = box.querySelector<HTMLInputElement>('input[id^="fix-"]');
  (fix ?? box).focus({ preventScroll: true });
  requestAnimationFrame(() => {
    if (box.isConnected) scrollIntoMain(box);
  });
}

/** Keystrokes into fields on this page so far: whether the person typed while an answer was on its way. */
let typed = 0;
let counting = false;
function countTyping(): void {
  if (counting) return;
  counting = true;
  document.addEventListener('input', () => typed++, true);
}

/** Each check asked on this page, with the keystrokes counted when it was asked. */
const askedAt = new Map<string, number>();

/**
 * Marks the moment a check is asked, before its create is sent: what is typed from here on is
 * the person's next task. Taken when the check was first shown pending instead, typing during
 * the create (a busy desk's next patient) was counted as before the ask, and the answer took
 * that field.
 */
export function markAsk(): { typedSince(): boolean; asked(checkId: string): void } {
  countTyping();
  const mark = typed;
  return {
    typedSince: () => typingElsewhere(mark),
    asked: (checkId) => askedAt.set(checkId, mark),
  };
}

/**
 * Whether the person has gone on to type in another field since the check was asked (the
 * next payer, a second patient's name): the answer then does not take the field, or the
 * scroll, from under their hands. Only typing counts: a field merely focused while waiting
 * still hands focus to the answer, which is what the person waits for.
 */
function typingElsewhere(typedWhenAsked: number): boolean {
  const active = document.activeElement;
  if (typed === typedWhenAsked || !(active instanceof HTMLElement)) return false;
  return !active.closest(`#${CHECK_RESULT_ID}`) && isEditable(active);
}

/**
 * The answer to a check arrives by itself, seconds after it was asked: when the shown check
 * goes from pending to answered (or the screen was opened to show one answer), it is
 * revealed, so "Active" is never left below the fold, unless the person has typed in another
 * field meanwhile. In a layout effect: the frame that first paints the answer paints it in
 * view and focused (an effect or an animation frame later painted it once unfocused, a frame
 * or two of the person's wait).
 */
export function useAnswerReveal(shown: Pick<Check, 'id' | 'status'> | undefined, openedFor: string | undefined): void {
  /** The checks waited for, each with the keystrokes counted when it was asked (else when first shown pending). */
  const waited = useRef(new Map<string, number>());
  const openedShown = useRef(false);
  const id = shown?.id;
  const status = shown?.status;
  useLayoutEffect(() => {
    countTyping();
    if (!id || !status) return;
    if (status === 'pending') {
      if (!waited.current.has(id)) waited.current.set(id, askedAt.get(id) ?? typed);
      return;
    }
    const opened = id === openedFor && !openedShown.current;
    const typedWhenAsked = waited.current.get(id) ?? askedAt.get(id);
    waited.current.delete(id);
    askedAt.delete(id);
    if (typedWhenAsked === undefined && !opened) return;
    openedShown.current = true;
    if (!opened && typedWhenAsked !== undefined && typingElsewhere(typedWhenAsked)) return;
    revealAnswer();
  }, [id, status, openedFor]);
}
