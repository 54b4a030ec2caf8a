/**
 * A folder share, /folder/:slug (docs/api.md "Folder shares"): the shared folder read only — a
 * breadcrumb, its subfolders (the URL keeps the one shown, `?path=/a/b`, relative to the shared
 * folder), its files with size and date, a preview of what the browser may show (the file view's
 * previews), a download per file and the folder (or the subfolder shown) as a zip. Opening the page
 * counts the visit once; the visit's token then opens everything below. A protected share asks for
 * its password first; unknown (404) and ended (410) links say so.
 */
import type { FolderShareInfo, FolderShareItem } from '@cubby/shared';
import { formatBytes } from '@cubby/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { Alert } from '../../components/alert.tsx';
import { buttonClasses } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ArchiveIcon, DownloadIcon, FileIcon, FolderIcon } from '../../components/icons.tsx';
import { PathBreadcrumb, type Crumb } from '../../components/path-breadcrumb.tsx';
import { PageLoading } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { isApiError } from '../../lib/api/index.ts';
import { formatDateTime } from '../../lib/i18n/format-date.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { InlinePreview, previewKind, SharePasswordGate } from '../file-view/index.ts';
import {
  folderFileUrl,
  folderZipUrl,
  useFolderListing,
  useFolderShare,
  verifyFolderPassword,
} from './api/folder-share-api.ts';

export default function FolderViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  const info = useFolderShare(slug);
  const [unlocked, setUnlocked] = useState<FolderShareInfo | null>(null);
  usePageTitle(t('titles.folder'));

  if (info.isPending) return <PageLoading />;
  if (info.isError) return <FolderUnavailable error={info.error} />;
  const share = unlocked?.slug === slug ? unlocked : info.data;
  if (!share.token) {
    return (
      <SharePasswordGate
        name={share.title ?? share.name}
        title={t('fileView.folder.password.title')}
        description={t('fileView.folder.password.description')}
        verify={(password) => verifyFolderPassword(slug, password)}
        onUnlocked={setUnlocked}
      />
    );
  }
  return <FolderBrowser share={share} token={share.token} />;
}

/** The crumbs of a path relative to the shared folder, the shared folder first. */
function crumbsOf(path: string): Crumb[] {
  const segments = path.split('/').filter(Boolean);
  return [
    { name: '/', path: '/' },
    ...segments.map((name, index) => ({ name, path: `/${segments.slice(0, index + 1).join('/')}` })),
  ];
}

function FolderBrowser({ share, token }: { share: FolderShareInfo; token: string }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const path = search.get('path') || '/';
  const listing = useFolderListing(share.slug, path, token);
  const [preview, setPreview] = useState<FolderShareItem | null>(null);
  const heading = share.title ?? share.name;

  return (
    <div className="mx-auto max-w-4xl space-y-4" data-testid="folder-view">
      <Card
        title={<span data-user-content="">{heading}</span>}
        as="h1"
        description={
          share.remark ? <span data-user-content="">{share.remark}</span> : t('fileView.folder.description')
        }
      >
        <div className="flex flex-wrap items-center gap-3">
          <PathBreadcrumb
            crumbs={crumbsOf(path)}
            rootLabel={<span data-user-content="">{share.name}</span>}
            hrefOf={(sub) => paths.folder.getHref(share.slug, sub)}
            label={t('fileView.folder.breadcrumb')}
            testId="folder-breadcrumb"
            path={path}
          />
          <a
            href={folderZipUrl(share.slug, path, token)}
            className={buttonClasses('secondary')}
            data-testid="folder-zip"
            download
          >
            <ArchiveIcon className="size-4" />
            {path === '/' ? t('fileView.folder.zip') : t('fileView.folder.zipSub')}
          </a>
        </div>
      </Card>
      <Card>
        {listing.isPending ? (
          <PageLoading />
        ) : listing.isError ? (
          <Alert tone="error" testId="folder-list-error">
            {listing.error.message}
          </Alert>
        ) : listing.data.items.length === 0 ? (
          <p className="py-6 text-center text-sm text-fg-muted" data-testid="folder-empty">
            {t('fileView.folder.empty')}
          </p>
        ) : (
          <ul className="divide-y divide-border" data-testid="folder-items">
            {listing.data.items.map((item) => (
              <FolderRow
                key={item.path}
                slug={share.slug}
                token={token}
                item={item}
                onPreview={() => setPreview(item)}
              />
            ))}
          </ul>
        )}
      </Card>
      {preview && (
        <PreviewDialog slug={share.slug} token={token} item={preview} onClose={() => setPreview(null)} />
      )}
    </div>
  );
}

function FolderRow({
  slug,
  token,
  item,
  onPreview,
}: {
  slug: string;
  token: string;
  item: FolderShareItem;
  onPreview(): void;
}) {
  const { t } = useTranslation();
  const meta = [
    item.isDirectory ? null : formatBytes(item.size),
    item.modified ? formatDateTime(item.modified) : null,
  ].filter((part): part is string => part !== null);
  return (
    <li className="flex items-center gap-3 py-2" data-testid="folder-item" data-name={item.name}>
      {item.isDirectory ? (
        <FolderIcon className="size-5 shrink-0 text-accent-text" />
      ) : (
        <FileIcon className="size-5 shrink-0 text-fg-muted" />
      )}
      <div className="min-w-0 flex-1">
        {item.isDirectory ? (
          <Link
            to={paths.folder.getHref(slug, item.path)}
            className="block truncate font-medium text-accent-text hover:underline"
            data-user-content=""
          >
            {item.name}
          </Link>
        ) : (
          <button
            type="button"
            onClick={onPreview}
            className="block max-w-full truncate text-left font-medium text-fg hover:underline"
            data-user-content=""
          >
            {item.name}
          </button>
        )}
        <p className="text-xs text-fg-muted" data-user-content="">
          {meta.join(' · ')}
        </p>
      </div>
      {!item.isDirectory && (
        <a
          href={folderFileUrl(slug, item.path, token)}
          download={item.name}
          className={buttonClasses('ghost', 'sm')}
          aria-label={t('fileView.folder.downloadFile', { name: item.name })}
          data-testid="folder-download"
        >
          <DownloadIcon className="size-4" />
        </a>
      )}
    </li>
  );
}

function PreviewDialog({
  slug,
  token,
  item,
  onClose,
}: {
  slug: string;
  token: string;
  item: FolderShareItem;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const kind = previewKind(null, item.name);
  const inline = kind !== 'office' && kind !== 'other';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={<span data-user-content="">{item.name}</span>}
      description={<span data-user-content="">{formatBytes(item.size)}</span>}
      testId="folder-preview"
      wide
    >
      <div className="space-y-4">
        {inline ? (
          <InlinePreview
            name={item.name}
            size={item.size}
            kind={kind}
            previewUrl={folderFileUrl(slug, item.path, token, true)}
          />
        ) : (
          <p className="text-sm text-fg-muted">{t('fileView.preview.none')}</p>
        )}
        <a
          href={folderFileUrl(slug, item.path, token)}
          download={item.name}
          className={buttonClasses('primary')}
        >
          <DownloadIcon className="size-4" />
          {t('fileView.actions.download')}
        </a>
      </div>
    </Dialog>
  );
}

/** Why the share cannot be shown: unknown (404), ended or its folder gone (410), or a failure. */
function FolderUnavailable({ error }: { error: Error }) {
  const { t } = useTranslation();
  const status = isApiError(error) ? error.status : 0;
  const reason = status === 410 ? 'gone' : status === 404 ? 'notFound' : 'failed';
  return (
    <div className="mx-auto max-w-xl" data-testid={`folder-${reason}`}>
      <Card
        title={t(`fileView.folder.${reason}.title`)}
        as="h1"
        description={t(`fileView.folder.${reason}.description`)}
      >
        {reason !== 'notFound' && error.message && (
          <p className="rounded-md bg-surface-sunken px-3 py-2 text-sm text-fg" data-user-content="">
            {error.message}
          </p>
        )}
      </Card>
    </div>
  );
}
