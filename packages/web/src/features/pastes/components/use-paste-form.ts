/** Form state of a text share's settings (create on Home, edit in the dialog). */
import { useFormState } from '../../../lib/forms/use-form-state.ts';
import {
  SERVER_FIELD,
  type PasteErrorKey,
  type PasteField,
  type PasteSettingsValues,
} from '../paste-form.ts';

export function usePasteForm(initial: PasteSettingsValues) {
  return useFormState<PasteSettingsValues, PasteField, PasteErrorKey>(initial, {
    serverField: SERVER_FIELD,
    dependents: { expiry: ['customExpiry'], clearPassword: ['password'] },
    // The only conflict of a text or file share is a link suffix that is taken.
    conflictField: 'slug',
  });
}

/** The form state the fields get (the form element itself takes `errorScope`). */
export type PasteFormState = Omit<ReturnType<typeof usePasteForm>, 'errorScope'>;
