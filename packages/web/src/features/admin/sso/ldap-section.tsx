/**
 * The LDAP section of the single sign-on screen (docs/accounts.md, "LDAP"): the one directory
 * people may sign in against with its password, edited in place, and a connection test of the
 * settings in the form (saved or not) that names the step that failed — reach, TLS, the service
 * bind, the search for a username — in the user's language.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LdapConfigView, LdapTestResult } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { Checkbox, TextField, type TextFieldProps } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { submitForm } from '../../../lib/forms/submit-form.ts';
import { useFormState } from '../../../lib/forms/use-form-state.ts';
import { useLdapConfig, useSaveLdapConfig, useTestLdapConfig } from './api/ldap.ts';
import {
  LDAP_SERVER_FIELD,
  type LdapFormErrorKey,
  type LdapFormField,
  type LdapFormValues,
  ldapValuesOf,
  validateLdapForm,
} from './ldap-form.ts';

export function LdapSection() {
  const { t } = useTranslation();
  const config = useLdapConfig();
  return (
    <Card title={t('admin.ldap.title')} description={t('admin.ldap.description')}>
      {config.isPending ? (
        <PageLoading />
      ) : config.isError ? (
        <LoadError error={config.error} onRetry={() => void config.refetch()} />
      ) : (
        <LdapForm key={config.data.updated_at ?? 'new'} config={config.data} />
      )}
    </Card>
  );
}

function LdapForm({ config }: { config: LdapConfigView }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useFormState<LdapFormValues, LdapFormField, LdapFormErrorKey>(
    ldapValuesOf(config),
    { serverField: LDAP_SERVER_FIELD },
  );
  const save = useSaveLdapConfig();
  const test = useTestLdapConfig();
  const [testUser, setTestUser] = useState('');
  const { values, change } = form;
  const error = (field: LdapFormField) => form.fieldError(field, (key) => t(key)) ?? undefined;

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateLdapForm,
      save: (input, done) => save.mutate(input, done),
      savedMessage: () => t('admin.ldap.saved'),
      fallback: t('errors.unexpected'),
      onClose: () => test.reset(),
    });

  const runTest = () => {
    form.setFormError(null);
    const result = validateLdapForm(values);
    if (!result.ok) {
      form.setErrors(result.errors);
      return;
    }
    test.mutate(
      { ...result.input, ...(testUser.trim() ? { username: testUser.trim() } : {}) },
      { onError: (failure) => form.showServerError(failure, t('errors.unexpected')) },
    );
  };

  const text = (field: LdapFormField, name: string, extra: Partial<TextFieldProps> = {}) => (
    <TextField
      label={t(`admin.ldap.fields.${field}`)}
      name={name}
      autoComplete="off"
      value={values[field] as string}
      onChange={(event) => change({ [field]: event.target.value })}
      error={error(field)}
      {...extra}
    />
  );
  const check = (field: 'enabled' | 'startTls' | 'allowSignup') => (
    <Checkbox
      label={t(`admin.ldap.fields.${field}`)}
      description={t(`admin.ldap.hints.${field}`)}
      checked={values[field]}
      onChange={(event) => change({ [field]: event.target.checked })}
    />
  );

  return (
    <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4" data-testid="ldap-form">
      {check('enabled')}
      <div className="grid gap-4 sm:grid-cols-2">
        {text('url', 'url', { hint: t('admin.ldap.hints.url'), placeholder: 'ldaps://ldap.example.com' })}
        <div className="sm:pt-7">{check('startTls')}</div>
        {text('bindDn', 'bind_dn', {
          hint: t('admin.ldap.hints.bindDn'),
          placeholder: 'cn=cubby,ou=services,dc=example,dc=com',
        })}
        {text('bindPassword', 'bind_password', {
          type: 'password',
          autoComplete: 'new-password',
          hint: config.bind_password ? t('admin.ldap.hints.passwordKept') : undefined,
        })}
        {text('userBase', 'user_base', { placeholder: 'ou=people,dc=example,dc=com' })}
        {text('userFilter', 'user_filter', { hint: t('admin.ldap.hints.userFilter') })}
        {text('emailAttribute', 'email_attribute')}
        {text('adminGroup', 'admin_group', {
          hint: t('admin.ldap.hints.adminGroup'),
          placeholder: 'cn=cubby-admins,ou=groups,dc=example,dc=com',
        })}
        {text('timeoutSeconds', 'timeout_seconds', { type: 'number', inputMode: 'numeric', min: 1, max: 30 })}
      </div>
      {check('allowSignup')}

      <fieldset className="space-y-3 rounded-lg border border-border p-4">
        <legend className="px-1 text-sm font-semibold text-fg">{t('admin.ldap.test.title')}</legend>
        <div className="flex flex-wrap items-end gap-3">
          <TextField
            className="min-w-0 flex-1"
            label={t('admin.ldap.test.username')}
            hint={t('admin.ldap.test.usernameHint')}
            name="test_username"
            autoComplete="off"
            value={testUser}
            onChange={(event) => setTestUser(event.target.value)}
          />
          <Button
            type="button"
            variant="secondary"
            onClick={runTest}
            disabled={test.isPending}
            data-testid="test-ldap"
          >
            {test.isPending ? t('admin.ldap.test.running') : t('admin.ldap.test.run')}
          </Button>
        </div>
        <div aria-live="polite">{test.data && <TestResult result={test.data} />}</div>
      </fieldset>

      {form.formError && (
        <Alert tone="error" testId="ldap-form-error">
          {form.formError}
        </Alert>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending} data-testid="save-ldap">
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}

function TestResult({ result }: { result: LdapTestResult }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2" data-testid="ldap-test-result">
      <ul className="space-y-1.5 text-sm">
        {result.steps.map((step) => (
          <li
            key={step.step}
            className="flex flex-wrap items-baseline gap-2"
            data-testid={`ldap-step-${step.step}`}
          >
            <Badge tone={step.ok ? 'success' : 'danger'}>
              {step.ok ? t('admin.ldap.test.ok') : t('admin.ldap.test.failed')}
            </Badge>
            <span className="font-medium text-fg">{t(`admin.ldap.test.steps.${step.step}`)}</span>
            {step.failure && (
              <span className="text-danger-text">{t(`admin.ldap.test.failures.${step.failure}`)}</span>
            )}
            {step.detail && (
              <span className="w-full font-mono text-xs break-all text-fg-muted" data-user-content="">
                {step.detail}
              </span>
            )}
          </li>
        ))}
      </ul>
      {result.user && (
        <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-3" data-testid="ldap-test-user">
          <dt className="text-fg-muted">{t('admin.ldap.test.dn')}</dt>
          <dd className="font-mono break-all" data-user-content="">
            {result.user.dn}
          </dd>
          <dt className="text-fg-muted">{t('admin.ldap.test.email')}</dt>
          <dd className="break-all" data-user-content="">
            {result.user.email ?? '—'}
          </dd>
          <dt className="text-fg-muted">{t('admin.ldap.test.role')}</dt>
          <dd>
            {result.user.admin === null
              ? t('admin.ldap.test.noGroup')
              : result.user.admin
                ? t('admin.ldap.test.admin')
                : t('admin.ldap.test.member')}
          </dd>
        </dl>
      )}
      <Alert tone={result.ok ? 'success' : 'error'}>
        {result.ok ? t('admin.ldap.test.passed') : t('admin.ldap.test.notPassed')}
      </Alert>
    </div>
  );
}
