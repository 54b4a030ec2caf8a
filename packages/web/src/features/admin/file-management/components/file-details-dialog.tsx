/**
 * A file share at a glance: its main facts, the share link with a copy button and a QR code, and
 * a link that opens the share page in a new tab.
 */
import { useTranslation } from 'react-i18next';
import { type FileItem, formatBytes } from '@cubby/shared';
import { Fact } from '../../../../components/fact.tsx';
import { buttonClasses } from '../../../../components/button.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { Dialog } from '../../../../components/dialog.tsx';
import { QrCode } from '../../../../components/qr-code.tsx';
import { paths } from '../../../../config/paths.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';

/** The share page of a file, as an absolute address to hand out. */
function fileShareUrl(slug: string): string {
  return new URL(paths.file.getHref(slug), window.location.origin).href;
}

export function FileDetailsDialog({ file, onClose }: { file: FileItem; onClose(): void }) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const link = fileShareUrl(file.slug);
  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={<span data-user-content="">{file.filename}</span>}
      testId="file-details-dialog"
    >
      <div className="grid gap-5 sm:grid-cols-[minmax(0,1fr)_auto]">
        <div className="min-w-0 space-y-4">
          <div className="space-y-1.5">
            <p className="text-xs font-medium text-fg-muted">{t('admin.files.details.link')}</p>
            <p className="font-mono text-sm break-all text-fg" data-user-content="" data-testid="file-link">
              {link}
            </p>
            <div className="flex flex-wrap gap-2">
              <CopyButton text={link} testId="copy-file-link">
                {t('admin.files.details.copyLink')}
              </CopyButton>
              <a
                href={paths.file.getHref(file.slug)}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('secondary', 'sm')}
              >
                {t('admin.files.open.button')}
              </a>
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-3 border-t border-border pt-4">
            <Fact label={t('admin.files.columns.size')}>
              <span data-user-content="">{formatBytes(file.size)}</span>
            </Fact>
            <Fact label={t('admin.files.columns.type')}>
              <span className="break-all" data-user-content="">
                {file.mimetype}
              </span>
            </Fact>
            <Fact label={t('admin.files.columns.storage')}>
              {file.s3_config_name ? (
                <span data-user-content="">{storageName(file.s3_config_name)}</span>
              ) : (
                t('admin.files.unknownStorage')
              )}
            </Fact>
            <Fact label={t('admin.files.columns.mode')}>
              {file.use_proxy ? t('admin.files.mode.proxy') : t('admin.files.mode.direct')}
            </Fact>
            <Fact label={t('admin.files.columns.views')}>
              {file.max_views > 0
                ? t('admin.files.viewsOf', { views: file.views, max: file.max_views })
                : t('admin.files.viewsUnlimited', { views: file.views })}
            </Fact>
            <Fact label={t('admin.files.columns.password')}>
              {file.has_password ? t('admin.files.details.passwordSet') : t('admin.files.details.noPassword')}
            </Fact>
            <Fact label={t('admin.files.columns.created')}>
              <time dateTime={file.created_at}>{formatDateTime(file.created_at)}</time>
            </Fact>
            <Fact label={t('admin.files.columns.expires')}>
              {file.expires_at ? (
                <time dateTime={file.expires_at}>{formatDateTime(file.expires_at)}</time>
              ) : (
                t('admin.files.never')
              )}
            </Fact>
            {file.remark && (
              <Fact label={t('admin.files.columns.remark')} className="col-span-2">
                <span data-user-content="">{file.remark}</span>
              </Fact>
            )}
          </dl>
        </div>
        <div className="flex justify-center sm:block">
          <QrCode value={link} size={160} />
        </div>
      </div>
    </Dialog>
  );
}
