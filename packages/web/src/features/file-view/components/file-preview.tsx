/**
 * The preview of a shared file by kind (see preview-kind.ts): image, video and audio elements and
 * the browser's PDF viewer straight from the view URL; text, Markdown and HTML through a lazy chunk
 * that reads the first MiB; Office documents and everything else a download card. The URLs carry
 * the share's token, so the preview and a download count one view together.
 */
import type { FileShare } from '@cubby/shared';
import { Suspense, lazy, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { buttonClasses } from '../../../components/button.tsx';
import { DownloadIcon, FileIcon } from '../../../components/icons.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import type { PreviewKind } from '../preview-kind.ts';

const TextFilePreview = lazy(() => import('./text-file-preview.tsx'));

export function DownloadCard({
  file,
  kind,
  downloadUrl,
}: {
  file: FileShare;
  kind: PreviewKind;
  downloadUrl: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center" data-testid="download-card">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <FileIcon className="size-7" />
      </span>
      <p className="text-sm text-fg-muted">
        {kind === 'office' ? t('fileView.preview.office') : t('fileView.preview.none')}
      </p>
      <a
        href={downloadUrl}
        download={file.filename}
        className={buttonClasses('primary')}
        data-testid="download-card-link"
      >
        <DownloadIcon className="size-4" />
        {t('fileView.actions.download')}
      </a>
    </div>
  );
}

export interface FilePreviewProps {
  file: FileShare;
  kind: PreviewKind;
  previewUrl: string;
  downloadUrl: string;
}

export function FilePreview({ file, kind, previewUrl, downloadUrl }: FilePreviewProps) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const onFailed = useCallback(() => setFailed(true), []);

  if (kind === 'office' || kind === 'other')
    return <DownloadCard file={file} kind={kind} downloadUrl={downloadUrl} />;
  if (failed) {
    return (
      <Alert tone="error" testId="preview-failed">
        {t('fileView.preview.failed')}
      </Alert>
    );
  }
  switch (kind) {
    case 'image':
      return (
        <img
          src={previewUrl}
          alt={t('fileView.preview.imageAlt', { name: file.filename })}
          onError={onFailed}
          className="mx-auto max-h-[75vh] max-w-full rounded-md object-contain"
          data-testid="image-preview"
        />
      );
    case 'video':
      return (
        <video
          src={previewUrl}
          controls
          preload="metadata"
          onError={onFailed}
          className="mx-auto max-h-[75vh] w-full rounded-md bg-black"
          data-testid="video-preview"
        />
      );
    case 'audio':
      return (
        <audio
          src={previewUrl}
          controls
          preload="metadata"
          onError={onFailed}
          className="w-full"
          data-testid="audio-preview"
        />
      );
    case 'pdf':
      return (
        <iframe
          src={previewUrl}
          title={t('fileView.preview.pdfTitle', { name: file.filename })}
          className="h-[75vh] w-full rounded-md border border-border"
          data-testid="pdf-preview"
        />
      );
    default:
      return (
        <Suspense fallback={<PageLoading />}>
          <TextFilePreview
            url={previewUrl}
            kind={kind}
            filename={file.filename}
            size={file.size}
            onFailed={onFailed}
          />
        </Suspense>
      );
  }
}
