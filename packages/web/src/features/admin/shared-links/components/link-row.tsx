/**
 * One bundle or folder link in the list: its title (or what it shares), its state, what it holds,
 * views, expiry and link (copy, open), and the edit and revoke actions (a revoked link can only be
 * looked at: the server refuses changes to it).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BundleSummary, ShareState } from '@cubby/shared';
import { Badge, type BadgeTone } from '../../../../components/badge.tsx';
import { buttonClasses } from '../../../../components/button.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { ExternalLinkIcon, PencilIcon, PowerIcon } from '../../../../components/icons.tsx';
import { RecordRow } from '../../../../components/record-row.tsx';
import { RowActions, rowActionTextClass, type RowAction } from '../../../../components/row-actions.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';

/** What a bundle and a folder link have in common. */
export type ManagedLink = Pick<
  BundleSummary,
  'id' | 'slug' | 'url' | 'title' | 'has_password' | 'expires_at' | 'max_views' | 'views' | 'state'
>;

const STATE_TONE: Record<ShareState, BadgeTone> = {
  active: 'success',
  expired: 'danger',
  used_up: 'warning',
  revoked: 'danger',
};

export function LinkRow({
  link,
  name,
  holds,
  testId,
  onEdit,
  onRevoke,
}: {
  link: ManagedLink;
  /** What the row is called (its title, else what it shares). */
  name: string;
  /** The kind's own fact (its items, its folder). */
  holds: { label: string; value: ReactNode };
  testId: string;
  onEdit(): void;
  onRevoke(): void;
}) {
  const { t } = useTranslation();
  const actions: RowAction[] =
    link.state === 'revoked'
      ? []
      : [
          {
            testId: 'edit-link',
            icon: <PencilIcon className="size-4" />,
            text: t('common.edit'),
            name: t('admin.links.editNamed', { name }),
            onClick: onEdit,
          },
          {
            testId: 'revoke-link',
            icon: <PowerIcon className="size-4 text-danger-text" />,
            text: t('admin.links.revoke.button'),
            name: t('admin.links.revoke.action', { name }),
            onClick: onRevoke,
          },
        ];
  return (
    <RecordRow
      title={name}
      testId={testId}
      columns="grid-cols-2 sm:grid-cols-5"
      badges={
        <>
          <Badge tone={STATE_TONE[link.state]} testId="link-state">
            {link.state === 'active' ? t('admin.links.active') : t(`admin.files.status.${link.state}`)}
          </Badge>
          {link.has_password && <Badge tone="muted">{t('admin.links.protected')}</Badge>}
        </>
      }
      actions={
        <RowActions actions={actions}>
          <CopyButton text={link.url} testId="copy-link" label={t('admin.links.copyNamed', { name })}>
            <span className={rowActionTextClass(false)}>{t('admin.links.copy')}</span>
          </CopyButton>
          <a
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('admin.links.openNamed', { name })}
            className={buttonClasses('secondary', 'sm')}
            data-testid="open-link"
          >
            <ExternalLinkIcon className="size-4" />
            <span className={rowActionTextClass(false)}>{t('admin.links.open')}</span>
          </a>
        </RowActions>
      }
    >
      <Fact label={holds.label}>{holds.value}</Fact>
      <Fact label={t('admin.links.facts.views')}>
        {link.max_views > 0
          ? t('admin.files.viewsOf', { views: link.views, max: link.max_views })
          : t('admin.files.viewsUnlimited', { views: link.views })}
      </Fact>
      <Fact label={t('admin.links.facts.expires')}>
        {link.expires_at ? (
          <time dateTime={link.expires_at}>{formatDateTime(link.expires_at)}</time>
        ) : (
          t('admin.files.never')
        )}
      </Fact>
      <Fact label={t('admin.links.facts.link')} className="col-span-2">
        <span className="font-mono break-all" data-user-content="" data-testid="link-url">
          {link.url}
        </span>
      </Fact>
    </RecordRow>
  );
}
