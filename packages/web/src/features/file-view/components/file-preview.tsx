/**
 * The preview of a shared file by kind (see preview-kind.ts): image, video and audio elements and
 * the browser's PDF viewer straight from the view URL; text, Markdown and HTML through a lazy chunk
 * that reads the first MiB; Office documents a download card, with the online Office viewer on
 * request when the admin turned it on (office-preview.tsx); everything else a download card. The
 * URLs carry the share's token, so the preview and a download count one view together.
 */
import type { FileShare } from '@cubby/shared';
import { Suspense, lazy, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import type { PreviewKind } from '../preview-kind.ts';
import { DownloadCard } from './download-card.tsx';
import { OfficePreview } from './office-preview.tsx';

const TextFilePreview = lazy(() => import('./text-file-preview.tsx'));

export interface FilePreviewProps {
  file: FileShare;
  kind: PreviewKind;
  previewUrl: string;
  downloadUrl: string;
}

type InlineKind = Exclude<PreviewKind, 'office' | 'other'>;

/**
 * Whether the page shows the file itself — which loads it, and so makes the visit's view on arrival
 * — rather than a download card (the Office viewer too is only on request).
 */
export function showsInline(file: FileShare, kind: PreviewKind): kind is InlineKind {
  return !file.office_preview && kind !== 'office' && kind !== 'other';
}

export function FilePreview({ file, kind, previewUrl, downloadUrl }: FilePreviewProps) {
  if (file.office_preview) {
    return <OfficePreview file={file} previewUrl={previewUrl} downloadUrl={downloadUrl} />;
  }
  if (!showsInline(file, kind)) return <DownloadCard file={file} kind={kind} downloadUrl={downloadUrl} />;
  return <InlinePreview name={file.filename} size={file.size} kind={kind} previewUrl={previewUrl} />;
}

/**
 * An image, video, audio, PDF or text/Markdown/HTML file shown from a URL the browser may open
 * (also the mount explorer's preview); a failed load says so instead of a broken element.
 */
export function InlinePreview({
  name,
  size,
  kind,
  previewUrl,
}: {
  name: string;
  size: number;
  kind: InlineKind;
  previewUrl: string;
}) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const onFailed = useCallback(() => setFailed(true), []);
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
          alt={t('fileView.preview.imageAlt', { name: name })}
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
          title={t('fileView.preview.pdfTitle', { name: name })}
          className="h-[75vh] w-full rounded-md border border-border"
          data-testid="pdf-preview"
        />
      );
    default:
      return (
        <Suspense fallback={<PageLoading />}>
          <TextFilePreview url={previewUrl} kind={kind} filename={name} size={size} onFailed={onFailed} />
        </Suspense>
      );
  }
}
