/** The card shown instead of a preview: what the file is, a download button and any more actions. */
import type { FileShare } from '@cubby/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/button.tsx';
import { DownloadIcon, FileIcon } from '../../../components/icons.tsx';
import type { PreviewKind } from '../preview-kind.ts';

export function DownloadCard({
  file,
  kind,
  downloadUrl,
  note,
  children,
}: {
  file: FileShare;
  kind: PreviewKind;
  downloadUrl: string;
  /** Replaces the line saying why there is no preview. */
  note?: ReactNode;
  /** More actions, below the download button. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center" data-testid="download-card">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <FileIcon className="size-7" />
      </span>
      <p className="text-sm text-fg-muted">
        {note ?? (kind === 'office' ? t('fileView.preview.office') : t('fileView.preview.none'))}
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
      {children}
    </div>
  );
}
