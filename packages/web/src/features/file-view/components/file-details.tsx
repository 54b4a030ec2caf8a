/**
 * A shared file as its visitor sees it: name, size, type, upload date, expiry and views (this
 * visit's included, with a warning when it is the last allowed one); remark; download, copy link
 * and QR code of the page; and the preview. Offline (a copy of the details from the offline
 * database: the file itself is never kept) the download is disabled and the preview says why.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FileShare, formatBytes } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DownloadIcon } from '../../../components/icons.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { getApiBaseUrl } from '../../../lib/api/index.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { useNetworkStatus } from '../../../lib/offline/network-status.ts';
import { filePageUrl } from '../file-urls.ts';
import { previewKind } from '../preview-kind.ts';
import { visitViews } from '../visit-views.ts';
import { FilePreview, showsInline } from './file-preview.tsx';

/** The server's URL, or the proxy route when it gave none. */
function fileUrl(given: string | null, route: 'file-view' | 'file-download', slug: string): string {
  return given || `${getApiBaseUrl()}/${route}/${encodeURIComponent(slug)}`;
}

export function FileDetails({ file, isProtected }: { file: FileShare; isProtected: boolean }) {
  const { t } = useTranslation();
  const [showQr, setShowQr] = useState(false);
  const kind = previewKind(file.mimetype, file.filename);
  const previewUrl = fileUrl(file.previewUrl, 'file-view', file.slug);
  const downloadUrl = fileUrl(file.downloadUrl, 'file-download', file.slug);
  const link = filePageUrl(file.slug);
  const online = useNetworkStatus((state) => state.online);
  const views = visitViews(file, online);

  const facts = [
    t('fileView.facts.size', { size: formatBytes(file.size) }),
    t('fileView.facts.created', { date: formatDateTime(file.created_at) }),
    file.expires_at
      ? t('fileView.facts.expires', { date: formatDateTime(file.expires_at) })
      : t('fileView.facts.neverExpires'),
    views.max > 0
      ? t('fileView.facts.viewsLimited', { views: views.views, max: views.max })
      : t('fileView.facts.views', { count: views.views }),
  ];

  return (
    <article className="space-y-4" data-testid="file-details" data-kind={kind}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-fg" data-user-content="">
            {file.filename}
          </h1>
          <p
            className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted"
            data-testid="file-facts"
          >
            <Badge tone="muted">{t(`fileView.kinds.${kind}`)}</Badge>
            {isProtected && <Badge tone="warning">{t('pastes.protected')}</Badge>}
            <span className="font-mono text-xs" data-user-content="">
              {file.mimetype}
            </span>
            {facts.map((fact) => (
              <span key={fact}>{fact}</span>
            ))}
          </p>
        </div>
        <div className="flex flex-wrap gap-2" data-testid="file-actions">
          {online ? (
            <a
              href={downloadUrl}
              download={file.filename}
              className={buttonClasses('primary', 'sm')}
              data-testid="download"
            >
              <DownloadIcon className="size-4" />
              {t('fileView.actions.download')}
            </a>
          ) : (
            <Button size="sm" disabled aria-describedby="file-offline" data-testid="download">
              <DownloadIcon className="size-4" />
              {t('fileView.actions.download')}
            </Button>
          )}
          <CopyButton text={link} testId="copy-link">
            {t('fileView.actions.copyLink')}
          </CopyButton>
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={showQr}
            aria-controls="file-qr"
            onClick={() => setShowQr((open) => !open)}
            data-testid="toggle-qr"
          >
            {t('fileView.actions.qr')}
          </Button>
        </div>
      </header>

      {showQr && (
        <div
          id="file-qr"
          className="flex flex-col items-center gap-2 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:gap-4"
        >
          <QrCode value={link} size={160} />
          <p className="text-sm text-fg-muted">{t('fileView.qrHint')}</p>
        </div>
      )}

      {views.last && (
        <Alert tone="warning" testId="last-view">
          {showsInline(file, kind) ? t('fileView.lastViewShown') : t('fileView.lastViewDownload')}
        </Alert>
      )}

      {file.remark && (
        <p
          className="rounded-xl border border-border bg-surface px-4 py-3 text-sm text-fg"
          data-user-content=""
          data-testid="file-remark"
        >
          {file.remark}
        </p>
      )}

      <section
        aria-label={t('fileView.preview.label')}
        className="min-w-0 rounded-xl border border-border bg-surface p-3 shadow-card sm:p-4"
        data-testid="file-preview"
      >
        {online ? (
          <FilePreview file={file} kind={kind} previewUrl={previewUrl} downloadUrl={downloadUrl} />
        ) : (
          <Alert tone="info" testId="preview-offline" id="file-offline">
            {t('fileView.preview.offline')}
          </Alert>
        )}
      </section>
    </article>
  );
}
