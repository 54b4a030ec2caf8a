/**
 * Form state for dialogs and pages that validate on the client and again on the server: values,
 * client-side errors (translation keys), server-side field errors (already translated) and one
 * form-level message. Changing a field clears its errors and those of the fields that depend on it.
 * Errors set on submit or by the server move the focus to the first invalid field of the form that
 * has `errorScope` as its ref.
 */
import { useState } from 'react';
import { isApiError } from '../api/index.ts';
import { useErrorFocus } from './use-error-focus.ts';

export interface FormStateOptions<V, F extends string> {
  /** Maps the server's field names in a 400 `details` object to form fields. */
  serverField: Record<string, F>;
  /** Fields whose errors also go when this value changes (e.g. a custom value under a choice). */
  dependents?: Partial<Record<keyof V, F[]>>;
  /** The field a 409 Conflict is about (e.g. a link suffix that is taken): its message goes there. */
  conflictField?: F;
}

export function useFormState<V extends object, F extends string, E extends string>(
  initial: V,
  { serverField, dependents = {}, conflictField }: FormStateOptions<V, F>,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<F, E>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<F, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { errorScope, focusFirstError } = useErrorFocus();

  /** Shows the errors found on submit, and takes the focus to the first. */
  const showErrors = (found: Partial<Record<F, E>>) => {
    setErrors(found);
    if (Object.keys(found).length > 0) focusFirstError();
  };

  /** Forgets the client and server errors of these fields. */
  const clearErrors = (fields: Iterable<string>) => {
    const gone = new Set(fields);
    const clear = <T extends object>(previous: T): T =>
      Object.fromEntries(Object.entries(previous).filter(([field]) => !gone.has(field))) as T;
    setErrors(clear);
    setServerErrors(clear);
  };

  const change = (patch: Partial<V>) => {
    setValues((current) => ({ ...current, ...patch }));
    const touched = Object.keys(patch) as (keyof V)[];
    const gone = new Set<string>(touched.map(String));
    for (const field of touched) for (const dependent of dependents[field] ?? []) gone.add(dependent);
    clearErrors(gone);
  };

  /** Shows a failed request: field details next to their fields, the message above the buttons. */
  const showServerError = (error: unknown, fallback: string) => {
    if (!isApiError(error)) {
      setFormError(fallback);
      return;
    }
    const fields: Partial<Record<F, string>> = {};
    for (const [name, message] of Object.entries(error.details ?? {})) {
      const field = serverField[name];
      if (field) fields[field] = message;
    }
    const conflict = error.status === 409 && conflictField !== undefined && !fields[conflictField];
    if (conflict) fields[conflictField] = error.message;
    setServerErrors(fields);
    setFormError(conflict ? null : error.message);
    if (Object.keys(fields).length > 0) focusFirstError();
  };

  const reset = (next: V) => {
    setValues(next);
    setErrors({});
    setServerErrors({});
    setFormError(null);
  };

  /** The message to show under a field: the client-side one first (translated by `t`). */
  const fieldError = (field: F, t: (key: E) => string): string | null => {
    const key = errors[field];
    return key ? t(key) : (serverErrors[field] ?? null);
  };

  return {
    values,
    errors,
    setErrors: showErrors,
    serverErrors,
    setServerErrors,
    formError,
    setFormError,
    change,
    clearErrors,
    showServerError,
    reset,
    fieldError,
    errorScope,
  };
}
