/**
 * One's sessions (docs/accounts.md "Sessions"): each with its device, address, when it began and was
 * last used, "this device" on the current one; end one, or end every other one.
 */
import { useTranslation } from 'react-i18next';
import type { SessionView } from '@cubby/shared';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { RecordRow } from '../../../../components/record-row.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PowerIcon } from '../../../../components/icons.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useEndSessions, useSessions } from '../api/account-api.ts';
import { deviceName } from '../device.ts';

export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const end = useEndSessions();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;

  const endSessions = (session: SessionView | null) =>
    end.mutate(session?.id ?? null, {
      onSuccess: () =>
        showToast(t(session ? 'accounts.sessions.ended' : 'accounts.sessions.endedOthers'), 'success'),
      onError: (error) => showToast(errorMessage(error), 'error'),
    });

  return (
    <Card
      title={t('accounts.sessions.title')}
      description={t('accounts.sessions.description')}
      actions={
        others > 0 && (
          <Button variant="secondary" size="sm" disabled={end.isPending} onClick={() => endSessions(null)}>
            {t('accounts.sessions.endOthers')}
          </Button>
        )
      }
    >
      {sessions.isPending ? (
        <PageLoading />
      ) : sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <ul className="space-y-3" aria-label={t('accounts.sessions.listLabel')} data-testid="session-list">
          {sessions.data.map((session) => {
            const device = deviceName(session.user_agent) ?? t('accounts.sessions.unknownDevice');
            return (
              <RecordRow
                key={session.id}
                testId="session-row"
                title={device}
                hint={session.user_agent ?? undefined}
                badges={session.current && <Badge tone="success">{t('accounts.sessions.thisDevice')}</Badge>}
                actions={
                  !session.current && (
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={end.isPending}
                      aria-label={t('accounts.sessions.endNamed', { device })}
                      onClick={() => endSessions(session)}
                    >
                      <PowerIcon className="size-4" />
                      {t('accounts.sessions.end')}
                    </Button>
                  )
                }
              >
                <Fact label={t('accounts.sessions.address')}>
                  <span data-user-content="">{session.ip ?? '—'}</span>
                </Fact>
                <Fact label={t('accounts.sessions.began')}>
                  <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
                </Fact>
                <Fact label={t('accounts.sessions.lastUsed')}>
                  {session.last_used_at ? (
                    <time dateTime={session.last_used_at}>{formatDateTime(session.last_used_at)}</time>
                  ) : (
                    t('accounts.never')
                  )}
                </Fact>
              </RecordRow>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
