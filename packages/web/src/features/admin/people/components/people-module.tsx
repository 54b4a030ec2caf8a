/**
 * Admin module "People" (docs/accounts.md "People"), for admins: everyone with an account — role,
 * status, home folder, quota, extra paths, when they joined — to add, change and delete, and the
 * invites below.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, type UserView } from '@cubby/shared';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { RecordRow } from '../../../../components/record-row.tsx';
import { PencilIcon, PlusIcon, TrashIcon } from '../../../../components/icons.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useAuthStore } from '../../../auth/index.ts';
import { useUsers } from '../api/people-api.ts';
import { DeletePersonDialog } from './delete-person-dialog.tsx';
import { InvitesSection } from './invites-section.tsx';
import { PersonDialog } from './person-dialog.tsx';

export default function PeopleModule() {
  const { t } = useTranslation();
  const users = useUsers();
  const me = useAuthStore((state) => state.userInfo?.name ?? '');
  const [editing, setEditing] = useState<UserView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<UserView | null>(null);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('admin.modules.people')}</h1>
      <Card
        title={t('accounts.people.title')}
        description={t('accounts.people.description')}
        actions={
          <Button size="sm" onClick={() => setEditing('new')} data-testid="add-person">
            <PlusIcon className="size-4" />
            {t('accounts.people.create')}
          </Button>
        }
      >
        {users.isPending ? (
          <PageLoading />
        ) : users.isError ? (
          <LoadError error={users.error} onRetry={() => void users.refetch()} />
        ) : (
          <ul className="space-y-3" aria-label={t('accounts.people.listLabel')}>
            {users.data.map((user) => (
              <RecordRow
                key={user.id}
                testId="person-row"
                title={user.username}
                columns="grid-cols-2 sm:grid-cols-4"
                badges={
                  <>
                    <Badge tone={user.role === 'admin' ? 'accent' : 'muted'}>
                      {t(`accounts.roles.${user.role}`)}
                    </Badge>
                    {user.status === 'disabled' && (
                      <Badge tone="danger">{t('accounts.status.disabled')}</Badge>
                    )}
                  </>
                }
                actions={
                  <>
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={t('accounts.people.editNamed', { name: user.username })}
                      onClick={() => setEditing(user)}
                      data-testid="edit-person"
                    >
                      <PencilIcon className="size-4" />
                      {t('common.edit')}
                    </Button>
                    {user.username !== me && (
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('accounts.people.deleteNamed', { name: user.username })}
                        onClick={() => setDeleting(user)}
                        data-testid="delete-person"
                      >
                        <TrashIcon className="size-4" />
                        {t('common.delete')}
                      </Button>
                    )}
                  </>
                }
              >
                <Fact label={t('accounts.fields.homePath')}>
                  <span className="font-mono break-all" data-user-content="">
                    {user.home_path ?? '—'}
                  </span>
                </Fact>
                <Fact label={t('accounts.fields.quota')}>
                  {user.quota_bytes === null ? (
                    t('accounts.noQuota')
                  ) : (
                    <span data-user-content="">{formatBytes(user.quota_bytes)}</span>
                  )}
                </Fact>
                <Fact label={t('accounts.fields.paths')}>
                  {user.paths.length === 0
                    ? '—'
                    : user.paths.map((grant) => (
                        <span key={grant.path} className="block font-mono break-all">
                          <span data-user-content="">{grant.path}</span> (
                          {t(`accounts.access.${grant.access}`)})
                        </span>
                      ))}
                </Fact>
                <Fact label={t('accounts.fields.created')}>
                  <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
                </Fact>
              </RecordRow>
            ))}
          </ul>
        )}
      </Card>
      <InvitesSection />
      {editing && <PersonDialog user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <DeletePersonDialog
          user={deleting}
          admins={(users.data ?? []).filter((user) => user.role === 'admin' && user.id !== deleting.id)}
          onClose={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
