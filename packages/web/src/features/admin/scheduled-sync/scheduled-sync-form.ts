/**
 * Form logic of the scheduled sync screen: the job dialog's values as typed, the client-side checks
 * (the server checks again, cron expressions included) and the body sent.
 */
import {
  SYNC_MIN_INTERVAL_SEC,
  type SyncJob,
  type SyncJobCreate,
  type SyncScheduleType,
} from '@cubby/shared';

export interface SyncFormValues {
  name: string;
  sourcePath: string;
  targetPath: string;
  scheduleType: SyncScheduleType;
  intervalSec: string;
  cronExpression: string;
  enabled: boolean;
  deleteExtra: boolean;
}
export type SyncFormField = 'name' | 'sourcePath' | 'targetPath' | 'intervalSec' | 'cronExpression';
export type SyncFormErrorKey =
  | 'admin.scheduledSync.errors.nameRequired'
  | 'admin.scheduledSync.errors.pathRequired'
  | 'admin.scheduledSync.errors.intervalInvalid'
  | 'admin.scheduledSync.errors.cronInvalid';
export type SyncFormErrors = Partial<Record<SyncFormField, SyncFormErrorKey>>;
export const SYNC_SERVER_FIELD: Record<string, SyncFormField> = {
  name: 'name',
  sourcePath: 'sourcePath',
  targetPath: 'targetPath',
  intervalSec: 'intervalSec',
  cronExpression: 'cronExpression',
};

export function syncValuesOf(job?: SyncJob): SyncFormValues {
  return job
    ? {
        name: job.name,
        sourcePath: job.sourcePath,
        targetPath: job.targetPath,
        scheduleType: job.scheduleType,
        intervalSec: String(job.intervalSec ?? 3600),
        cronExpression: job.cronExpression ?? '',
        enabled: job.enabled,
        deleteExtra: job.deleteExtra,
      }
    : {
        name: '',
        sourcePath: '',
        targetPath: '',
        scheduleType: 'interval',
        intervalSec: '3600',
        cronExpression: '0 3 * * *',
        enabled: true,
        deleteExtra: false,
      };
}

export function validateSyncForm(
  values: SyncFormValues,
): { ok: true; input: SyncJobCreate } | { ok: false; errors: SyncFormErrors } {
  const errors: SyncFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'admin.scheduledSync.errors.nameRequired';
  const sourcePath = values.sourcePath.trim();
  const targetPath = values.targetPath.trim();
  if (!sourcePath.startsWith('/')) errors.sourcePath = 'admin.scheduledSync.errors.pathRequired';
  if (!targetPath.startsWith('/')) errors.targetPath = 'admin.scheduledSync.errors.pathRequired';
  const interval = Number(values.intervalSec);
  if (
    values.scheduleType === 'interval' &&
    (!Number.isInteger(interval) || interval < SYNC_MIN_INTERVAL_SEC)
  ) {
    errors.intervalSec = 'admin.scheduledSync.errors.intervalInvalid';
  }
  const cron = values.cronExpression.trim();
  if (values.scheduleType === 'cron' && cron.split(/\s+/).length !== 5) {
    errors.cronExpression = 'admin.scheduledSync.errors.cronInvalid';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      name,
      sourcePath,
      targetPath,
      scheduleType: values.scheduleType,
      ...(values.scheduleType === 'interval' ? { intervalSec: interval } : { cronExpression: cron }),
      enabled: values.enabled,
      deleteExtra: values.deleteExtra,
    },
  };
}
