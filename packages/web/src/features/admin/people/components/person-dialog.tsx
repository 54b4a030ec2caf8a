/**
 * Create or edit a person (docs/accounts.md "People"): name and password (a new one, on edit),
 * role, status (on edit), email, home folder, quota, and extra paths each read only or
 * read-write. Errors sit beside their fields, from the form's check or from the server's `details`.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserView } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Button } from '../../../../components/button.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { SelectField, TextField } from '../../../../components/form-field.tsx';
import { PlusIcon, TrashIcon } from '../../../../components/icons.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage, isApiError } from '../../../../lib/api/index.ts';
import { useErrorFocus } from '../../../../lib/forms/use-error-focus.ts';
import { HomeQuotaFields } from './home-quota-fields.tsx';
import { useCreateUser, useUpdateUser } from '../api/people-api.ts';
import {
  EMPTY_PERSON_FORM,
  personFormOf,
  validateCreatePerson,
  validateUpdatePerson,
  type PathRow,
  type PersonErrors,
  type PersonFormValues,
} from '../person-form.ts';

export function PersonDialog({ user, onClose }: { user: UserView | null; onClose(): void }) {
  const { t } = useTranslation();
  const editing = user !== null;
  const [values, setValues] = useState<PersonFormValues>(() =>
    user ? personFormOf(user) : EMPTY_PERSON_FORM,
  );
  const [errors, setErrors] = useState<PersonErrors>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { errorScope, focusFirstError } = useErrorFocus();
  const create = useCreateUser();
  const update = useUpdateUser();

  const set = <K extends keyof PersonFormValues>(field: K, value: PersonFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const setPath = (index: number, row: Partial<PathRow>) =>
    set(
      'paths',
      values.paths.map((old, i) => (i === index ? { ...old, ...row } : old)),
    );
  const error = (field: string) => {
    const key = errors[field];
    return key ? t(key) : (serverErrors[field] ?? null);
  };

  const onError = (failure: unknown) => {
    setFormError(errorMessage(failure));
    setServerErrors(isApiError(failure) ? (failure.details ?? {}) : {});
    focusFirstError();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setServerErrors({});
    const done = (name: string) => {
      showToast(t(editing ? 'accounts.people.saved' : 'accounts.people.created', { name }), 'success');
      onClose();
    };
    if (user) {
      const result = validateUpdatePerson(values);
      setErrors(result.ok ? {} : result.errors);
      if (!result.ok) focusFirstError();
      if (result.ok)
        update.mutate(
          { id: user.id, input: result.input },
          { onSuccess: () => done(user.username), onError },
        );
    } else {
      const result = validateCreatePerson(values);
      setErrors(result.ok ? {} : result.errors);
      if (!result.ok) focusFirstError();
      if (result.ok) create.mutate(result.input, { onSuccess: (made) => done(made.username), onError });
    }
  };

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={
        editing ? t('accounts.people.editTitle', { name: user.username }) : t('accounts.people.createTitle')
      }
      description={t('accounts.people.formDescription')}
      testId="person-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <div className="grid gap-4 sm:grid-cols-2">
          {!editing && (
            <TextField
              label={t('accounts.fields.username')}
              name="username"
              autoComplete="off"
              required
              value={values.username}
              hint={t('accounts.hints.username')}
              error={error('username')}
              onChange={(event) => set('username', event.target.value)}
            />
          )}
          <TextField
            label={t(editing ? 'accounts.fields.newPassword' : 'accounts.fields.password')}
            name="password"
            type="password"
            autoComplete="new-password"
            required={!editing}
            value={values.password}
            hint={t(editing ? 'accounts.hints.newPassword' : 'accounts.hints.password')}
            error={error('password')}
            onChange={(event) => set('password', event.target.value)}
          />
          <SelectField
            label={t('accounts.fields.role')}
            name="role"
            value={values.role}
            error={error('role')}
            onChange={(event) => set('role', event.target.value as PersonFormValues['role'])}
          >
            <option value="member">{t('accounts.roles.member')}</option>
            <option value="admin">{t('accounts.roles.admin')}</option>
          </SelectField>
          {editing && (
            <SelectField
              label={t('accounts.fields.status')}
              name="status"
              value={values.status}
              error={error('status')}
              onChange={(event) => set('status', event.target.value as PersonFormValues['status'])}
            >
              <option value="active">{t('accounts.status.active')}</option>
              <option value="disabled">{t('accounts.status.disabled')}</option>
            </SelectField>
          )}
          <TextField
            label={t('accounts.fields.email')}
            name="email"
            type="email"
            autoComplete="off"
            value={values.email}
            error={error('email')}
            onChange={(event) => set('email', event.target.value)}
          />
          <HomeQuotaFields values={values} set={set} error={error} username={values.username} />
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-fg">{t('accounts.fields.paths')}</legend>
          <p className="text-xs text-fg-muted">{t('accounts.hints.paths')}</p>
          {values.paths.map((row, index) => (
            <div
              key={index}
              className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 sm:grid-cols-[minmax(0,1fr)_10rem_auto]"
              data-testid="path-row"
            >
              {/* A phone gives the path the whole row, the access and the remove button the next. */}
              <div className="col-span-2 sm:col-span-1">
                <TextField
                  label={t('accounts.fields.pathNumber', { number: index + 1 })}
                  name={`paths.${index}.path`}
                  value={row.path}
                  placeholder={t('accounts.placeholders.path')}
                  error={error(`paths.${index}.path`)}
                  onChange={(event) => setPath(index, { path: event.target.value })}
                />
              </div>
              <SelectField
                label={t('accounts.fields.access')}
                name={`paths.${index}.access`}
                value={row.access}
                onChange={(event) => setPath(index, { access: event.target.value as PathRow['access'] })}
              >
                <option value="read">{t('accounts.access.read')}</option>
                <option value="write">{t('accounts.access.write')}</option>
              </SelectField>
              <Button
                variant="ghost"
                size="sm"
                className="mt-6"
                aria-label={t('accounts.people.removePath', { number: index + 1 })}
                onClick={() =>
                  set(
                    'paths',
                    values.paths.filter((_, i) => i !== index),
                  )
                }
              >
                <TrashIcon className="size-4" />
              </Button>
            </div>
          ))}
          <Button
            variant="secondary"
            data-testid="add-path"
            size="sm"
            onClick={() => set('paths', [...values.paths, { path: '', access: 'read' }])}
          >
            <PlusIcon className="size-4" />
            {t('accounts.people.addPath')}
          </Button>
        </fieldset>
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending || update.isPending}
          submitLabel={editing ? undefined : t('accounts.people.create')}
          submitTestId="person-submit"
        />
      </form>
    </Dialog>
  );
}
