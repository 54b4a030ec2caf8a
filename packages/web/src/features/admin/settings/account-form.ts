/** Rules of the admin account form (docs/product.md §5 "Settings"), as translation keys per field. */

export interface AccountFormValues {
  currentPassword: string;
  newUsername: string;
  newPassword: string;
  confirmPassword: string;
}

export type AccountFormErrors = Partial<
  Record<
    keyof AccountFormValues | 'form',
    | 'settings.account.errors.currentRequired'
    | 'settings.account.errors.nothingToChange'
    | 'settings.account.errors.samePassword'
    | 'settings.account.errors.confirmMismatch'
  >
>;

export function validateAccountForm(values: AccountFormValues): AccountFormErrors {
  const errors: AccountFormErrors = {};
  if (values.currentPassword === '') errors.currentPassword = 'settings.account.errors.currentRequired';
  if (values.newUsername.trim() === '' && values.newPassword === '') {
    errors.form = 'settings.account.errors.nothingToChange';
  }
  if (values.newPassword !== '') {
    if (values.currentPassword !== '' && values.newPassword === values.currentPassword) {
      errors.newPassword = 'settings.account.errors.samePassword';
    }
    if (values.confirmPassword !== values.newPassword)
      errors.confirmPassword = 'settings.account.errors.confirmMismatch';
  }
  return errors;
}
