import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FieldFrame, describedBy } from './field';

export interface ComboOption {
  value: string;
  label: string;
  /** Shown on the right of the option: a payer id, an X12 code, "Common". */
  detail?: string;
}

interface ComboboxProps {
  id: string;
  label: string;
  options: readonly ComboOption[];
  value: string;
  onChange(value: string): void;
  /** Which options match what was typed; by default every word starts a word of the label. */
  filter?(query: string, options: readonly ComboOption[]): ComboOption[];
  placeholder?: string;
  hint?: string;
  error?: string;
  review?: string;
  /** Rendered at most, so a 190-entry list stays instant. */
  maxShown?: number;
  /** Said after "Nothing matches": where to go when what is sought is not in the list. */
  emptyHint?: string;
}

function defaultFilter(query: string, options: readonly ComboOption[]): ComboOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return options.filter((o) => {
    const hay = `${o.label} ${o.detail ?? ''}`.toLowerCase().split(/[\s,.()-]+/);
    return words.every((w) => hay.some((h) => h.startsWith(w)));
  });
}

/**
 * A searchable choice (ARIA 1.2 combobox): type to filter, arrows to move, Enter to pick,
 * Escape to put back what was chosen. The chosen option's label shows when not typing.
 */
export function Combobox({ id, label, options, value, onChange, filter = defaultFilter, placeholder, hint, error, review, maxShown = 60, emptyHint }: ComboboxProps) {
  const listId = useId();
  const selected = options.find((o) => o.value === value);
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // A chosen label that arrives while the field has focus and nothing is typed (the payers
  // still loading when the person clicked in) is selected, as focus selects it: typing then
  // replaces it rather than being appended to it.
  const shownLabel = selected?.label;
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (input && shownLabel && query === null && document.activeElement === input) input.select();
    // Only a label's arrival selects; the query leaving (Escape) puts the label back unselected as before.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownLabel]);

  const matches = useMemo(() => (query ? filter(query, options) : [...options]), [query, options, filter]);
  const shown = matches.slice(0, maxShown);

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  const choose = (option: ComboOption | undefined) => {
    if (option) onChange(option.value);
    setQuery(null);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(Math.max(0, shown.findIndex((o) => o.value === value)));
        } else setActive((i) => Math.min(shown.length - 1, i + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setActive((i) => Math.max(0, i - 1));
        break;
      case 'Enter':
        if (open) {
          event.preventDefault();
          choose(shown[active]);
        }
        break;
      case 'Escape':
        if (open || query !== null) {
          event.preventDefault();
          setQuery(null);
          setOpen(false);
        }
        break;
      case 'Tab':
        // Leaving with one obvious match picks it: typing "aet" then Tab means Aetna.
        if (open && query && shown.length > 0) choose(shown[active]);
        else setOpen(false);
        break;
    }
  };

  const activeId = open && shown[active] ? `${listId}-${active}` : undefined;
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} review={review}>
      <div className="combobox">
        <input
          ref={inputRef}
          id={id}
          className="input"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { hint, error, review })}
          autoComplete="off"
          placeholder={placeholder}
          value={query ?? selected?.label ?? ''}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={(event) => event.target.select()}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setQuery(null);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} ref={listRef} role="listbox" aria-label={label} className="combobox__list" hidden={!open}>
          {shown.map((option, index) => (
            <li
              key={option.value}
              id={`${listId}-${index}`}
              data-index={index}
              role="option"
              aria-selected={index === active}
              className="combobox__option"
              // Keep focus in the input: a mouse pick must not blur (and close) first.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
            >
              <span>{option.label}</span>
              {option.detail && <span className="small muted">{option.detail}</span>}
            </li>
          ))}
          {shown.length === 0 && (
            <li role="option" aria-selected={false} aria-disabled="true" className="combobox__empty">
              Nothing matches “{query}”.{emptyHint && ` ${emptyHint}`}
            </li>
          )}
          {matches.length > shown.length && (
            <li role="option" aria-selected={false} aria-disabled="true" className="combobox__empty">
              {matches.length - shown.length} more: keep typing to narrow the list.
            </li>
          )}
        </ul>
      </div>
    </FieldFrame>
  );
}
