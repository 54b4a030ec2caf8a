/**
 * Invites (docs/accounts.md "People"): make a one-time link (role, email, home folder, quota, days),
 * shown once with a copy button; the list says when each was made, when it expires, who used it
 * and its state; an open one can be revoked.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteView } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Badge, type BadgeTone } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { RecordRow } from '../../../../components/record-row.tsx';
import { SelectField, TextField } from '../../../../components/form-field.tsx';
import { PlusIcon, TrashIcon } from '../../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { errorMessage, isApiError } from '../../../../lib/api/index.ts';
import { useErrorFocus } from '../../../../lib/forms/use-error-focus.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { RevokeConfirm } from '../../components/revoke-confirm.tsx';
import { HomeQuotaFields } from './home-quota-fields.tsx';
import { useCreateInvite, useInvites, useRevokeInvite, useUsers } from '../api/people-api.ts';
import {
  EMPTY_INVITE_FORM,
  validateInvite,
  type InviteFormValues,
  type PersonErrors,
} from '../person-form.ts';

type InviteState = 'open' | 'used' | 'expired';
const STATE_TONES: Record<InviteState, BadgeTone> = { open: 'success', used: 'muted', expired: 'warning' };

function stateOf(invite: InviteView, now: number): InviteState {
  if (invite.used_at || invite.used_by) return 'used';
  return new Date(invite.expires_at).getTime() <= now ? 'expired' : 'open';
}

export function InvitesSection() {
  const { t } = useTranslation();
  const invites = useInvites();
  // `used_by` is an id: shown as the person's name while they exist.
  const users = useUsers();
  const nameOf = (id: string) => users.data?.find((user) => user.id === id)?.username ?? id;
  const [creating, setCreating] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<InviteView | null>(null);
  const revoke = useRevokeInvite();
  // When the list was fetched: the rows exist only once it was.
  const now = invites.dataUpdatedAt;

  return (
    <Card
      title={t('accounts.invites.title')}
      description={t('accounts.invites.description')}
      actions={
        <Button size="sm" onClick={() => setCreating(true)} data-testid="create-invite">
          <PlusIcon className="size-4" />
          {t('accounts.invites.create')}
        </Button>
      }
    >
      <div className="space-y-4">
        {link && (
          <Alert tone="success">
            <div className="space-y-2" data-testid="invite-link">
              <p className="font-medium">{t('accounts.invites.shownOnce')}</p>
              <div className="flex flex-wrap items-center gap-2">
                <code
                  className="min-w-0 rounded bg-surface-sunken px-2 py-1 font-mono text-sm break-all text-fg"
                  data-testid="invite-url"
                  data-user-content=""
                >
                  {link}
                </code>
                <CopyButton text={link} testId="copy-invite-link">
                  {t('common.copy')}
                </CopyButton>
                <Button variant="ghost" size="sm" onClick={() => setLink(null)}>
                  {t('common.dismiss')}
                </Button>
              </div>
            </div>
          </Alert>
        )}
        {invites.isPending ? (
          <PageLoading />
        ) : invites.isError ? (
          <LoadError error={invites.error} onRetry={() => void invites.refetch()} />
        ) : invites.data.length === 0 ? (
          <EmptyState
            title={t('accounts.invites.empty.title')}
            description={t('accounts.invites.empty.description')}
          />
        ) : (
          <ul className="space-y-3" aria-label={t('accounts.invites.listLabel')}>
            {invites.data.map((invite) => {
              const state = stateOf(invite, now);
              const label = invite.email ?? t(`accounts.roles.${invite.role}`);
              return (
                <RecordRow
                  key={invite.id}
                  testId="invite-row"
                  title={label}
                  columns="grid-cols-2 sm:grid-cols-4"
                  badges={<Badge tone={STATE_TONES[state]}>{t(`accounts.invites.states.${state}`)}</Badge>}
                  actions={
                    state === 'open' && (
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('accounts.invites.revokeNamed', { name: label })}
                        onClick={() => setRevoking(invite)}
                      >
                        <TrashIcon className="size-4" />
                        {t('accounts.invites.revoke')}
                      </Button>
                    )
                  }
                >
                  <Fact label={t('accounts.fields.role')}>{t(`accounts.roles.${invite.role}`)}</Fact>
                  <Fact label={t('accounts.invites.created')}>
                    <time dateTime={invite.created_at}>{formatDateTime(invite.created_at)}</time>
                  </Fact>
                  <Fact label={t('accounts.invites.expires')}>
                    <time dateTime={invite.expires_at}>{formatDateTime(invite.expires_at)}</time>
                  </Fact>
                  <Fact label={t('accounts.invites.usedBy')}>
                    {invite.used_by ? <span data-user-content="">{nameOf(invite.used_by)}</span> : '—'}
                  </Fact>
                </RecordRow>
              );
            })}
          </ul>
        )}
      </div>
      {creating && (
        <CreateInviteDialog
          onClose={() => setCreating(false)}
          onCreated={(url) => {
            setCreating(false);
            setLink(url);
          }}
        />
      )}
      {revoking && (
        <RevokeConfirm
          id={revoking.id}
          mutation={revoke}
          title={t('accounts.invites.revokeTitle')}
          description={t('accounts.invites.revokeDescription')}
          confirmLabel={t('accounts.invites.revoke')}
          doneMessage={t('accounts.invites.revoked')}
          onClose={() => setRevoking(null)}
        />
      )}
    </Card>
  );
}

function CreateInviteDialog({ onClose, onCreated }: { onClose(): void; onCreated(url: string): void }) {
  const { t } = useTranslation();
  const create = useCreateInvite();
  const { errorScope, focusFirstError } = useErrorFocus();
  const [values, setValues] = useState<InviteFormValues>(EMPTY_INVITE_FORM);
  const [errors, setErrors] = useState<PersonErrors>({});
  const [server, setServer] = useState<{ message: string; details: Record<string, string> } | null>(null);
  const set = <K extends keyof InviteFormValues>(field: K, value: InviteFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const error = (field: string) => {
    const key = errors[field];
    return key ? t(key) : (server?.details[field] ?? null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServer(null);
    const result = validateInvite(values);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) {
      focusFirstError();
      return;
    }
    create.mutate(result.input, {
      onSuccess: (invite) => onCreated(invite.url),
      onError: (failure) => {
        setServer({
          message: errorMessage(failure),
          details: isApiError(failure) ? (failure.details ?? {}) : {},
        });
        focusFirstError();
      },
    });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('accounts.invites.createTitle')}
      description={t('accounts.invites.createDescription')}
      testId="invite-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        {server && <Alert tone="error">{server.message}</Alert>}
        <SelectField
          label={t('accounts.fields.role')}
          name="role"
          value={values.role}
          onChange={(event) => set('role', event.target.value as InviteFormValues['role'])}
        >
          <option value="member">{t('accounts.roles.member')}</option>
          <option value="admin">{t('accounts.roles.admin')}</option>
        </SelectField>
        <TextField
          label={t('accounts.fields.email')}
          name="email"
          type="email"
          value={values.email}
          hint={t('accounts.hints.inviteEmail')}
          error={error('email')}
          onChange={(event) => set('email', event.target.value)}
        />
        <HomeQuotaFields values={values} set={set} error={error} />
        <TextField
          label={t('accounts.fields.days')}
          name="days"
          type="number"
          min={1}
          max={90}
          value={values.days}
          hint={t('accounts.hints.days')}
          error={error('expires_in_days')}
          onChange={(event) => set('days', event.target.value)}
        />
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending}
          submitLabel={t('accounts.invites.create')}
          submitTestId="invite-submit"
        />
      </form>
    </Dialog>
  );
}
