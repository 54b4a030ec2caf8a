/**
 * The pastes of one page: a table on wide screens, cards on phones. Each row: selection, link
 * suffix and remark, status, creator key, views / max views, expiry, created date, and preview /
 * edit / delete actions.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasteSummary } from '@cubby/shared';
import { Badge, type BadgeTone } from '../../../../components/badge.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { EyeIcon, PencilIcon, PowerIcon, TrashIcon } from '../../../../components/icons.tsx';
import { RowActions, type RowAction } from '../../../../components/row-actions.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { SelectableShareList, type ShareSelection } from '../../../shares/index.ts';

export interface PasteListProps extends ShareSelection {
  pastes: PasteSummary[];
  onPreview(paste: PasteSummary): void;
  onEdit(paste: PasteSummary): void;
  onDelete(paste: PasteSummary): void;
  onRevoke(paste: PasteSummary): void;
}

const STATUS_TONE: Record<PasteSummary['status'], BadgeTone> = {
  active: 'success',
  expired: 'danger',
  used_up: 'warning',
  revoked: 'danger',
};

function useRowText() {
  const { t } = useTranslation();
  return {
    status: (paste: PasteSummary) => t(`textManagement.status.${paste.status}`),
    creator: (paste: PasteSummary): ReactNode =>
      !paste.created_by?.startsWith('apikey:') ? (
        t('textManagement.createdByAdmin')
      ) : paste.key_name ? (
        <span data-user-content="">{paste.key_name}</span>
      ) : (
        t('textManagement.deletedKey')
      ),
    views: (paste: PasteSummary) =>
      paste.max_views > 0
        ? t('textManagement.viewsOf', { views: paste.views, max: paste.max_views })
        : t('textManagement.viewsUnlimited', { views: paste.views }),
  };
}

/** Preview, edit and delete; icons only (with their names for assistive tech) in the table. */
function Actions({
  paste,
  compact = false,
  onPreview,
  onEdit,
  onDelete,
  onRevoke,
}: { paste: PasteSummary; compact?: boolean } & Pick<
  PasteListProps,
  'onPreview' | 'onEdit' | 'onDelete' | 'onRevoke'
>) {
  const { t } = useTranslation();
  const actions: RowAction[] = [
    {
      testId: 'preview-paste',
      icon: <EyeIcon className="size-4" />,
      text: t('textManagement.preview.button'),
      name: t('textManagement.preview.action', { slug: paste.slug }),
      onClick: () => onPreview(paste),
    },
    {
      testId: 'edit-paste',
      icon: <PencilIcon className="size-4" />,
      text: t('common.edit'),
      name: t('textManagement.edit.action', { slug: paste.slug }),
      onClick: () => onEdit(paste),
    },
    ...(paste.status === 'revoked'
      ? []
      : [
          {
            testId: 'revoke-paste',
            icon: <PowerIcon className="size-4" />,
            text: t('textManagement.revoke.button'),
            name: t('textManagement.revoke.action', { slug: paste.slug }),
            onClick: () => onRevoke(paste),
          },
        ]),
    {
      testId: 'delete-paste',
      icon: <TrashIcon className="size-4 text-danger-text" />,
      text: t('common.delete'),
      name: t('textManagement.delete.action', { slug: paste.slug }),
      onClick: () => onDelete(paste),
    },
  ];
  return <RowActions actions={actions} compact={compact} />;
}

const titleId = (paste: PasteSummary) => `text-share-${paste.id}`;

function SlugCell({ paste }: { paste: PasteSummary }) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0">
      <p id={titleId(paste)} className="font-mono text-sm font-medium break-all text-fg" data-user-content="">
        {paste.slug}
      </p>
      <p className="truncate text-xs text-fg-muted" data-user-content="" title={paste.remark ?? undefined}>
        {paste.title || paste.remark || paste.content_preview.slice(0, 80)}
      </p>
      <div className="mt-1 flex flex-wrap gap-1">
        <Badge tone="muted">
          {paste.format === 'markdown' ? t('pastes.format.markdown') : t('pastes.format.text')}
        </Badge>
        {paste.has_password && <Badge tone="warning">{t('pastes.protected')}</Badge>}
        {paste.file_count > 1 && (
          <Badge tone="muted">{t('pastes.fileCount', { count: paste.file_count })}</Badge>
        )}
        {paste.is_public && <Badge tone="muted">{t('pastes.public')}</Badge>}
      </div>
    </div>
  );
}

type PasteColumn = 'slug' | 'status' | 'creator' | 'views' | 'expires' | 'created';
const COLUMNS: readonly PasteColumn[] = ['slug', 'status', 'creator', 'views', 'expires', 'created'];

export function PasteList(props: PasteListProps) {
  const { t } = useTranslation();
  const text = useRowText();
  const expiry = (paste: PasteSummary) =>
    paste.expires_at ? (
      <time dateTime={paste.expires_at}>{formatDateTime(paste.expires_at)}</time>
    ) : (
      t('pastes.expiry.never')
    );
  const status = (paste: PasteSummary) => (
    <Badge tone={STATUS_TONE[paste.status]} testId="paste-status">
      {text.status(paste)}
    </Badge>
  );
  const created = (paste: PasteSummary) => (
    <time dateTime={paste.created_at}>{formatDateTime(paste.created_at)}</time>
  );

  return (
    <SelectableShareList
      items={props.pastes}
      selected={props.selected}
      onToggle={props.onToggle}
      onToggleAll={props.onToggleAll}
      label={t('textManagement.listLabel')}
      selectAllLabel={t('textManagement.selectAll')}
      selectLabel={(paste) => t('textManagement.select', { slug: paste.slug })}
      rowTestId="paste-row"
      card={(paste) => ({
        titleId: titleId(paste),
        title: <SlugCell paste={paste} />,
        aside: status(paste),
        facts: (
          <>
            <Fact label={t('textManagement.columns.creator')}>{text.creator(paste)}</Fact>
            <Fact label={t('textManagement.columns.views')}>{text.views(paste)}</Fact>
            <Fact label={t('textManagement.columns.expires')}>{expiry(paste)}</Fact>
            <Fact label={t('textManagement.columns.created')}>{created(paste)}</Fact>
          </>
        ),
        actions: <Actions paste={paste} {...props} />,
      })}
      table={{
        wrapperClassName: 'overflow-x-auto',
        columns: [
          ...COLUMNS.map((column) => ({
            label: t(`textManagement.columns.${column}`),
            className: 'py-2 pe-3 font-medium whitespace-nowrap',
          })),
          {
            label: <span className="sr-only">{t('textManagement.columns.actions')}</span>,
            className: 'py-2 font-medium',
          },
        ],
        cells: (paste) => (
          <>
            <td className="max-w-64 py-3 pe-3">
              <SlugCell paste={paste} />
            </td>
            <td className="py-3 pe-3">{status(paste)}</td>
            <td className="max-w-40 min-w-20 py-3 pe-3 break-words">{text.creator(paste)}</td>
            <td className="py-3 pe-3 whitespace-nowrap" data-testid="paste-views">
              {text.views(paste)}
            </td>
            <td className="py-3 pe-3 whitespace-nowrap">{expiry(paste)}</td>
            <td className="py-3 pe-3 whitespace-nowrap">{created(paste)}</td>
            <td className="py-3">
              <Actions paste={paste} compact {...props} />
            </td>
          </>
        ),
      }}
    />
  );
}
