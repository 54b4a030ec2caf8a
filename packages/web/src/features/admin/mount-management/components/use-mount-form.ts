/** Form state of the mount dialog: values, client-side errors and server-side errors. */
import { useFormState } from '../../../../lib/forms/use-form-state.ts';
import {
  SERVER_FIELD,
  type MountFormErrorKey,
  type MountFormField,
  type MountFormValues,
} from '../mount-form.ts';

export function useMountForm(initial: MountFormValues) {
  return useFormState<MountFormValues, MountFormField, MountFormErrorKey>(initial, {
    serverField: SERVER_FIELD,
  });
}

/** The form state the fields get (the form element itself takes `errorScope`). */
export type MountFormState = Omit<ReturnType<typeof useMountForm>, 'errorScope'>;
