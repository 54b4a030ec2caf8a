/**
 * The mounts: a table on wide screens, cards on phones (as the other admin lists). The table is laid
 * out fixed so it always fits its card: the columns that matter least (created, last used, then
 * cache time and order) give way as the card narrows (container queries), and what they held moves
 * into the name cell. Each mount can be activated or deactivated, edited and deleted.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Mount, StorageKindName } from '@cubby/shared';
import { Badge } from '../../../../components/badge.tsx';
import { Fact } from '../../../../components/fact.tsx';
import { PencilIcon, PowerIcon, TrashIcon } from '../../../../components/icons.tsx';
import { RowActions, type RowAction } from '../../../../components/row-actions.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';
import { useMediaQuery } from '../../../../lib/use-media-query.ts';

export interface MountListProps {
  mounts: Mount[];
  onEdit(mount: Mount): void;
  onToggle(mount: Mount): void;
  onDelete(mount: Mount): void;
}

function useCells() {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  return {
    path: (mount: Mount) => (
      <span className="font-mono break-all" data-user-content="" data-testid="mount-path">
        {mount.mount_path}
      </span>
    ),
    storage: (mount: Mount) => (
      <span className="inline-flex flex-wrap items-center gap-1.5">
        <span className="break-words" data-user-content="">
          {storageName(mount.storage_config_name)}
        </span>
        <Badge tone="muted" testId="mount-storage-type">
          {t(`admin.mounts.storageTypes.${mount.storage_type.toLowerCase() as Lowercase<StorageKindName>}`)}
        </Badge>
        {mount.link_policy !== 'proxy' && (
          <Badge tone="muted" testId="mount-link-policy">
            {t(`admin.mounts.linkPolicies.${mount.link_policy}`)}
          </Badge>
        )}
      </span>
    ),
    ttl: (mount: Mount) =>
      mount.cache_ttl === 0
        ? t('admin.mounts.noCache')
        : t('admin.mounts.seconds', { value: mount.cache_ttl }),
    status: (mount: Mount) =>
      mount.is_active ? (
        <Badge tone="success" testId="mount-status">
          {t('admin.mounts.status.active')}
        </Badge>
      ) : (
        <Badge tone="muted" testId="mount-status">
          {t('admin.mounts.status.inactive')}
        </Badge>
      ),
    created: (mount: Mount) => <time dateTime={mount.created_at}>{formatDateTime(mount.created_at)}</time>,
    lastUsed: (mount: Mount): ReactNode =>
      mount.last_used ? (
        <time dateTime={mount.last_used}>{formatDateTime(mount.last_used)}</time>
      ) : (
        t('admin.mounts.neverUsed')
      ),
  };
}

/** Activate or deactivate, edit, delete; icons only (with names for assistive tech) in the table. */
function Actions({
  mount,
  compact = false,
  ...props
}: { mount: Mount; compact?: boolean } & Omit<MountListProps, 'mounts'>) {
  const { t } = useTranslation();
  const actions: RowAction[] = [
    {
      testId: 'toggle-mount',
      icon: <PowerIcon className={`size-4 ${mount.is_active ? 'text-success-text' : ''}`} />,
      text: mount.is_active ? t('admin.mounts.toggle.deactivate') : t('admin.mounts.toggle.activate'),
      name: mount.is_active
        ? t('admin.mounts.toggle.deactivateAction', { name: mount.name })
        : t('admin.mounts.toggle.activateAction', { name: mount.name }),
      onClick: () => props.onToggle(mount),
    },
    {
      testId: 'edit-mount',
      icon: <PencilIcon className="size-4" />,
      text: t('common.edit'),
      name: t('admin.mounts.edit.action', { name: mount.name }),
      onClick: () => props.onEdit(mount),
    },
    {
      testId: 'delete-mount',
      icon: <TrashIcon className="size-4 text-danger-text" />,
      text: t('common.delete'),
      name: t('admin.mounts.delete.action', { name: mount.name }),
      onClick: () => props.onDelete(mount),
    },
  ];
  return <RowActions actions={actions} compact={compact} />;
}

const titleId = (mount: Mount) => `mount-${mount.id}`;

function NameCell({ mount, children }: { mount: Mount; children?: ReactNode }) {
  return (
    <div className="min-w-0">
      <p id={titleId(mount)} className="font-medium break-words text-fg" data-user-content="">
        {mount.name}
      </p>
      {mount.remark && (
        <p className="text-xs break-words text-fg-muted" data-user-content="" data-testid="mount-remark">
          {mount.remark}
        </p>
      )}
      {children && (
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
          {children}
        </div>
      )}
    </div>
  );
}

type Column = 'name' | 'path' | 'storage' | 'cacheTtl' | 'sortOrder' | 'status' | 'created' | 'lastUsed';

export function MountList(props: MountListProps) {
  const { t } = useTranslation();
  const cells = useCells();
  const wide = useMediaQuery('(min-width: 1024px)');
  const label = t('admin.mounts.listLabel');

  if (!wide) {
    return (
      <ul className="space-y-3" aria-label={label}>
        {props.mounts.map((mount) => (
          <li key={mount.id} data-testid="mount-row" data-mount-path={mount.mount_path}>
            <article
              className="rounded-lg border border-border bg-surface p-4"
              aria-labelledby={titleId(mount)}
            >
              <div className="flex items-start justify-between gap-3">
                <NameCell mount={mount} />
                {cells.status(mount)}
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-border pt-3">
                <Fact label={t('admin.mounts.columns.path')} className="col-span-2">
                  {cells.path(mount)}
                </Fact>
                <Fact label={t('admin.mounts.columns.storage')}>{cells.storage(mount)}</Fact>
                <Fact label={t('admin.mounts.columns.cacheTtl')}>{cells.ttl(mount)}</Fact>
                <Fact label={t('admin.mounts.columns.sortOrder')}>{mount.sort_order}</Fact>
                <Fact label={t('admin.mounts.columns.created')}>{cells.created(mount)}</Fact>
                <Fact label={t('admin.mounts.columns.lastUsed')}>{cells.lastUsed(mount)}</Fact>
              </dl>
              <div className="mt-3 border-t border-border pt-3">
                <Actions mount={mount} {...props} />
              </div>
            </article>
          </li>
        ))}
      </ul>
    );
  }

  // Columns shown only in a wide card; below that their content joins the name cell.
  const roomy = 'hidden @[56rem]:table-cell';
  const spacious = 'hidden @[80rem]:table-cell';
  const th = 'py-2 pe-3 font-medium whitespace-nowrap';
  const column = (key: Column, className: string) => (
    <th scope="col" className={`${th} ${className}`}>
      {t(`admin.mounts.columns.${key}`)}
    </th>
  );
  return (
    <div className="@container">
      <table className="w-full table-fixed text-left text-sm" aria-label={label}>
        <thead className="border-b border-border text-xs text-fg-muted">
          <tr>
            {column('name', '')}
            {column('path', 'w-44')}
            {column('storage', 'w-44')}
            {column('cacheTtl', `w-24 ${roomy}`)}
            {column('sortOrder', `w-16 ${roomy}`)}
            {column('status', 'w-24')}
            {column('created', `w-36 ${spacious}`)}
            {column('lastUsed', `w-36 ${spacious}`)}
            <th scope="col" className="w-32 py-2">
              <span className="sr-only">{t('admin.mounts.columns.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {props.mounts.map((mount) => (
            <tr
              key={mount.id}
              data-testid="mount-row"
              data-mount-path={mount.mount_path}
              className="align-top"
            >
              <td className="py-3 pe-3">
                <NameCell mount={mount}>
                  <span className="@[56rem]:hidden">
                    {t('admin.mounts.columns.cacheTtl')}: {cells.ttl(mount)}
                  </span>
                  <span className="@[56rem]:hidden">
                    {t('admin.mounts.columns.sortOrder')}: {mount.sort_order}
                  </span>
                  <span className="@[80rem]:hidden">
                    {t('admin.mounts.columns.created')}: {cells.created(mount)}
                  </span>
                  <span className="@[80rem]:hidden">
                    {t('admin.mounts.columns.lastUsed')}: {cells.lastUsed(mount)}
                  </span>
                </NameCell>
              </td>
              <td className="py-3 pe-3">{cells.path(mount)}</td>
              <td className="py-3 pe-3">{cells.storage(mount)}</td>
              <td className={`py-3 pe-3 whitespace-nowrap ${roomy}`}>{cells.ttl(mount)}</td>
              <td className={`py-3 pe-3 tabular-nums ${roomy}`}>{mount.sort_order}</td>
              <td className="py-3 pe-3">{cells.status(mount)}</td>
              <td className={`py-3 pe-3 ${spacious}`}>{cells.created(mount)}</td>
              <td className={`py-3 pe-3 ${spacious}`}>{cells.lastUsed(mount)}</td>
              <td className="py-3">
                <Actions mount={mount} compact {...props} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
