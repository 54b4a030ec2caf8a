/**
 * Creating a key: the form (name, permissions, base path, expiry, optional custom key), then the
 * new key shown once with a copy button and recipes that use it (key-recipes.tsx). The key lives
 * only in this component's state and is forgotten when the dialog closes; outside clicks and Escape
 * cannot close it by accident.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Button } from '../../../../components/button.tsx';
import { Dialog, DialogActions, FormDialogActions } from '../../../../components/dialog.tsx';
import { Checkbox, TextField } from '../../../../components/form-field.tsx';
import { CheckIcon, CopyIcon } from '../../../../components/icons.tsx';
import { CUSTOM_KEY_MIN } from '@cubby/shared';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { EMPTY_KEY_FORM, validateCreate } from '../key-form.ts';
import { KeyFormFields } from './key-form-fields.tsx';
import { hasRecipes, type KeyGrants, KeyRecipes } from './key-recipes.tsx';
import { useKeyForm } from './use-key-form.ts';
import { useAuthStore } from '../../../auth/index.ts';

export function CreateKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation();
  // A member's key starts at their home folder (docs/accounts.md: it never reaches further than them).
  const home = useAuthStore((state) => state.memberReach?.homePath ?? null);
  const empty = home ? { ...EMPTY_KEY_FORM, basePath: home } : EMPTY_KEY_FORM;
  const { errorScope, ...form } = useKeyForm(empty);
  const create = useCreateApiKey();
  const [created, setCreated] = useState<{ name: string; key: string; grants: KeyGrants } | null>(null);

  const close = (next: boolean) => {
    if (next) return;
    onOpenChange(false);
    setCreated(null);
    form.reset(empty);
    create.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateCreate(form.values);
    if (!result.ok) {
      form.setErrors(result.errors);
      form.setFormError(null);
      return;
    }
    form.setFormError(null);
    create.mutate(result.input, {
      onSuccess: ({ view, key }) => {
        setCreated({
          name: view.name,
          key,
          grants: {
            text: view.text_permission,
            file: view.file_permission,
            mount: view.mount_permission,
            basePath: view.basic_path,
          },
        });
        create.reset();
      },
      onError: (error) => form.showServerError(error, t('errors.unexpected')),
    });
  };

  const { values } = form;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={created ? t('keys.created.title') : t('keys.create.title')}
      description={created ? undefined : t('keys.create.description')}
      modalLock={created !== null}
      wide={created !== null && hasRecipes(created.grants)}
      testId="create-key-dialog"
    >
      {created ? (
        <CreatedKey
          name={created.name}
          secret={created.key}
          grants={created.grants}
          onDone={() => close(false)}
        />
      ) : (
        <form ref={errorScope} onSubmit={onSubmit} noValidate>
          <KeyFormFields
            values={values}
            errors={form.errors}
            serverErrors={form.serverErrors}
            onChange={form.change}
          />
          <div className="mt-4 space-y-3 border-t border-border pt-4">
            <Checkbox
              label={t('keys.fields.useCustomKey')}
              description={t('keys.hints.customKey', { min: CUSTOM_KEY_MIN })}
              checked={values.useCustomKey}
              onChange={(event) => form.change({ useCustomKey: event.target.checked })}
            />
            {values.useCustomKey && (
              <TextField
                label={t('keys.fields.customKey')}
                name="customKey"
                value={values.customKey}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                required
                error={
                  form.errors.customKey ? t(form.errors.customKey) : (form.serverErrors.customKey ?? null)
                }
                onChange={(event) => form.change({ customKey: event.target.value })}
              />
            )}
          </div>
          {form.formError && (
            <Alert tone="error" className="mt-4" testId="key-form-error">
              {form.formError}
            </Alert>
          )}
          <FormDialogActions
            onCancel={() => close(false)}
            pending={create.isPending}
            submitLabel={t('keys.create.submit')}
          />
        </form>
      )}
    </Dialog>
  );
}

function CreatedKey({
  name,
  secret,
  grants,
  onDone,
}: {
  name: string;
  secret: string;
  grants: KeyGrants;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      inputRef.current?.select();
      setCopied(document.execCommand('copy'));
    }
  };

  return (
    <div className="space-y-4">
      <Alert tone="warning" testId="key-once-notice">
        {t('keys.created.onceNotice')}
      </Alert>
      <div className="space-y-1.5">
        <label htmlFor="created-key" className="block text-sm font-medium">
          {t('keys.created.keyFor', { name })}
        </label>
        <div className="flex gap-2">
          <input
            id="created-key"
            ref={inputRef}
            readOnly
            value={secret}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="created-key"
            className="block w-full min-w-0 rounded-md border border-border-strong/70 bg-surface-sunken px-3 py-2 font-mono text-sm text-fg"
          />
          <Button variant="secondary" onClick={() => void copy()} aria-label={t('keys.created.copy')}>
            {copied ? <CheckIcon className="size-4 text-success-text" /> : <CopyIcon className="size-4" />}
            <span className="hidden sm:inline">
              {copied ? t('keys.created.copied') : t('keys.created.copy')}
            </span>
          </Button>
        </div>
        <p aria-live="polite" className="min-h-5 text-xs text-fg-muted">
          {copied === true && t('keys.created.copiedAnnouncement')}
          {copied === false && t('keys.created.copyFailed')}
        </p>
      </div>
      <KeyRecipes secret={secret} grants={grants} />
      <DialogActions>
        <Button onClick={onDone}>{t('keys.created.done')}</Button>
      </DialogActions>
    </div>
  );
}
