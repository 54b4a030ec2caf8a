/**
 * Office preview, when the admin turned it on (`file.office_preview`): the download card with an
 * "Office preview" button that asks the server for a link an online viewer may fetch (with the
 * page's share token, so a password already given counts) and then shows Microsoft's viewer in a
 * frame. Only on request: it sends the file to Microsoft and counts a view.
 */
import type { FileShare } from '@cubby/shared';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage } from '../../../lib/api/index.ts';
import { useOfficePreview } from '../api/file-share-api.ts';
import { officeViewerUrl, shareTokenOf } from '../office-viewer.ts';
import { DownloadCard } from './download-card.tsx';

export function OfficePreview({
  file,
  previewUrl,
  downloadUrl,
}: {
  file: FileShare;
  previewUrl: string;
  downloadUrl: string;
}) {
  const { t } = useTranslation();
  const preview = useOfficePreview();

  if (preview.data) {
    return (
      <div className="space-y-2">
        <iframe
          src={officeViewerUrl(preview.data.url)}
          title={t('fileView.office.frameTitle', { name: file.filename })}
          className="h-[75vh] w-full rounded-md border border-border bg-white"
          sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-downloads"
          referrerPolicy="no-referrer"
          data-testid="office-preview-frame"
        />
        <p className="text-xs text-fg-muted">{t('fileView.office.viewerNote')}</p>
      </div>
    );
  }

  const open = () => preview.mutate({ slug: file.slug, token: shareTokenOf(previewUrl) });
  return (
    <div className="space-y-3">
      <DownloadCard file={file} kind="office" downloadUrl={downloadUrl} note={t('fileView.office.available')}>
        <Button
          variant="secondary"
          onClick={open}
          disabled={preview.isPending}
          data-testid="office-preview-open"
        >
          {preview.isPending && <Spinner className="size-4" />}
          {t('fileView.office.open')}
        </Button>
        <p className="max-w-md text-xs text-fg-muted">{t('fileView.office.hint')}</p>
      </DownloadCard>
      {preview.isError && (
        <Alert tone="error" testId="office-preview-error">
          {errorMessage(preview.error)}
        </Alert>
      )}
    </div>
  );
}
