/**
 * Creating or editing a single sign-on provider. Mounted only while open (with a `key` per record).
 * The stored client secret shows as its mask: left as is, it is kept.
 */
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { OidcProviderView } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../components/dialog.tsx';
import { Checkbox, TextField } from '../../../components/form-field.tsx';
import { submitForm } from '../../../lib/forms/submit-form.ts';
import { useFormState } from '../../../lib/forms/use-form-state.ts';
import { useCreateSsoProvider, useUpdateSsoProvider } from './api/oidc-providers.ts';
import {
  emptySsoForm,
  SERVER_FIELD,
  type SsoFormErrorKey,
  type SsoFormField,
  type SsoFormValues,
  validateSsoForm,
  valuesOf,
} from './sso-form.ts';

export function SsoDialog({ provider, onClose }: { provider?: OidcProviderView; onClose(): void }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useFormState<SsoFormValues, SsoFormField, SsoFormErrorKey>(
    provider ? valuesOf(provider) : emptySsoForm(),
    { serverField: SERVER_FIELD },
  );
  const create = useCreateSsoProvider();
  const update = useUpdateSsoProvider();
  const { values, change } = form;
  const error = (field: SsoFormField) => form.fieldError(field, (key) => t(key)) ?? undefined;

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateSsoForm,
      save: (input, done) =>
        provider ? update.mutate({ id: provider.id, input }, done) : create.mutate(input, done),
      savedMessage: ({ name }) => t(provider ? 'admin.sso.edit.saved' : 'admin.sso.create.done', { name }),
      fallback: t('errors.unexpected'),
      onClose,
    });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={provider ? t('admin.sso.edit.title') : t('admin.sso.create.title')}
      description={t('admin.sso.create.description')}
      testId="sso-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label={t('admin.sso.fields.name')}
          name="name"
          value={values.name}
          onChange={(event) => change({ name: event.target.value })}
          error={error('name')}
          hint={t('admin.sso.hints.name')}
          required
        />
        <TextField
          label={t('admin.sso.fields.issuer')}
          name="issuer"
          type="url"
          placeholder="https://id.example.com/realms/main"
          value={values.issuer}
          onChange={(event) => change({ issuer: event.target.value })}
          error={error('issuer')}
          hint={t('admin.sso.hints.issuer')}
          required
        />
        <TextField
          label={t('admin.sso.fields.clientId')}
          name="client_id"
          autoComplete="off"
          value={values.clientId}
          onChange={(event) => change({ clientId: event.target.value })}
          error={error('clientId')}
          required
        />
        <TextField
          label={t('admin.sso.fields.clientSecret')}
          name="client_secret"
          type="password"
          autoComplete="new-password"
          value={values.clientSecret}
          onChange={(event) => change({ clientSecret: event.target.value })}
          error={error('clientSecret')}
          hint={provider ? t('admin.sso.hints.secretKept') : undefined}
        />
        <TextField
          label={t('admin.sso.fields.scopes')}
          name="scopes"
          value={values.scopes}
          onChange={(event) => change({ scopes: event.target.value })}
          error={error('scopes')}
        />
        <Checkbox
          label={t('admin.sso.fields.allowSignup')}
          description={t('admin.sso.hints.allowSignup')}
          checked={values.allowSignup}
          onChange={(event) => change({ allowSignup: event.target.checked })}
        />
        <Checkbox
          label={t('admin.sso.fields.linkByEmail')}
          description={t('admin.sso.hints.linkByEmail')}
          checked={values.linkByEmail}
          onChange={(event) => change({ linkByEmail: event.target.checked })}
        />
        <TextField
          label={t('admin.sso.fields.roleClaim')}
          name="role_claim"
          value={values.roleClaim}
          onChange={(event) => change({ roleClaim: event.target.value })}
          error={error('roleClaim')}
          hint={t('admin.sso.hints.roleClaim')}
        />
        <TextField
          label={t('admin.sso.fields.adminValues')}
          name="admin_values"
          value={values.adminValues}
          onChange={(event) => change({ adminValues: event.target.value })}
          error={error('adminValues')}
          hint={t('admin.sso.hints.adminValues')}
        />
        <Checkbox
          label={t('admin.sso.fields.enabled')}
          checked={values.enabled}
          onChange={(event) => change({ enabled: event.target.checked })}
        />
        {form.formError && (
          <Alert tone="error" testId="sso-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending || update.isPending}
          submitTestId="save-sso-provider"
        />
      </form>
    </Dialog>
  );
}
