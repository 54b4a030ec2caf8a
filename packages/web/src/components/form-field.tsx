/**
 * Labelled form controls. Each control is tied to its label, hint and error through ids, and
 * marked `aria-invalid` while it has an error.
 */
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

const controlClasses =
  'block w-full rounded-md border bg-surface px-3 py-2 text-sm text-fg placeholder:text-fg-muted/80 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:opacity-60';

function describedBy(...ids: unknown[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '').join(' ');
  return list || undefined;
}

interface FieldShellProps {
  id: string;
  label: ReactNode;
  /** For assistive tech only (a control whose options say what it is, beside others like it). */
  labelHidden?: boolean;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  children: ReactNode;
}

function FieldShell({ id, label, labelHidden, hint, error, required, children }: FieldShellProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className={labelHidden ? 'sr-only' : 'block text-sm font-medium text-fg'}>
        {label}
        {required && (
          <span aria-hidden="true" className="ms-0.5 text-danger-text">
            *
          </span>
        )}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-danger-text">
          {error}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** A control beside the input (e.g. a "Browse…" button). */
  addon?: ReactNode;
}

export function TextField({ label, hint, error, required, addon, className = '', ...props }: TextFieldProps) {
  const id = useId();
  const input = (
    <input
      id={id}
      required={required}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(hint && !error && `${id}-hint`, error && `${id}-error`)}
      className={`${controlClasses} ${error ? 'border-danger' : 'border-border-strong/70'} ${className}`}
      {...props}
    />
  );
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} required={required}>
      {addon ? (
        <div className="flex gap-2">
          <div className="min-w-0 flex-1">{input}</div>
          {addon}
        </div>
      ) : (
        input
      )}
    </FieldShell>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}

/** A multi-line text field (Markdown, one entry per line); what is typed is the user's, in any language. */
export function TextAreaField({
  label,
  hint,
  error,
  required,
  className = '',
  ...props
}: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} required={required}>
      <textarea
        id={id}
        required={required}
        spellCheck={false}
        data-user-content=""
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint && !error && `${id}-hint`, error && `${id}-error`)}
        className={`${controlClasses} resize-y font-mono ${error ? 'border-danger' : 'border-border-strong/70'} ${className}`}
        {...props}
      />
    </FieldShell>
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode;
  labelHidden?: boolean;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
}

export function SelectField({
  label,
  labelHidden,
  hint,
  error,
  required,
  children,
  className = '',
  ...props
}: SelectFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} labelHidden={labelHidden} hint={hint} error={error} required={required}>
      <select
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint && !error && `${id}-hint`, error && `${id}-error`)}
        className={`${controlClasses} ${error ? 'border-danger' : 'border-border-strong/70'} ${className}`}
        {...props}
      >
        {children}
      </select>
    </FieldShell>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: ReactNode;
  description?: ReactNode;
}

export function Checkbox({ label, description, className = '', ...props }: CheckboxProps) {
  const id = useId();
  return (
    <div className={`flex items-start gap-2.5 ${className}`}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5 size-4 shrink-0 rounded border-border-strong accent-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        {...props}
      />
      <div className="min-w-0 text-sm">
        <label htmlFor={id} className="font-medium text-fg">
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="text-xs text-fg-muted">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
