/**
 * Admin account settings: change the username and/or password. The current password is required;
 * after a successful change every session ends, so the admin is signed out and asked to log in
 * again. Errors go when a field changes or another section saves (section-errors.ts).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Card } from '../../../../components/card.tsx';
import { TextField } from '../../../../components/form-field.tsx';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useErrorFocus } from '../../../../lib/forms/use-error-focus.ts';
import { useAuthStore } from '../../../auth/index.ts';
import { useChangePassword } from '../api/change-password.ts';
import { validateAccountForm, type AccountFormErrors, type AccountFormValues } from '../account-form.ts';
import { SettingsFormEnd } from './form-end.tsx';
import { announceSectionSaved, useSectionErrors } from '../section-errors.ts';

const EMPTY: AccountFormValues = {
  currentPassword: '',
  newUsername: '',
  newPassword: '',
  confirmPassword: '',
};
const NO_ERRORS: AccountFormErrors = {};

/** `title`: the heading in My account, where the person may be a member (the admin's settings say "Admin account"). */
export function AccountSection({ title }: { title?: string } = {}) {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useSectionErrors(NO_ERRORS);
  const [serverError, setServerError] = useSectionErrors<string | null>(null);
  const change = useChangePassword();

  const set = (field: keyof AccountFormValues) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
    // The server judged the values as they were (a wrong current password): changed, they are untried.
    setServerError(null);
  };

  const { errorScope, focusFirstError } = useErrorFocus();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const found = validateAccountForm(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      focusFirstError();
      return;
    }
    change.mutate(
      {
        currentPassword: values.currentPassword,
        ...(values.newUsername.trim() ? { newUsername: values.newUsername.trim() } : {}),
        ...(values.newPassword ? { newPassword: values.newPassword } : {}),
      },
      {
        onSuccess: () => {
          setValues(EMPTY);
          announceSectionSaved();
          void useAuthStore.getState().logout('account-updated');
        },
        onError: (error) => setServerError(errorMessage(error)),
      },
    );
  };

  const text = (field: keyof AccountFormErrors) => (errors[field] ? t(errors[field]) : null);
  return (
    <Card title={title ?? t('settings.account.title')} description={t('settings.account.description')}>
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        <TextField
          label={t('settings.account.currentPassword')}
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          required
          value={values.currentPassword}
          error={text('currentPassword')}
          onChange={set('currentPassword')}
        />
        <TextField
          label={t('settings.account.newUsername')}
          name="newUsername"
          autoComplete="username"
          hint={t('settings.account.newUsernameHint')}
          value={values.newUsername}
          error={text('newUsername')}
          onChange={set('newUsername')}
        />
        <TextField
          label={t('settings.account.newPassword')}
          type="password"
          name="newPassword"
          autoComplete="new-password"
          hint={t('settings.account.newPasswordHint')}
          value={values.newPassword}
          error={text('newPassword')}
          onChange={set('newPassword')}
        />
        <TextField
          label={t('settings.account.confirmPassword')}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={text('confirmPassword')}
          onChange={set('confirmPassword')}
        />
        {errors.form && <Alert tone="error">{t(errors.form)}</Alert>}
        <SettingsFormEnd
          error={serverError}
          errorTestId="account-error"
          pending={change.isPending}
          label={t('settings.account.submit')}
        />
      </form>
    </Card>
  );
}
