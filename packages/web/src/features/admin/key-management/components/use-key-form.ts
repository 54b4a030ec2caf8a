/** Form state of the key dialogs: values, client-side errors and server-side errors. */
import { useFormState } from '../../../../lib/forms/use-form-state.ts';
import { SERVER_FIELD, type KeyFormErrorKey, type KeyFormField, type KeyFormValues } from '../key-form.ts';

export function useKeyForm(initial: KeyFormValues) {
  return useFormState<KeyFormValues, KeyFormField, KeyFormErrorKey>(initial, {
    serverField: SERVER_FIELD,
    dependents: { useCustomKey: ['customKey'], expiry: ['customDays'] },
  });
}
