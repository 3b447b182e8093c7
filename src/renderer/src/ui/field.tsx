import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';

interface FieldFrameProps {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  /** Read off the card with low confidence: shown in words, not only by colour. */
  review?: string;
  children: ReactNode;
}

/** Label above, hint and error below, each tied to the control for screen readers. */
export function FieldFrame({ id, label, hint, error, review, children }: FieldFrameProps) {
  return (
    <div className={`field${review && !error ? ' field--review' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {review && !error && (
        <p className="field__review" id={`${id}-review`}>
          {review}
        </p>
      )}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function describedBy(id: string, parts: { hint?: unknown; error?: unknown; review?: unknown }): string | undefined {
  const ids = [parts.review && !parts.error && `${id}-review`, parts.hint && `${id}-hint`, parts.error && `${id}-error`].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: ReactNode;
  error?: string;
  review?: string;
  inputRef?: Ref<HTMLInputElement>;
}

export function TextField({ id, label, value, onChange, hint, error, review, inputRef, className, ...rest }: TextFieldProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} review={review}>
      <input
        {...rest}
        ref={inputRef}
        id={id}
        className={['input', className].filter(Boolean).join(' ')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error, review })}
      />
    </FieldFrame>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'id'> {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  options: { value: string; label: string }[];
  /** The first, empty choice ("Choose a provider"). */
  placeholder?: string;
  hint?: ReactNode;
  error?: string;
  review?: string;
}

export function SelectField({ id, label, value, onChange, options, placeholder, hint, error, review, ...rest }: SelectFieldProps) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} review={review}>
      <select
        {...rest}
        id={id}
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error, review })}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
