/**
 * How a transfer is shown wherever files are uploaded (the upload page, the explorer): its bar with
 * the facts (stage, percent, speed, time left) and, when it failed, why — with the sizes when the
 * storage is full. The failure is lib/transfer's, kept as a key so it follows a language switch.
 */
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { formatDuration, type UploadFailure } from '../lib/transfer/index.ts';
import { Alert } from './alert.tsx';

/** Why a transfer failed (or that it was cancelled). */
export function FailureMessage({ failure }: { failure: UploadFailure }) {
  const { t } = useTranslation();
  const text = failure.key
    ? t(failure.key, failure.params ?? {})
    : (failure.message ?? t('errors.unexpected'));
  return (
    <Alert tone={failure.cancelled ? 'warning' : 'error'} testId="item-error">
      <p>{text}</p>
      {failure.storage && (
        <p className="mt-1" data-testid="storage-full">
          {t('upload.errors.storageFull', {
            size: formatBytes(failure.storage.fileSize),
            free: formatBytes(failure.storage.freeBytes),
            total: formatBytes(failure.storage.totalBytes),
          })}
        </p>
      )}
    </Alert>
  );
}

/** A transfer's bar and its facts (stage, percent, speed, time left), for `name`. */
export function TransferProgress({
  name,
  percent,
  speed,
  eta,
  stage,
}: {
  name: string;
  percent: number;
  speed: number | null;
  eta: number | null;
  stage?: string;
}) {
  const { t } = useTranslation();
  const facts = [
    stage,
    t('upload.item.percent', { percent }),
    speed !== null && t('upload.item.speed', { speed: formatBytes(Math.round(speed)) }),
    eta !== null && t('upload.item.timeLeft', { time: formatDuration(eta) }),
  ].filter((fact): fact is string => Boolean(fact));
  return (
    <div className="space-y-1.5">
      <div
        role="progressbar"
        aria-label={t('upload.item.progressLabel', { name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid="item-progress"
        className="h-2 overflow-hidden rounded-full bg-surface-sunken"
      >
        <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      {/* Announced in steps by the page's UploadAnnouncer: a live region here would read every tick. */}
      <p className="flex flex-wrap gap-x-3 text-xs text-fg-muted">
        {facts.map((fact) => (
          <span key={fact}>{fact}</span>
        ))}
      </p>
    </div>
  );
}
