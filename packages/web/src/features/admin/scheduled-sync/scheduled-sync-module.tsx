/**
 * Admin module "scheduled sync" (docs/guide.md, "Scheduled sync"): jobs that copy one folder to
 * another on a schedule — listed with their schedule, last result and next run; created and edited in
 * a dialog; run now, dry run (the list of what would change), cancel, run history, delete.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, type SyncJob, type SyncRun, type SyncRunStatus } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog, DialogActions, FormDialogActions } from '../../../components/dialog.tsx';
import { Fact } from '../../../components/fact.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import {
  CloseIcon,
  EyeIcon,
  ListViewIcon,
  PencilIcon,
  PowerIcon,
  TrashIcon,
} from '../../../components/icons.tsx';
import { ListBody } from '../../../components/list-states.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../lib/api/index.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { submitForm } from '../../../lib/forms/submit-form.ts';
import { useFormState } from '../../../lib/forms/use-form-state.ts';
import {
  useCancelSyncRun,
  useCreateSyncJob,
  useDeleteSyncJob,
  useRunSyncJob,
  useSyncJobs,
  useSyncRuns,
  useUpdateSyncJob,
} from './api/scheduled-sync.ts';
import {
  SYNC_SERVER_FIELD,
  type SyncFormErrorKey,
  type SyncFormField,
  type SyncFormValues,
  syncValuesOf,
  validateSyncForm,
} from './scheduled-sync-form.ts';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

/** A field whose placeholder is an example value, not wording (the key-mode walk reads it as data). */
const EXAMPLE_VALUE: Record<string, string> = { 'data-user-content': '' };

const STATUS_TONE: Record<SyncRunStatus, BadgeTone> = {
  running: 'warning',
  success: 'success',
  failed: 'danger',
  cancelled: 'muted',
};

type Editing = { kind: 'create' } | { kind: 'edit'; job: SyncJob };

export default function ScheduledSyncModule() {
  const { t } = useTranslation();
  const jobs = useSyncJobs();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [historyOf, setHistoryOf] = useState<SyncJob | null>(null);
  const [dryRun, setDryRun] = useState<{ job: SyncJob; run: SyncRun } | null>(null);
  const [deleting, setDeleting] = useState<SyncJob | null>(null);
  const remove = useDeleteSyncJob();
  const run = useRunSyncJob();
  const cancel = useCancelSyncRun();
  const failed = (error: unknown) => showToast(errorMessage(error), 'error');

  const runNow = (job: SyncJob, dry: boolean) =>
    run.mutate(
      { id: job.taskId, dryRun: dry },
      {
        onSuccess: (answer) =>
          dry
            ? setDryRun({ job, run: answer })
            : showToast(t('admin.scheduledSync.run.started', { name: job.name }), 'success'),
        onError: failed,
      },
    );

  const schedule = (job: SyncJob) =>
    job.scheduleType === 'interval'
      ? t('admin.scheduledSync.schedule.every', { count: job.intervalSec ?? 0 })
      : t('admin.scheduledSync.schedule.cron', { expression: job.cronExpression ?? '' });

  return (
    <ManagedListCard
      title={t('admin.modules.scheduledSync')}
      description={t('admin.descriptions.scheduledSync')}
      create={{
        label: t('admin.scheduledSync.create.open'),
        testId: 'create-sync-job',
        onClick: () => setEditing({ kind: 'create' }),
      }}
      list={jobs}
      items={jobs.data}
      empty={{
        title: t('admin.scheduledSync.empty.title'),
        description: t('admin.scheduledSync.empty.description'),
        testId: 'sync-jobs-empty',
      }}
      rows={(items) => (
        <ul className="space-y-3">
          {items.map((job) => {
            const running = job.runningRunId !== null;
            return (
              <li
                key={job.taskId}
                className="rounded-lg border border-border p-4"
                data-testid="sync-job"
                data-running={running ? 'true' : 'false'}
              >
                <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                  <h2 className="flex min-w-0 flex-wrap items-center gap-2 font-semibold text-fg">
                    <span className="break-all" data-user-content="">
                      {job.name}
                    </span>
                    <Badge tone={job.enabled ? 'success' : 'muted'}>
                      {job.enabled
                        ? t('admin.scheduledSync.status.enabled')
                        : t('admin.scheduledSync.status.disabled')}
                    </Badge>
                    {running && <Badge tone="warning">{t('admin.scheduledSync.runStatus.running')}</Badge>}
                  </h2>
                  <RowActions
                    actions={[
                      running
                        ? {
                            testId: 'cancel-sync-run',
                            icon: <CloseIcon className="size-4" />,
                            text: t('admin.scheduledSync.cancel.run'),
                            name: t('admin.scheduledSync.cancel.name', { name: job.name }),
                            onClick: () =>
                              cancel.mutate(job.taskId, {
                                onSuccess: () =>
                                  showToast(
                                    t('admin.scheduledSync.cancel.done', { name: job.name }),
                                    'success',
                                  ),
                                onError: failed,
                              }),
                          }
                        : {
                            testId: 'run-sync-job',
                            icon: <PowerIcon className="size-4" />,
                            text: t('admin.scheduledSync.run.now'),
                            name: t('admin.scheduledSync.run.name', { name: job.name }),
                            onClick: () => runNow(job, false),
                          },
                      {
                        testId: 'dry-run-sync-job',
                        icon: <EyeIcon className="size-4" />,
                        text: t('admin.scheduledSync.dryRun.run'),
                        name: t('admin.scheduledSync.dryRun.name', { name: job.name }),
                        onClick: () => runNow(job, true),
                      },
                      {
                        testId: 'sync-job-history',
                        icon: <ListViewIcon className="size-4" />,
                        text: t('admin.scheduledSync.history.open'),
                        name: t('admin.scheduledSync.history.name', { name: job.name }),
                        onClick: () => setHistoryOf(job),
                      },
                      {
                        testId: 'edit-sync-job',
                        icon: <PencilIcon className="size-4" />,
                        text: t('common.edit'),
                        name: t('admin.scheduledSync.edit.name', { name: job.name }),
                        onClick: () => setEditing({ kind: 'edit', job }),
                      },
                      {
                        testId: 'delete-sync-job',
                        icon: <TrashIcon className="size-4" />,
                        text: t('common.delete'),
                        name: t('admin.scheduledSync.delete.name', { name: job.name }),
                        onClick: () => setDeleting(job),
                      },
                    ]}
                  />
                </div>
                <dl className="grid gap-3 sm:grid-cols-2">
                  <Fact label={t('admin.scheduledSync.fields.folders')}>
                    <span className="font-mono break-all" data-user-content="">
                      {job.sourcePath} → {job.targetPath}
                    </span>
                  </Fact>
                  <Fact label={t('admin.scheduledSync.fields.schedule')}>
                    {schedule(job)}
                    {job.deleteExtra && (
                      <>
                        {' · '}
                        <span>{t('admin.scheduledSync.fields.deleteExtra')}</span>
                      </>
                    )}
                  </Fact>
                  <Fact label={t('admin.scheduledSync.fields.lastRun')}>
                    {job.lastRunStartedAt && job.lastRunStatus ? (
                      <span className="flex flex-wrap items-center gap-2" data-testid="sync-last-run">
                        <Badge tone={STATUS_TONE[job.lastRunStatus]}>
                          {t(`admin.scheduledSync.runStatus.${job.lastRunStatus}`)}
                        </Badge>
                        <time dateTime={job.lastRunStartedAt}>{formatDateTime(job.lastRunStartedAt)}</time>
                      </span>
                    ) : (
                      t('admin.scheduledSync.never')
                    )}
                  </Fact>
                  <Fact label={t('admin.scheduledSync.fields.nextRun')}>
                    {job.nextRunAfter ? (
                      <time dateTime={job.nextRunAfter}>{formatDateTime(job.nextRunAfter)}</time>
                    ) : (
                      t('admin.scheduledSync.notScheduled')
                    )}
                  </Fact>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
    >
      {editing && (
        <JobDialog
          key={editing.kind === 'edit' ? editing.job.taskId : 'create'}
          job={editing.kind === 'edit' ? editing.job : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {historyOf && <HistoryDialog job={historyOf} onClose={() => setHistoryOf(null)} />}
      {dryRun && (
        <Dialog
          open
          onOpenChange={(open) => !open && setDryRun(null)}
          title={t('admin.scheduledSync.dryRun.title', { name: dryRun.job.name })}
          description={t('admin.scheduledSync.dryRun.description')}
          testId="sync-dry-run-dialog"
          wide
        >
          <RunDetails run={dryRun.run} />
          {/* A long list scrolls: the close button keeps the scrolled region reachable by keyboard. */}
          <DialogActions>
            <Button variant="secondary" onClick={() => setDryRun(null)}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
      {deleting && (
        <RevokeConfirm
          id={deleting.taskId}
          mutation={remove}
          title={t('admin.scheduledSync.delete.title')}
          description={t('admin.scheduledSync.delete.description', { name: deleting.name })}
          confirmLabel={t('admin.scheduledSync.delete.confirm')}
          doneMessage={t('admin.scheduledSync.delete.done', { name: deleting.name })}
          onClose={() => setDeleting(null)}
        />
      )}
    </ManagedListCard>
  );
}

function JobDialog({ job, onClose }: { job?: SyncJob; onClose(): void }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useFormState<SyncFormValues, SyncFormField, SyncFormErrorKey>(
    syncValuesOf(job),
    { serverField: SYNC_SERVER_FIELD },
  );
  const create = useCreateSyncJob();
  const update = useUpdateSyncJob();
  const { values, change } = form;
  const error = (field: SyncFormField) => form.fieldError(field, (key) => t(key)) ?? undefined;

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateSyncForm,
      save: (input, done) =>
        job ? update.mutate({ id: job.taskId, input }, done) : create.mutate(input, done),
      savedMessage: (input) =>
        t(job ? 'admin.scheduledSync.edit.saved' : 'admin.scheduledSync.create.done', { name: input.name }),
      fallback: t('errors.unexpected'),
      onClose,
    });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={job ? t('admin.scheduledSync.edit.title') : t('admin.scheduledSync.create.title')}
      description={t('admin.scheduledSync.create.description')}
      testId="sync-job-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label={t('admin.scheduledSync.fields.name')}
          name="name"
          value={values.name}
          onChange={(event) => change({ name: event.target.value })}
          error={error('name')}
          required
        />
        <TextField
          label={t('admin.scheduledSync.fields.sourcePath')}
          name="sourcePath"
          placeholder="/photos"
          {...EXAMPLE_VALUE}
          value={values.sourcePath}
          onChange={(event) => change({ sourcePath: event.target.value })}
          error={error('sourcePath')}
          hint={t('admin.scheduledSync.hints.sourcePath')}
          required
        />
        <TextField
          label={t('admin.scheduledSync.fields.targetPath')}
          name="targetPath"
          placeholder="/backup/photos"
          {...EXAMPLE_VALUE}
          value={values.targetPath}
          onChange={(event) => change({ targetPath: event.target.value })}
          error={error('targetPath')}
          hint={t('admin.scheduledSync.hints.targetPath')}
          required
        />
        <SelectField
          label={t('admin.scheduledSync.fields.scheduleType')}
          name="scheduleType"
          value={values.scheduleType}
          onChange={(event) => change({ scheduleType: event.target.value === 'cron' ? 'cron' : 'interval' })}
        >
          <option value="interval">{t('admin.scheduledSync.scheduleTypes.interval')}</option>
          <option value="cron">{t('admin.scheduledSync.scheduleTypes.cron')}</option>
        </SelectField>
        {values.scheduleType === 'interval' ? (
          <TextField
            label={t('admin.scheduledSync.fields.intervalSec')}
            name="intervalSec"
            type="number"
            min={60}
            value={values.intervalSec}
            onChange={(event) => change({ intervalSec: event.target.value })}
            error={error('intervalSec')}
            hint={t('admin.scheduledSync.hints.intervalSec')}
            required
          />
        ) : (
          <TextField
            label={t('admin.scheduledSync.fields.cronExpression')}
            name="cronExpression"
            {...EXAMPLE_VALUE}
            value={values.cronExpression}
            onChange={(event) => change({ cronExpression: event.target.value })}
            error={error('cronExpression')}
            hint={t('admin.scheduledSync.hints.cronExpression')}
            required
          />
        )}
        <Checkbox
          label={t('admin.scheduledSync.fields.deleteExtra')}
          checked={values.deleteExtra}
          onChange={(event) => change({ deleteExtra: event.target.checked })}
        />
        <Checkbox
          label={t('admin.scheduledSync.fields.enabled')}
          checked={values.enabled}
          onChange={(event) => change({ enabled: event.target.checked })}
        />
        {form.formError && (
          <Alert tone="error" testId="sync-job-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending || update.isPending}
          submitTestId="save-sync-job"
        />
      </form>
    </Dialog>
  );
}

/** A run's counts, and the paths it changed (or would) and its errors. */
function RunDetails({ run }: { run: SyncRun }) {
  const { t } = useTranslation();
  const { counts } = run;
  const lists = [
    ['created', run.changes.created],
    ['updated', run.changes.updated],
    ['deleted', run.changes.deleted],
  ] as const;
  return (
    <div className="space-y-3 text-sm">
      <p className="text-fg" data-testid="sync-run-counts">
        {t('admin.scheduledSync.counts', {
          copied: counts.copied,
          updated: counts.updated,
          deleted: counts.deleted,
          skipped: counts.skipped,
          failed: counts.failed,
          bytes: formatBytes(counts.bytes),
        })}
      </p>
      {lists.every(([, paths]) => paths.length === 0) && (
        <p className="text-fg-muted">{t('admin.scheduledSync.noChanges')}</p>
      )}
      {lists.map(([kind, paths]) =>
        paths.length === 0 ? null : (
          <section key={kind}>
            <h3 className="font-medium text-fg">{t(`admin.scheduledSync.changes.${kind}`)}</h3>
            <ul className="mt-1 space-y-0.5 font-mono text-xs break-all" data-testid={`sync-changes-${kind}`}>
              {paths.map((path) => (
                <li key={path} data-user-content="">
                  {path}
                </li>
              ))}
            </ul>
          </section>
        ),
      )}
      {run.errors.length > 0 && (
        <ul className="space-y-1 text-xs text-danger-text" data-testid="sync-run-errors">
          {run.errors.map((e, i) => (
            <li key={i}>
              <span className="font-mono break-all" data-user-content="">
                {e.path}
              </span>{' '}
              {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function HistoryDialog({ job, onClose }: { job: SyncJob; onClose(): void }) {
  const { t } = useTranslation();
  const runs = useSyncRuns(job.taskId);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.scheduledSync.history.title', { name: job.name })}
      description={t('admin.scheduledSync.history.description')}
      testId="sync-history-dialog"
      wide
    >
      <ListBody
        query={runs}
        count={runs.data?.length ?? 0}
        empty={{
          title: t('admin.scheduledSync.history.empty'),
          description: t('admin.scheduledSync.history.emptyDescription'),
          testId: 'sync-history-empty',
        }}
      >
        <ul className="space-y-2">
          {(runs.data ?? []).map((run) => (
            <li
              key={run.id}
              className="rounded-md border border-border p-3"
              data-testid="sync-run"
              data-status={run.status}
            >
              <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
                <Badge tone={STATUS_TONE[run.status]}>
                  {t(`admin.scheduledSync.runStatus.${run.status}`)}
                </Badge>
                {run.dryRun && <Badge tone="muted">{t('admin.scheduledSync.dryRun.badge')}</Badge>}
                <span className="text-fg-muted">
                  <time dateTime={run.startedAt}>{formatDateTime(run.startedAt)}</time>
                  {' · '}
                  <span>{t(`admin.scheduledSync.trigger.${run.trigger}`)}</span>
                </span>
              </div>
              <RunDetails run={run} />
            </li>
          ))}
        </ul>
      </ListBody>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
