/**
 * The pastes of one page: a table on wide screens, cards on phones. Each row: selection, link
 * suffix and remark, status, creator key, views / max views, expiry, created date, and preview /
 * edit / delete actions.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasteSummary } from '@cubby/shared';
import { Badge, type BadgeTone } from '../../../../components/badge.tsx';
import { EyeIcon, PencilIcon, TrashIcon } from '../../../../components/icons.tsx';
import { RowActions, type RowAction } from '../../../../components/row-actions.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useMediaQuery } from '../../../../lib/use-media-query.ts';

export interface PasteListProps {
  pastes: PasteSummary[];
  selected: ReadonlySet<string>;
  onToggle(id: string, selected: boolean): void;
  onToggleAll(selected: boolean): void;
  onPreview(paste: PasteSummary): void;
  onEdit(paste: PasteSummary): void;
  onDelete(paste: PasteSummary): void;
}

const STATUS_TONE: Record<PasteSummary['status'], BadgeTone> = {
  active: 'success',
  expired: 'danger',
  used_up: 'warning',
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
}: { paste: PasteSummary; compact?: boolean } & Pick<PasteListProps, 'onPreview' | 'onEdit' | 'onDelete'>) {
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

function SlugCell({ paste }: { paste: PasteSummary }) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0">
      <p className="font-mono text-sm font-medium break-all text-fg" data-user-content="">
        {paste.slug}
      </p>
      <p className="truncate text-xs text-fg-muted" data-user-content="" title={paste.remark ?? undefined}>
        {paste.remark || paste.content_preview.slice(0, 80)}
      </p>
      <div className="mt-1 flex flex-wrap gap-1">
        <Badge tone="muted">
          {paste.format === 'markdown' ? t('pastes.format.markdown') : t('pastes.format.text')}
        </Badge>
        {paste.has_password && <Badge tone="warning">{t('pastes.protected')}</Badge>}
      </div>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-fg-muted">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-fg">{children}</dd>
    </div>
  );
}

export function PasteList(props: PasteListProps) {
  const { t } = useTranslation();
  const text = useRowText();
  const wide = useMediaQuery('(min-width: 1024px)');
  const { pastes, selected, onToggle, onToggleAll } = props;
  const allSelected = pastes.length > 0 && pastes.every((paste) => selected.has(paste.id));
  const expiry = (paste: PasteSummary) =>
    paste.expires_at ? (
      <time dateTime={paste.expires_at}>{formatDateTime(paste.expires_at)}</time>
    ) : (
      t('pastes.expiry.never')
    );

  if (!wide) {
    return (
      <div className="space-y-3">
        <label className="flex items-center gap-2 text-sm text-fg-muted">
          <input
            type="checkbox"
            className="size-4 accent-accent"
            checked={allSelected}
            onChange={(event) => onToggleAll(event.target.checked)}
          />
          {t('textManagement.selectAll')}
        </label>
        <ul className="space-y-3" aria-label={t('textManagement.listLabel')}>
          {pastes.map((paste) => (
            <li key={paste.id} data-testid="paste-row" data-slug={paste.slug}>
              <article className="rounded-lg border border-border bg-surface p-4" aria-label={paste.slug}>
                <div className="flex items-start gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 size-4 shrink-0 accent-accent"
                    checked={selected.has(paste.id)}
                    onChange={(event) => onToggle(paste.id, event.target.checked)}
                    aria-label={t('textManagement.select', { slug: paste.slug })}
                  />
                  <div className="min-w-0 flex-1">
                    <SlugCell paste={paste} />
                  </div>
                  <Badge tone={STATUS_TONE[paste.status]} testId="paste-status">
                    {text.status(paste)}
                  </Badge>
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-border pt-3">
                  <Fact label={t('textManagement.columns.creator')}>{text.creator(paste)}</Fact>
                  <Fact label={t('textManagement.columns.views')}>{text.views(paste)}</Fact>
                  <Fact label={t('textManagement.columns.expires')}>{expiry(paste)}</Fact>
                  <Fact label={t('textManagement.columns.created')}>
                    <time dateTime={paste.created_at}>{formatDateTime(paste.created_at)}</time>
                  </Fact>
                </dl>
                <div className="mt-3 border-t border-border pt-3">
                  <Actions paste={paste} {...props} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={t('textManagement.listLabel')}>
        <thead className="border-b border-border text-xs text-fg-muted">
          <tr>
            <th scope="col" className="w-8 py-2 pe-2">
              <input
                type="checkbox"
                className="size-4 accent-accent"
                checked={allSelected}
                onChange={(event) => onToggleAll(event.target.checked)}
                aria-label={t('textManagement.selectAll')}
              />
            </th>
            <th scope="col" className="py-2 pe-3 font-medium whitespace-nowrap">
              {t('textManagement.columns.slug')}
            </th>
            <th scope="col" className="py-2 pe-3 font-medium whitespace-nowrap">
              {t('textManagement.columns.status')}
            </th>
            <th scope="col" className="py-2 pe-3 font-medium whitespace-nowrap">
              {t('textManagement.columns.creator')}
            </th>
            <th scope="col" className="py-2 pe-3 font-medium whitespace-nowrap">
              {t('textManagement.columns.views')}
            </th>
            <th scope="col" className="py-2 pe-3 font-medium whitespace-nowrap">
              {t('textManagement.columns.expires')}
            </th>
            <th scope="col" className="py-2 pe-3 font-medium whitespace-nowrap">
              {t('textManagement.columns.created')}
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">{t('textManagement.columns.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {pastes.map((paste) => (
            <tr key={paste.id} data-testid="paste-row" data-slug={paste.slug} className="align-top">
              <td className="py-3 pe-2">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-accent"
                  checked={selected.has(paste.id)}
                  onChange={(event) => onToggle(paste.id, event.target.checked)}
                  aria-label={t('textManagement.select', { slug: paste.slug })}
                />
              </td>
              <td className="max-w-64 py-3 pe-3">
                <SlugCell paste={paste} />
              </td>
              <td className="py-3 pe-3">
                <Badge tone={STATUS_TONE[paste.status]} testId="paste-status">
                  {text.status(paste)}
                </Badge>
              </td>
              <td className="max-w-40 min-w-20 py-3 pe-3 break-words">{text.creator(paste)}</td>
              <td className="py-3 pe-3 whitespace-nowrap" data-testid="paste-views">
                {text.views(paste)}
              </td>
              <td className="py-3 pe-3 whitespace-nowrap">{expiry(paste)}</td>
              <td className="py-3 pe-3 whitespace-nowrap">
                <time dateTime={paste.created_at}>{formatDateTime(paste.created_at)}</time>
              </td>
              <td className="py-3">
                <Actions paste={paste} compact {...props} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
