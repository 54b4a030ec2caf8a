/**
 * One's passkeys (docs/accounts.md "Passkeys"): add one with a name (the browser's own prompt —
 * fingerprint, face, PIN or a security key), see each one's kind and last use, rename, remove. A
 * person's first second factor also brings ten recovery codes, shown here once. Having a passkey
 * turns two-factor sign-in on, which the description says.
 */
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { PasskeyView } from '@cubby/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Badge } from '../../../../components/badge.tsx';
import { RowActions } from '../../../../components/row-actions.tsx';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { TextField } from '../../../../components/form-field.tsx';
import { PencilIcon, TrashIcon } from '../../../../components/icons.tsx';
import { QueryList } from '../../../../components/list-states.tsx';
import { RecordRow } from '../../../../components/record-row.tsx';
import { Spinner } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { passkeyErrorKey } from '../../../auth/index.ts';
import { RevokeConfirm } from '../../components/revoke-confirm.tsx';
import { usePasskeys, useRegisterPasskey, useRemovePasskey, useRenamePasskey } from '../api/passkeys-api.ts';

export function PasskeysSection() {
  const { t } = useTranslation();
  const list = usePasskeys();
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const [renaming, setRenaming] = useState<PasskeyView | null>(null);
  const remove = useRemovePasskey();

  return (
    <Card title={t('accounts.passkeys.title')} description={t('accounts.passkeys.description')}>
      <div className="space-y-5">
        {browserSupportsWebAuthn() ? (
          <NewPasskey />
        ) : (
          <Alert tone="warning">{t('auth.passkey.errors.unsupported')}</Alert>
        )}
        <QueryList
          query={list}
          label={t('accounts.passkeys.listLabel')}
          empty={{
            title: t('accounts.passkeys.empty.title'),
            description: t('accounts.passkeys.empty.description'),
          }}
        >
          {(item) => (
            <RecordRow
              key={item.id}
              testId="passkey-row"
              title={item.name}
              badges={
                <Badge tone={item.device_type === 'multiDevice' ? 'accent' : 'muted'}>
                  {item.device_type === 'multiDevice'
                    ? t('accounts.passkeys.synced')
                    : t('accounts.passkeys.singleDevice')}
                </Badge>
              }
              columns="grid-cols-1 sm:grid-cols-2"
              actions={
                <RowActions
                  actions={[
                    {
                      testId: 'rename-passkey',
                      icon: <PencilIcon className="size-4" />,
                      text: t('accounts.passkeys.rename'),
                      name: t('accounts.passkeys.renameNamed', { name: item.name }),
                      onClick: () => setRenaming(item),
                    },
                    {
                      testId: 'remove-passkey',
                      icon: <TrashIcon className="size-4" />,
                      text: t('accounts.passkeys.remove'),
                      name: t('accounts.passkeys.removeNamed', { name: item.name }),
                      onClick: () => setRemoving(item),
                    },
                  ]}
                />
              }
            >
              <Fact label={t('accounts.passkeys.added')}>
                <time dateTime={item.created_at}>{formatDateTime(item.created_at)}</time>
              </Fact>
              <Fact label={t('accounts.passkeys.lastUsed')}>
                {item.last_used_at ? (
                  <time dateTime={item.last_used_at}>{formatDateTime(item.last_used_at)}</time>
                ) : (
                  t('accounts.never')
                )}
              </Fact>
            </RecordRow>
          )}
        </QueryList>
      </div>
      {removing && (
        <RevokeConfirm
          id={removing.id}
          mutation={remove}
          title={t('accounts.passkeys.removeTitle')}
          description={t('accounts.passkeys.removeDescription', { name: removing.name })}
          confirmLabel={t('accounts.passkeys.remove')}
          doneMessage={t('accounts.passkeys.removed', { name: removing.name })}
          onClose={() => setRemoving(null)}
        />
      )}
      {renaming && <RenamePasskey passkey={renaming} onClose={() => setRenaming(null)} />}
    </Card>
  );
}

/** The name field and the browser's ceremony; then any recovery codes, shown once. */
function NewPasskey() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const register = useRegisterPasskey();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) {
      setNameError(t('accounts.errors.nameRequired'));
      return;
    }
    setNameError(null);
    register.mutate(name.trim(), {
      onSuccess: (made) => {
        setName('');
        showToast(t('accounts.passkeys.addedToast', { name: made.name }), 'success');
        if (made.recovery_codes?.length) setCodes(made.recovery_codes);
      },
      onError: (caught) => {
        const key = passkeyErrorKey(caught);
        setError(key ? t(key) : caught.message);
      },
    });
  };

  return (
    <div className="space-y-4">
      {codes && (
        <Alert tone="success">
          <div className="space-y-3" data-testid="passkey-recovery-codes">
            <p className="font-medium">{t('accounts.passkeys.recoveryCodes')}</p>
            <ul className="grid grid-cols-2 gap-x-4 gap-y-1 font-mono text-sm text-fg sm:grid-cols-5">
              {codes.map((code) => (
                <li key={code} data-user-content="">
                  {code}
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <CopyButton text={codes.join('\n')} testId="copy-recovery-codes">
                {t('common.copy')}
              </CopyButton>
              <Button variant="secondary" size="sm" onClick={() => setCodes(null)}>
                {t('accounts.appPasswords.done')}
              </Button>
            </div>
          </div>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
        <TextField
          label={t('accounts.passkeys.name')}
          name="passkeyName"
          required
          maxLength={64}
          value={name}
          placeholder={t('accounts.passkeys.namePlaceholder')}
          error={nameError}
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" className="sm:mt-6" disabled={register.isPending}>
          {register.isPending && <Spinner className="size-4" />}
          {t('accounts.passkeys.add')}
        </Button>
        {error && (
          <div className="sm:col-span-2">
            <Alert tone="error" testId="passkey-add-error">
              {error}
            </Alert>
          </div>
        )}
      </form>
    </div>
  );
}

function RenamePasskey({ passkey, onClose }: { passkey: PasskeyView; onClose(): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(passkey.name);
  const rename = useRenamePasskey();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('accounts.passkeys.renameTitle')}
      testId="passkey-rename-dialog"
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate({ id: passkey.id, name: name.trim() }, { onSuccess: onClose });
        }}
      >
        <TextField
          label={t('accounts.passkeys.name')}
          name="passkeyNewName"
          required
          maxLength={64}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        {rename.error && <Alert tone="error">{rename.error.message}</Alert>}
        <FormDialogActions onCancel={onClose} pending={rename.isPending} />
      </form>
    </Dialog>
  );
}
