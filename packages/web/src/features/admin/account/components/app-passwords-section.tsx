/**
 * One's app passwords for WebDAV (docs/accounts.md "App passwords for WebDAV"): make one (name, read
 * or read-write, optionally one folder) and see it once, with a copy button and the WebDAV address
 * and an rclone remote ready to paste (key-management's recipes); the list shows each one's first
 * characters, access, folder and last use, and revokes.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { RecordRow } from '../../../../components/record-row.tsx';
import { SelectField, TextField } from '../../../../components/form-field.tsx';
import { TrashIcon } from '../../../../components/icons.tsx';
import { QueryList } from '../../../../components/list-states.tsx';
import { Spinner } from '../../../../components/spinner.tsx';
import { errorMessage, getServerBaseUrl, isApiError } from '../../../../lib/api/index.ts';
import { useErrorFocus } from '../../../../lib/forms/use-error-focus.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useAuthStore } from '../../../auth/index.ts';
import { RevokeConfirm } from '../../components/revoke-confirm.tsx';
import { BasePathPicker, BrowseButton } from '../../key-management/components/base-path-picker.tsx';
import { Recipe } from '../../key-management/components/key-recipes.tsx';
import { rcloneWebdav, webdavUrl } from '../../key-management/recipes.ts';
import type { AppPasswordView } from '@cubby/shared';
import {
  EMPTY_APP_PASSWORD_FORM,
  validateAppPassword,
  type AppPasswordFormErrors,
} from '../app-password-form.ts';
import { useAppPasswords, useCreateAppPassword, useRevokeAppPassword } from '../api/account-api.ts';

export function AppPasswordsSection() {
  const { t } = useTranslation();
  const list = useAppPasswords();
  const [revoking, setRevoking] = useState<AppPasswordView | null>(null);
  const revoke = useRevokeAppPassword();

  return (
    <Card title={t('accounts.appPasswords.title')} description={t('accounts.appPasswords.description')}>
      <div className="space-y-5">
        <NewAppPassword />
        <QueryList
          query={list}
          label={t('accounts.appPasswords.listLabel')}
          empty={{
            title: t('accounts.appPasswords.empty.title'),
            description: t('accounts.appPasswords.empty.description'),
          }}
        >
          {(item) => (
            <RecordRow
              key={item.id}
              testId="app-password-row"
              title={item.name}
              badges={
                <Badge tone={item.access === 'write' ? 'accent' : 'muted'}>
                  {t(`accounts.access.${item.access}`)}
                </Badge>
              }
              actions={
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={t('accounts.appPasswords.revokeNamed', { name: item.name })}
                  onClick={() => setRevoking(item)}
                >
                  <TrashIcon className="size-4" />
                  {t('accounts.appPasswords.revoke')}
                </Button>
              }
            >
              <Fact label={t('accounts.appPasswords.prefix')}>
                <span className="font-mono" data-user-content="">
                  {item.prefix}…
                </span>
              </Fact>
              <Fact label={t('accounts.appPasswords.folder')}>
                <span className="font-mono break-all">
                  {item.path === null ? (
                    t('accounts.appPasswords.everywhere')
                  ) : (
                    <span data-user-content="">{item.path}</span>
                  )}
                </span>
              </Fact>
              <Fact label={t('accounts.appPasswords.lastUsed')}>
                {item.last_used ? (
                  <time dateTime={item.last_used}>{formatDateTime(item.last_used)}</time>
                ) : (
                  t('accounts.never')
                )}
              </Fact>
            </RecordRow>
          )}
        </QueryList>
      </div>
      {revoking && (
        <RevokeConfirm
          id={revoking.id}
          mutation={revoke}
          title={t('accounts.appPasswords.revokeTitle')}
          description={t('accounts.appPasswords.revokeDescription', { name: revoking.name })}
          confirmLabel={t('accounts.appPasswords.revoke')}
          doneMessage={t('accounts.appPasswords.revoked', { name: revoking.name })}
          onClose={() => setRevoking(null)}
        />
      )}
    </Card>
  );
}

/** The form, and the new password (shown once) with its recipes. */
function NewAppPassword() {
  const { t } = useTranslation();
  const username = useAuthStore((state) => state.userInfo?.name ?? '');
  const [values, setValues] = useState(EMPTY_APP_PASSWORD_FORM);
  const [errors, setErrors] = useState<
    AppPasswordFormErrors & { form?: string; serverPath?: string; serverName?: string }
  >({});
  const [created, setCreated] = useState<{ password: string; path: string | null } | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const create = useCreateAppPassword();
  const { errorScope, focusFirstError } = useErrorFocus();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateAppPassword(values);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstError();
      return;
    }
    setErrors({});
    create.mutate(result.input, {
      onSuccess: (answer) => {
        setCreated({ password: answer.password, path: answer.path });
        setValues(EMPTY_APP_PASSWORD_FORM);
      },
      onError: (error) => {
        setErrors({
          form: errorMessage(error),
          serverName: isApiError(error) ? error.details?.name : undefined,
          serverPath: isApiError(error) ? error.details?.path : undefined,
        });
        focusFirstError();
      },
    });
  };

  const origin = getServerBaseUrl();
  return (
    <div className="space-y-4">
      {created && (
        <Alert tone="success">
          <div className="space-y-3" data-testid="new-app-password">
            <p className="font-medium">{t('accounts.appPasswords.shownOnce')}</p>
            <div className="flex flex-wrap items-center gap-2">
              <code
                className="rounded bg-surface-sunken px-2 py-1 font-mono text-sm break-all text-fg"
                data-testid="app-password-value"
                data-user-content=""
              >
                {created.password}
              </code>
              <CopyButton text={created.password} testId="copy-app-password">
                {t('common.copy')}
              </CopyButton>
            </div>
            <Recipe
              id="app-webdav"
              title={t('accounts.appPasswords.webdav')}
              code={webdavUrl({ origin, key: '' }, created.path ?? '/')}
            />
            <Recipe
              id="app-rclone"
              title={t('keys.recipes.rclone')}
              code={rcloneWebdav({ origin, key: created.password }, created.path ?? '/', username)}
            />
            <Button variant="secondary" size="sm" onClick={() => setCreated(null)}>
              {t('accounts.appPasswords.done')}
            </Button>
          </div>
        </Alert>
      )}
      <form
        ref={errorScope}
        onSubmit={onSubmit}
        noValidate
        className="grid gap-3 sm:grid-cols-[1fr_auto_1fr_auto] sm:items-start"
      >
        <TextField
          label={t('accounts.appPasswords.name')}
          name="appPasswordName"
          required
          value={values.name}
          placeholder={t('accounts.appPasswords.namePlaceholder')}
          error={errors.name ? t(errors.name) : (errors.serverName ?? null)}
          onChange={(event) => setValues({ ...values, name: event.target.value })}
        />
        <SelectField
          label={t('accounts.appPasswords.access')}
          name="appPasswordAccess"
          value={values.access}
          onChange={(event) => setValues({ ...values, access: event.target.value as 'read' | 'write' })}
        >
          <option value="write">{t('accounts.access.write')}</option>
          <option value="read">{t('accounts.access.read')}</option>
        </SelectField>
        <TextField
          label={t('accounts.appPasswords.folder')}
          name="appPasswordPath"
          value={values.path}
          placeholder="/"
          hint={t('accounts.appPasswords.folderHint')}
          error={errors.path ? t(errors.path) : (errors.serverPath ?? null)}
          onChange={(event) => setValues({ ...values, path: event.target.value })}
          addon={
            <BrowseButton
              label={t('accounts.appPasswords.browseAction')}
              onClick={() => setBrowsing(true)}
              testId="browse-app-password-path"
            />
          }
        />
        {browsing && (
          <BasePathPicker
            value={values.path}
            title={t('accounts.appPasswords.pickerTitle')}
            description={t('accounts.appPasswords.pickerDescription')}
            onChoose={(path) => setValues({ ...values, path })}
            onClose={() => setBrowsing(false)}
          />
        )}
        <Button type="submit" className="sm:mt-6" disabled={create.isPending}>
          {create.isPending && <Spinner className="size-4" />}
          {t('accounts.appPasswords.create')}
        </Button>
        {errors.form && (
          <div className="sm:col-span-4">
            <Alert tone="error">{errors.form}</Alert>
          </div>
        )}
      </form>
    </div>
  );
}
