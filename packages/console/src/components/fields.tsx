import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

interface FieldFrameProps {
  label: string;
  hint?: ComponentChildren;
  id: string;
  children: ComponentChildren;
}

function FieldFrame({ label, hint, id, children }: FieldFrameProps) {
  return (
    <div class="field">
      <label class="field__label" for={id}>
        {label}
      </label>
      {children}
      {hint === undefined ? null : (
        <p class="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** The input attributes the console's text fields pass through. */
interface InputProps {
  name?: string;
  type?: 'text' | 'search' | 'number' | 'password' | 'datetime-local';
  placeholder?: string;
  autocomplete?: string;
  spellcheck?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  disabled?: boolean;
  required?: boolean;
}

/** A labelled text input; `onValue` gets the new text. */
export function TextField({
  label,
  hint,
  value,
  onValue,
  type = 'text',
  ...input
}: InputProps & { label: string; hint?: ComponentChildren; value: string; onValue: (value: string) => void }) {
  const id = useId();
  return (
    <FieldFrame label={label} hint={hint} id={id}>
      <input
        id={id}
        // Preact 11 types each input type as its own variant; a union of them is fine at run time.
        type={type as 'text'}
        class="field__input"
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        {...input}
      />
    </FieldFrame>
  );
}

/** A labelled multi-line text input. */
export function TextAreaField({
  label,
  hint,
  value,
  onValue,
  rows = 5,
  ...rest
}: {
  label: string;
  hint?: ComponentChildren;
  value: string;
  onValue: (value: string) => void;
  rows?: number;
  required?: boolean;
  maxLength?: number;
  name?: string;
}) {
  const id = useId();
  return (
    <FieldFrame label={label} hint={hint} id={id}>
      <textarea
        id={id}
        class="field__input field__input--area"
        rows={rows}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        {...rest}
      />
    </FieldFrame>
  );
}

/** One choice of a `SelectField`. */
export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select; an option with value '' stands for "any" or "not set". */
export function SelectField({
  label,
  hint,
  value,
  onValue,
  options,
  name,
}: {
  label: string;
  hint?: ComponentChildren;
  value: string;
  onValue: (value: string) => void;
  options: readonly SelectOption[];
  name?: string;
}) {
  const id = useId();
  return (
    <FieldFrame label={label} hint={hint} id={id}>
      <select
        id={id}
        name={name}
        class="field__input"
        value={value}
        onChange={(event) => onValue(event.currentTarget.value)}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A labelled checkbox. */
export function CheckboxField({
  label,
  checked,
  onChecked,
  name,
}: {
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  name?: string;
}) {
  const id = useId();
  return (
    <div class="checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChecked(event.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
    </div>
  );
}
