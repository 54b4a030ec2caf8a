/** Form state of the key dialogs: values, client-side errors and server-side errors. */
import { useState } from 'react';
import { isApiError } from '../../../../lib/api/index.ts';
import { SERVER_FIELD, type KeyFormErrors, type KeyFormField, type KeyFormValues } from '../key-form.ts';

export function useKeyForm(initial: KeyFormValues) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<KeyFormErrors>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<KeyFormField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const change = (patch: Partial<KeyFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    const touched = Object.keys(patch) as (keyof KeyFormValues)[];
    const clear = (previous: Partial<Record<KeyFormField, unknown>>) => {
      const next = { ...previous };
      for (const field of touched) delete next[field as KeyFormField];
      if (touched.includes('useCustomKey')) delete next.customKey;
      if (touched.includes('expiry')) delete next.customDays;
      return next;
    };
    setErrors((previous) => clear(previous) as KeyFormErrors);
    setServerErrors((previous) => clear(previous) as Partial<Record<KeyFormField, string>>);
  };

  /** Shows a failed request: field details next to their fields, the message above the buttons. */
  const showServerError = (error: unknown, fallback: string) => {
    if (!isApiError(error)) {
      setFormError(fallback);
      return;
    }
    const fields: Partial<Record<KeyFormField, string>> = {};
    for (const [name, message] of Object.entries(error.details ?? {})) {
      const field = SERVER_FIELD[name];
      if (field) fields[field] = message;
    }
    setServerErrors(fields);
    setFormError(error.message);
  };

  const reset = (next: KeyFormValues) => {
    setValues(next);
    setErrors({});
    setServerErrors({});
    setFormError(null);
  };

  return { values, errors, setErrors, serverErrors, formError, setFormError, change, showServerError, reset };
}
