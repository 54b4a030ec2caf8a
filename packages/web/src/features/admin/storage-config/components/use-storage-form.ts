/** Form state of the storage config dialogs: values, client-side errors and server-side errors. */
import { useFormState } from '../../../../lib/forms/use-form-state.ts';
import {
  SERVER_FIELD,
  type StorageFormErrorKey,
  type StorageFormField,
  type StorageFormValues,
} from '../storage-form.ts';

export function useStorageForm(initial: StorageFormValues) {
  return useFormState<StorageFormValues, StorageFormField, StorageFormErrorKey>(initial, {
    serverField: SERVER_FIELD,
    dependents: { providerType: ['endpointUrl', 'region'], quotaUnit: ['quotaValue'] },
  });
}

/** The form state the fields get (the form element itself takes `errorScope`). */
export type StorageFormState = Omit<ReturnType<typeof useStorageForm>, 'errorScope'>;
