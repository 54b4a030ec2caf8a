/**
 * Scheduled sync (docs/api.md, "Scheduled sync"): admin jobs that copy one folder of the virtual tree
 * to another on a schedule, one way. The input rules of a job (the server validates them, the admin
 * form shares them; a cron expression is checked by the server) and what the routes answer. Field
 * names follow CloudPaste 1.9's scheduled jobs (`taskId`, `scheduleType`, `intervalSec`,
 * `cronExpression`, `enabled`, `lastRunStatus`, `nextRunAfter`).
 */
import { z } from 'zod';

/** The shortest interval between two runs of a job. */
export const SYNC_MIN_INTERVAL_SEC = 60;
export const SYNC_MAX_INTERVAL_SEC = 366 * 24 * 3600;
/** Most paths a run names per kind of change (created, updated, deleted) and most errors it keeps. */
export const SYNC_PATHS_LISTED = 200;
export const SYNC_ERRORS_LISTED = 50;
/** Most runs one history page answers. */
export const SYNC_RUNS_PAGE_MAX = 100;

export const SYNC_SCHEDULE_TYPES = ['interval', 'cron'] as const;
export type SyncScheduleType = (typeof SYNC_SCHEDULE_TYPES)[number];
export const SYNC_RUN_STATUSES = ['running', 'success', 'failed', 'cancelled'] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

const folderPath = z
  .string({ error: 'sync_path_required' })
  .trim()
  .min(1, { message: 'sync_path_required' })
  .max(4096, { message: 'sync_path_required' });

const jobFields = {
  name: z.string({ error: 'sync_name_invalid' }).trim().min(1, { message: 'sync_name_invalid' }).max(100, {
    message: 'sync_name_invalid',
  }),
  sourcePath: folderPath,
  targetPath: folderPath,
  scheduleType: z.enum(SYNC_SCHEDULE_TYPES, { error: 'sync_schedule_type_invalid' }),
  intervalSec: z
    .number({ error: 'sync_interval_invalid' })
    .int({ message: 'sync_interval_invalid' })
    .min(SYNC_MIN_INTERVAL_SEC, { message: 'sync_interval_invalid' })
    .max(SYNC_MAX_INTERVAL_SEC, { message: 'sync_interval_invalid' })
    .nullable(),
  cronExpression: z
    .string({ error: 'sync_cron_invalid' })
    .trim()
    .max(200, { message: 'sync_cron_invalid' })
    .nullable(),
  enabled: z.boolean({ error: 'sync_enabled_invalid' }),
  deleteExtra: z.boolean({ error: 'sync_delete_extra_invalid' }),
};

export const syncJobCreateSchema = z.object({
  ...jobFields,
  intervalSec: jobFields.intervalSec.optional(),
  cronExpression: jobFields.cronExpression.optional(),
  enabled: jobFields.enabled.default(true),
  deleteExtra: jobFields.deleteExtra.default(false),
});
export const syncJobUpdateSchema = z.object({
  name: jobFields.name.optional(),
  sourcePath: jobFields.sourcePath.optional(),
  targetPath: jobFields.targetPath.optional(),
  scheduleType: jobFields.scheduleType.optional(),
  intervalSec: jobFields.intervalSec.optional(),
  cronExpression: jobFields.cronExpression.optional(),
  enabled: jobFields.enabled.optional(),
  deleteExtra: jobFields.deleteExtra.optional(),
});
/** `POST …/jobs/:taskId/run`: `dryRun` (or `dry_run`) lists what would change without writing. */
export const syncRunSchema = z.object({
  dryRun: z.boolean({ error: 'sync_dry_run_invalid' }).optional(),
  dry_run: z.boolean({ error: 'sync_dry_run_invalid' }).optional(),
});
export type SyncJobCreate = z.input<typeof syncJobCreateSchema>;
export type SyncJobUpdate = z.input<typeof syncJobUpdateSchema>;

export interface SyncJob {
  taskId: string;
  name: string;
  sourcePath: string;
  targetPath: string;
  scheduleType: SyncScheduleType;
  intervalSec: number | null;
  cronExpression: string | null;
  enabled: boolean;
  deleteExtra: boolean;
  /** When the scheduler starts it next (null while disabled). */
  nextRunAfter: string | null;
  lastRunStartedAt: string | null;
  lastRunStatus: SyncRunStatus | null;
  /** The run going on now (here or on another instance), or null. */
  runningRunId: string | null;
  runCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface SyncRunCounts {
  copied: number;
  updated: number;
  deleted: number;
  skipped: number;
  failed: number;
  bytes: number;
}

export interface SyncRun {
  id: string;
  taskId: string;
  /** `schedule` (the scheduler started it) or `manual` (run now). */
  trigger: 'schedule' | 'manual';
  dryRun: boolean;
  status: SyncRunStatus;
  startedAt: string;
  finishedAt: string | null;
  counts: SyncRunCounts;
  /** What changed (or, in a dry run, would): up to SYNC_PATHS_LISTED virtual paths of each kind. */
  changes: { created: string[]; updated: string[]; deleted: string[] };
  /** Up to SYNC_ERRORS_LISTED: the path and what went wrong. */
  errors: Array<{ path: string; message: string }>;
}
