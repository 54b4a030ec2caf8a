/**
 * One entry of the upload list: name and size; then by status — pending (waiting, too large, or
 * an interrupted upload to resume), uploading (stage, progress bar, percent, speed, time left,
 * cancel), success (the link with copy, open and QR code) or error (why, with the sizes when the
 * storage is full; retry) — and remove.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { CloseIcon, FileIcon } from '../../../components/icons.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { filePageUrl } from '../../file-view/index.ts';
import { FailureMessage, TransferProgress } from '../../../components/transfer-status.tsx';
import { isBlocked, useUploadQueue, type ItemStatus, type UploadItem } from '../upload-queue.ts';

const STATUS_TONE: Record<ItemStatus, BadgeTone> = {
  pending: 'muted',
  uploading: 'accent',
  success: 'success',
  error: 'danger',
};

function Progress({ item }: { item: UploadItem }) {
  const { t } = useTranslation();
  return (
    <TransferProgress
      name={item.name}
      percent={item.percent}
      speed={item.speed}
      eta={item.eta}
      stage={t(`upload.stages.${item.stage ?? 'starting'}`)}
    />
  );
}

function ShareLink({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const [showQr, setShowQr] = useState(false);
  const link = filePageUrl(slug);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <a
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          className="min-w-0 truncate font-mono text-sm text-accent-text underline underline-offset-2"
          data-testid="item-link"
          data-user-content=""
        >
          {link}
        </a>
      </div>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={link} testId="item-copy">
          {t('upload.item.copyLink')}
        </CopyButton>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={showQr}
          onClick={() => setShowQr((open) => !open)}
          data-testid="item-qr"
        >
          {t('upload.item.qr')}
        </Button>
      </div>
      {showQr && <QrCode value={link} size={144} />}
    </div>
  );
}

export function UploadItemRow({ item }: { item: UploadItem }) {
  const { t } = useTranslation();
  const { cancel, retry, remove, startOver } = useUploadQueue.getState();
  const size = item.size === null ? t('upload.item.sizeUnknown') : formatBytes(item.size);
  const statusLabel =
    item.status === 'pending' && item.queued ? t('upload.status.queued') : t(`upload.status.${item.status}`);

  return (
    <li
      className="flex gap-3 rounded-lg border border-border bg-surface p-3"
      data-testid="upload-item"
      data-status={item.status}
    >
      <FileIcon className="mt-0.5 size-5 shrink-0 text-fg-muted" />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-fg" data-user-content="" title={item.name}>
              {item.name}
            </p>
            <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-fg-muted">
              <span>{t('upload.item.size', { size })}</span>
              <Badge tone={STATUS_TONE[item.status]} testId="item-status">
                {statusLabel}
              </Badge>
            </p>
          </div>
          <div className="flex shrink-0 gap-1">
            {item.status === 'uploading' && (
              <Button variant="secondary" size="sm" onClick={() => cancel(item.id)} data-testid="item-cancel">
                {t('common.cancel')}
              </Button>
            )}
            {item.status === 'error' && item.target && !isBlocked(item) && (
              <Button size="sm" onClick={() => retry(item.id)} data-testid="item-retry">
                {t('common.retry')}
              </Button>
            )}
            {item.status !== 'uploading' && (
              <button
                type="button"
                onClick={() => remove(item.id)}
                aria-label={t('upload.item.remove', { name: item.name })}
                title={t('upload.item.removeShort')}
                data-testid="item-remove"
                className={buttonClasses('ghost', 'sm', 'px-2')}
              >
                <CloseIcon className="size-4" />
              </button>
            )}
          </div>
        </div>

        {item.refused && (
          <Alert tone="error" testId="item-refused">
            {item.refused.key === 'upload.errors.policyTooLarge'
              ? t(item.refused.key, item.refused.values)
              : t(item.refused.key, item.refused.values)}
          </Alert>
        )}
        {item.tooLarge && (
          <Alert tone="error" testId="item-too-large">
            {t('upload.errors.tooLarge')}
          </Alert>
        )}
        {item.resume && item.status !== 'uploading' && item.status !== 'success' && (
          <div
            className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-accent-soft px-3 py-2 text-xs text-fg"
            data-testid="item-resume"
          >
            <span>{t('upload.item.resumable')}</span>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => startOver(item.id)}
              data-testid="item-start-over"
            >
              {t('upload.item.startOver')}
            </Button>
          </div>
        )}
        {item.status === 'uploading' && <Progress item={item} />}
        {item.status === 'success' && item.share && <ShareLink slug={item.share.slug} />}
        {item.status === 'error' && item.failure && <FailureMessage failure={item.failure} />}
      </div>
    </li>
  );
}
