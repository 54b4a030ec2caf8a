/**
 * The file shares of one page: a table on wide screens, cards on phones. The table is laid out
 * fixed, so it always fits its card: the columns that matter least (type, storage, created, then
 * expiry and access mode) give way as the card narrows (container queries), and what they held
 * moves into the name cell instead of off to the side.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type FileItem, formatBytes, type ShareState } from '@cubby/shared';
import { Fact } from '../../../../components/fact.tsx';
import { Badge, type BadgeTone } from '../../../../components/badge.tsx';
import { buttonClasses } from '../../../../components/button.tsx';
import {
  ExternalLinkIcon,
  EyeIcon,
  PencilIcon,
  PowerIcon,
  TrashIcon,
} from '../../../../components/icons.tsx';
import { RowActions, rowActionTextClass, type RowAction } from '../../../../components/row-actions.tsx';
import { paths } from '../../../../config/paths.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';
import { SelectableShareList, type ShareSelection } from '../../../shares/index.ts';
import { fileStatus } from '../file-form.ts';

export interface FileListProps extends ShareSelection {
  files: FileItem[];
  /** When the page was fetched: shares past their expiry or views at that time are marked. */
  now: number;
  onDetails(file: FileItem): void;
  onEdit(file: FileItem): void;
  onDelete(file: FileItem): void;
  onRevoke(file: FileItem): void;
}

const STATUS_TONE: Record<Exclude<ShareState, 'active'>, BadgeTone> = {
  expired: 'danger',
  used_up: 'warning',
  revoked: 'danger',
};

function useRowText(now: number) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  return {
    views: (file: FileItem) =>
      file.max_views > 0
        ? t('admin.files.viewsOf', { views: file.views, max: file.max_views })
        : t('admin.files.viewsUnlimited', { views: file.views }),
    mode: (file: FileItem) => (file.use_proxy ? t('admin.files.mode.proxy') : t('admin.files.mode.direct')),
    expiry: (file: FileItem): ReactNode =>
      file.expires_at ? (
        <time dateTime={file.expires_at}>{formatDateTime(file.expires_at)}</time>
      ) : (
        t('admin.files.never')
      ),
    storage: (file: FileItem): ReactNode =>
      file.s3_config_name ? (
        <span data-user-content="">{storageName(file.s3_config_name)}</span>
      ) : (
        t('admin.files.unknownStorage')
      ),
    status: (file: FileItem) => {
      const status = fileStatus(file, now);
      return status === 'active' ? null : (
        <Badge tone={STATUS_TONE[status]} testId="file-status">
          {t(`admin.files.status.${status}`)}
        </Badge>
      );
    },
  };
}

function Size({ file }: { file: FileItem }) {
  return (
    <span data-user-content="" data-testid="file-size">
      {formatBytes(file.size)}
    </span>
  );
}

/** Open (new tab), details, edit and delete; icons only (with names for assistive tech) in the table. */
function Actions({
  file,
  compact = false,
  onDetails,
  onEdit,
  onDelete,
  onRevoke,
}: { file: FileItem; compact?: boolean } & Pick<
  FileListProps,
  'onDetails' | 'onEdit' | 'onDelete' | 'onRevoke'
>) {
  const { t } = useTranslation();
  const actions: RowAction[] = [
    {
      testId: 'file-details',
      icon: <EyeIcon className="size-4" />,
      text: t('admin.files.details.button'),
      name: t('admin.files.details.action', { name: file.filename }),
      onClick: () => onDetails(file),
    },
    {
      testId: 'edit-file',
      icon: <PencilIcon className="size-4" />,
      text: t('common.edit'),
      name: t('admin.files.edit.action', { name: file.filename }),
      onClick: () => onEdit(file),
    },
    ...(file.status === 'revoked'
      ? []
      : [
          {
            testId: 'revoke-file',
            icon: <PowerIcon className="size-4" />,
            text: t('admin.files.revoke.button'),
            name: t('admin.files.revoke.action', { name: file.filename }),
            onClick: () => onRevoke(file),
          },
        ]),
    {
      testId: 'delete-file',
      icon: <TrashIcon className="size-4 text-danger-text" />,
      text: t('common.delete'),
      name: t('admin.files.delete.action', { name: file.filename }),
      onClick: () => onDelete(file),
    },
  ];
  return (
    <RowActions actions={actions} compact={compact}>
      <a
        href={paths.file.getHref(file.slug)}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClasses('secondary', 'sm', compact ? 'px-2' : '')}
        aria-label={t('admin.files.open.action', { name: file.filename })}
        title={compact ? t('admin.files.open.button') : undefined}
        data-testid="open-file"
      >
        <ExternalLinkIcon className="size-4" />
        <span className={rowActionTextClass(compact)}>{t('admin.files.open.button')}</span>
      </a>
    </RowActions>
  );
}

type FileColumn = 'name' | 'size' | 'type' | 'storage' | 'created' | 'expires' | 'views' | 'mode';

const titleId = (file: FileItem) => `file-share-${file.id}`;

function NameCell({ file, children }: { file: FileItem; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0">
      <p
        id={titleId(file)}
        className="truncate font-medium text-fg"
        data-user-content=""
        title={file.filename}
      >
        {file.filename}
      </p>
      <p className="truncate font-mono text-xs text-fg-muted" data-user-content="" data-testid="file-slug">
        {file.slug}
      </p>
      {file.remark && (
        <p className="truncate text-xs text-fg-muted" data-user-content="" title={file.remark}>
          {file.remark}
        </p>
      )}
      {(file.has_password || file.source === 'mount_upload' || children) && (
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
          {file.has_password && <Badge tone="warning">{t('admin.files.protected')}</Badge>}
          {file.source === 'mount_upload' && (
            <Badge tone="muted" testId="file-mount-upload">
              {t('admin.files.mountUpload')}
            </Badge>
          )}
          {children}
        </div>
      )}
    </div>
  );
}

export function FileList(props: FileListProps) {
  const { t } = useTranslation();
  const text = useRowText(props.now);
  // Columns shown only in a wide card; below that their content joins the name cell.
  const roomy = 'hidden @[48rem]:table-cell';
  const spacious = 'hidden @[76rem]:table-cell';
  const th = 'py-2 pe-3 font-medium whitespace-nowrap';
  const column = (key: FileColumn, className: string) => ({
    label: t(`admin.files.columns.${key}`),
    className: `${th} ${className}`,
  });
  return (
    <SelectableShareList
      items={props.files}
      selected={props.selected}
      onToggle={props.onToggle}
      onToggleAll={props.onToggleAll}
      label={t('admin.files.listLabel')}
      selectAllLabel={t('admin.files.selectAll')}
      selectLabel={(file) => t('admin.files.select', { name: file.filename })}
      rowTestId="file-row"
      card={(file) => ({
        titleId: titleId(file),
        title: <NameCell file={file}>{text.status(file)}</NameCell>,
        facts: (
          <>
            <Fact label={t('admin.files.columns.size')}>
              <Size file={file} />
            </Fact>
            <Fact label={t('admin.files.columns.views')}>{text.views(file)}</Fact>
            <Fact label={t('admin.files.columns.type')}>
              <span className="break-all" data-user-content="">
                {file.mimetype}
              </span>
            </Fact>
            <Fact label={t('admin.files.columns.storage')}>{text.storage(file)}</Fact>
            <Fact label={t('admin.files.columns.expires')}>{text.expiry(file)}</Fact>
            <Fact label={t('admin.files.columns.mode')}>{text.mode(file)}</Fact>
            <Fact label={t('admin.files.columns.created')}>
              <time dateTime={file.created_at}>{formatDateTime(file.created_at)}</time>
            </Fact>
          </>
        ),
        actions: <Actions file={file} {...props} />,
      })}
      table={{
        wrapperClassName: '@container',
        className: 'table-fixed',
        columns: [
          column('name', ''),
          column('size', 'w-20'),
          column('type', `w-40 ${spacious}`),
          column('storage', `w-32 ${spacious}`),
          column('created', `w-36 ${spacious}`),
          column('expires', `w-36 ${roomy}`),
          column('views', 'w-24'),
          column('mode', `w-20 ${roomy}`),
          {
            label: <span className="sr-only">{t('admin.files.columns.actions')}</span>,
            className: 'w-40 py-2',
          },
        ],
        cells: (file) => (
          <>
            <td className="py-3 pe-3">
              <NameCell file={file}>
                {text.status(file)}
                <span className="@[76rem]:hidden" data-user-content="">
                  {file.mimetype}
                </span>
                <span className="@[76rem]:hidden">{text.storage(file)}</span>
                <span className="@[48rem]:hidden">{text.mode(file)}</span>
                <span className="@[48rem]:hidden">{text.expiry(file)}</span>
              </NameCell>
            </td>
            <td className="py-3 pe-3 whitespace-nowrap">
              <Size file={file} />
            </td>
            <td className={`py-3 pe-3 ${spacious}`}>
              <span className="block truncate" data-user-content="" title={file.mimetype}>
                {file.mimetype}
              </span>
            </td>
            <td className={`py-3 pe-3 ${spacious}`}>
              <span className="block truncate">{text.storage(file)}</span>
            </td>
            <td className={`py-3 pe-3 ${spacious}`}>
              <time dateTime={file.created_at}>{formatDateTime(file.created_at)}</time>
            </td>
            <td className={`py-3 pe-3 ${roomy}`}>{text.expiry(file)}</td>
            <td className="py-3 pe-3 whitespace-nowrap" data-testid="file-views">
              {text.views(file)}
            </td>
            <td className={`py-3 pe-3 whitespace-nowrap ${roomy}`} data-testid="file-mode">
              {text.mode(file)}
            </td>
            <td className="py-3">
              <Actions file={file} compact {...props} />
            </td>
          </>
        ),
      }}
    />
  );
}
