/**
 * The report of a storage test: the overall result and each step with ✓ or ✗, its duration and
 * the server's note or error. When a browser-upload step (CORS or ETag) of an S3 storage fails, the
 * step is highlighted and the bucket CORS rule this site needs is shown, ready to copy; other
 * storages have no bucket (the browser's uploads go through this server), so no rule is offered.
 */
import { useTranslation } from 'react-i18next';
import { STORAGE_TEST_STEPS, type StorageTestStepName } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Button } from '../../../../components/button.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { Dialog, DialogActions } from '../../../../components/dialog.tsx';
import { CheckIcon, CloseIcon } from '../../../../components/icons.tsx';
import { PageLoading, Spinner } from '../../../../components/spinner.tsx';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';
import type { StorageConfig, StorageTestReport, TestStep } from '../api/types.ts';

/** The steps a browser upload depends on: their failure needs a change on the bucket. */
const BROWSER_STEPS: ReadonlySet<string> = new Set(['cors', 'etag']);

const isKnown = (name: string): name is StorageTestStepName =>
  (STORAGE_TEST_STEPS as readonly string[]).includes(name);

/** The bucket CORS rule direct browser uploads need from this site (S3 JSON format). */
function corsRuleFor(origin: string): string {
  return JSON.stringify(
    [
      {
        AllowedOrigins: [origin],
        AllowedMethods: ['GET', 'PUT', 'HEAD'],
        AllowedHeaders: ['*'],
        ExposeHeaders: ['ETag'],
        MaxAgeSeconds: 3600,
      },
    ],
    null,
    2,
  );
}

export interface TestReportDialogProps {
  config: StorageConfig;
  report: StorageTestReport | undefined;
  error: string | null;
  pending: boolean;
  onRetry(): void;
  onClose(): void;
}

export function TestReportDialog({
  config,
  report,
  error,
  pending,
  onRetry,
  onClose,
}: TestReportDialogProps) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const bucket = config.driver === 's3';
  const browserStepFailed =
    bucket && report?.steps.some((step) => BROWSER_STEPS.has(step.name) && !step.success);
  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.storage.test.title', { name: storageName(config.name) })}
      description={t('admin.storage.test.description')}
      testId="storage-test-dialog"
    >
      {pending ? (
        <PageLoading />
      ) : error ? (
        <Alert tone="error" testId="storage-test-error">
          {error}
        </Alert>
      ) : report ? (
        <div className="space-y-4">
          <Alert tone={report.success ? 'success' : 'error'} testId="storage-test-summary">
            <p className="font-medium">
              {report.success ? t('admin.storage.test.passed') : t('admin.storage.test.failed')}
            </p>
            {report.message && (
              <p className="mt-0.5" data-user-content="">
                {report.message}
              </p>
            )}
          </Alert>
          <ol className="space-y-2" aria-label={t('admin.storage.test.stepsLabel')}>
            {report.steps.map((step, index) => (
              <StepRow key={`${step.name}-${index}`} step={step} bucket={bucket} />
            ))}
          </ol>
          {browserStepFailed && <CorsGuidance />}
        </div>
      ) : null}
      <DialogActions>
        <Button variant="secondary" onClick={onRetry} disabled={pending} data-testid="rerun-storage-test">
          {pending && <Spinner className="size-4" />}
          {t('admin.storage.test.rerun')}
        </Button>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** One step; `bucket`: an S3 storage's, whose failed browser steps need a change on the bucket. */
function StepRow({ step, bucket }: { step: TestStep; bucket: boolean }) {
  const { t } = useTranslation();
  const highlighted = bucket && !step.success && BROWSER_STEPS.has(step.name);
  return (
    <li
      data-testid="storage-test-step"
      data-step={step.name}
      data-success={step.success ? 'true' : 'false'}
      className={`flex items-start gap-3 rounded-lg border px-3 py-2.5 ${
        highlighted ? 'border-warning bg-warning-soft' : 'border-border bg-surface'
      }`}
    >
      <span
        className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full ${
          step.success ? 'bg-success-soft text-success-text' : 'bg-danger-soft text-danger-text'
        }`}
      >
        {step.success ? <CheckIcon className="size-3.5" /> : <CloseIcon className="size-3.5" />}
        <span className="sr-only">
          {step.success ? t('admin.storage.test.stepPassed') : t('admin.storage.test.stepFailed')}
        </span>
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <p className="text-sm font-medium text-fg">
            {isKnown(step.name) ? (
              t(`admin.storage.test.steps.${step.name}`)
            ) : (
              <span data-user-content="">{step.name}</span>
            )}
          </p>
          <p className="text-xs text-fg-muted tabular-nums">
            {t('admin.storage.test.duration', { ms: Math.round(step.duration_ms) })}
          </p>
        </div>
        {step.note && (
          <p className="mt-0.5 text-xs break-words text-fg-muted" data-user-content="">
            {step.note}
          </p>
        )}
        {step.error && (
          <p className="mt-0.5 text-xs font-medium break-words text-danger-text" data-user-content="">
            {step.error}
          </p>
        )}
      </div>
    </li>
  );
}

function CorsGuidance() {
  const { t } = useTranslation();
  const rule = corsRuleFor(window.location.origin);
  return (
    <Alert tone="warning" testId="cors-guidance">
      <p className="font-medium">{t('admin.storage.test.corsTitle')}</p>
      <p className="mt-1">{t('admin.storage.test.corsHelp', { origin: window.location.origin })}</p>
      <pre
        className="mt-2 max-h-48 overflow-auto rounded-md bg-surface-sunken p-2 font-mono text-xs text-fg"
        data-user-content=""
      >
        {rule}
      </pre>
      <div className="mt-2">
        <CopyButton text={rule} testId="copy-cors-rule">
          {t('admin.storage.test.copyCors')}
        </CopyButton>
      </div>
    </Alert>
  );
}
