/**
 * Scheduled sync (docs/guide.md, "Scheduled sync"): admin jobs that copy one folder of the virtual
 * tree to another, one way, on an interval or a cron schedule, on any storages.
 *
 * - A job's folders are checked for the admin through the vfs when it is saved (the source must be a
 *   folder, the target a writable place, neither inside the other) and again on every run.
 * - A run walks the source folder by folder (never the whole tree in memory), lists the target's
 *   matching folder and compares file by file: new files are copied, changed ones (other size; other
 *   ETag where both storages give content ETags; else a newer source time) copied again, the rest
 *   skipped; with `deleteExtra` what the target has and the source does not is deleted. Every copy
 *   goes through the vfs's copy engine (vfs/copy-engine.ts), so quota, locks, folder rules and
 *   change events hold, and across storages the bytes stream. A dry run only lists what would change.
 * - A job never runs twice at once, across instances: a run starts only by taking the job's
 *   `running_run_id` from null with one conditional UPDATE. The scheduler (`runDue`, the
 *   "scheduled-sync" job of jobs.ts) starts the due jobs; a run left running by a process that is
 *   gone is marked failed (`failOrphans`) and its job freed.
 * - Cancelling aborts the copy in flight, also through another instance than the one running it
 *   (lib/stop-elsewhere.ts); nothing half-written stays under a target name.
 */
import { randomUUID } from 'node:crypto';
import {
  isNormalizedPathWithin,
  type Principal,
  SYNC_ERRORS_LISTED,
  SYNC_PATHS_LISTED,
  SYNC_RUNS_PAGE_MAX,
  type SyncJob,
  type syncJobCreateSchema,
  type syncJobUpdateSchema,
  type SyncRun,
  type SyncRunCounts,
} from '@cubby/shared';
import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ScheduledJobRunsTable, ScheduledJobsTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors/app-error.ts';
import type { Lang } from '../../errors/messages.ts';
import type { CacheBus } from '../../lib/cache-bus.ts';
import type { Clock } from '../../lib/clock.ts';
import { stopElsewhere } from '../../lib/stop-elsewhere.ts';
import { formatTag, parseTag, processState, THIS_PROCESS } from '../../lib/process-tag.ts';
import { Cancelled, errorKey, noProgress } from '../../vfs/copy-engine.ts';
import { type FsItem, joinPath, type Vfs } from '../../vfs/vfs.ts';
import { messageText } from '../fs-tasks/fs-tasks.service.ts';
import type { ScheduledSyncRepository } from './scheduled-sync.repository.ts';

type JobInput = z.output<typeof syncJobCreateSchema>;
type JobChanges = z.output<typeof syncJobUpdateSchema>;

export interface ScheduledSyncDeps {
  repo: ScheduledSyncRepository;
  vfs: Vfs;
  /** The active account with this id as a principal, or null (modules/users). */
  principalById(id: string): Promise<Principal | null>;
  clock: Clock;
  logger: Logger;
  /** How often a running run writes its counts (default 2 s): also the sign it is alive. */
  progressEveryMs?: number;
  /** Reaches the instance running a run to cancel it there (none: one instance). */
  bus?: CacheBus;
}

/** A run of another process that has not moved for this long is taken for dead. */
const SILENT_AFTER_MS = 10 * 60_000;
const RUNS_PAGE_DEFAULT = 20;

/**
 * Runs going on in this process, from just before their record is written until it is final: a run
 * tagged with this process that is not here is left over from before (process-wide, as the tag is).
 */
const LIVE_HERE = new Set<string>();

interface Running {
  jobId: string;
  abort: AbortController;
  done: Promise<void>;
}

/** What a run found and did, as it goes. */
interface Tally {
  counts: SyncRunCounts;
  changes: { created: string[]; updated: string[]; deleted: string[] };
  errors: Array<{ path: string; message: string }>;
}

export class ScheduledSyncService {
  private readonly running = new Map<string, Running>();
  private stopping = false;

  constructor(private readonly deps: ScheduledSyncDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  // ---- jobs ------------------------------------------------------------------------------------

  async list(): Promise<SyncJob[]> {
    return (await this.deps.repo.listJobs()).map(jobView);
  }

  async get(id: string): Promise<SyncJob> {
    return jobView(await this.job(id));
  }

  async create(principal: Principal, input: JobInput): Promise<SyncJob> {
    if (principal.type !== 'admin') throw notFound('scheduled.job_not_found');
    const checked = await this.check(principal, input);
    const now = this.now();
    const row: ScheduledJobsTable = {
      id: randomUUID(),
      name: input.name,
      ...checked,
      enabled: input.enabled ? 1 : 0,
      delete_extra: input.deleteExtra ? 1 : 0,
      owner_id: principal.id,
      owner_name: principal.username,
      next_run_at: input.enabled ? nextRun(checked, now) : null,
      last_run_at: null,
      last_run_status: null,
      running_run_id: null,
      run_count: 0,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await this.deps.repo.insertJob(row);
    return jobView(row);
  }

  async update(principal: Principal, id: string, changes: JobChanges): Promise<SyncJob> {
    if (principal.type !== 'admin') throw notFound('scheduled.job_not_found');
    const row = await this.job(id);
    const merged: JobInput = {
      name: changes.name ?? row.name,
      sourcePath: changes.sourcePath ?? row.source_path,
      targetPath: changes.targetPath ?? row.target_path,
      scheduleType: changes.scheduleType ?? row.schedule_type,
      intervalSec: changes.intervalSec === undefined ? row.interval_sec : changes.intervalSec,
      cronExpression: changes.cronExpression === undefined ? row.cron_expression : changes.cronExpression,
      enabled: changes.enabled ?? row.enabled === 1,
      deleteExtra: changes.deleteExtra ?? row.delete_extra === 1,
    };
    const checked = await this.check(principal, merged);
    const now = this.now();
    const scheduleChanged =
      checked.schedule_type !== row.schedule_type ||
      checked.interval_sec !== row.interval_sec ||
      checked.cron_expression !== row.cron_expression ||
      (merged.enabled && row.enabled !== 1);
    const updated: ScheduledJobsTable = {
      ...row,
      name: merged.name,
      ...checked,
      enabled: merged.enabled ? 1 : 0,
      delete_extra: merged.deleteExtra ? 1 : 0,
      // Runs act as the admin who saved the job last.
      owner_id: principal.id,
      owner_name: principal.username,
      next_run_at: !merged.enabled ? null : scheduleChanged ? nextRun(checked, now) : row.next_run_at,
      updated_at: now.toISOString(),
    };
    const { id: _id, running_run_id: _held, run_count: _count, ...columns } = updated;
    await this.deps.repo.updateJob(id, columns);
    return jobView(updated);
  }

  /** Deletes a job and its history; a run of it going on here is cancelled first. */
  async remove(id: string): Promise<void> {
    await this.job(id);
    for (const [runId, run] of this.running) if (run.jobId === id) await this.stop(runId);
    if (!(await this.deps.repo.deleteJob(id))) throw notFound('scheduled.job_not_found');
  }

  /** A page of a job's runs, newest first; `before` is the `startedAt` of the last one seen. */
  async runs(id: string, lang: Lang, options: { limit?: number | undefined; before?: string | undefined }) {
    await this.job(id);
    const limit = Math.min(Math.max(1, options.limit ?? RUNS_PAGE_DEFAULT), SYNC_RUNS_PAGE_MAX);
    const rows = await this.deps.repo.runs(id, limit, options.before);
    return {
      items: rows.map((row) => runView(row, lang)),
      nextBefore: rows.length === limit ? rows[rows.length - 1]!.started_at : null,
    };
  }

  /** The source must be a folder, the target a writable place outside it; the schedule valid. */
  private async check(principal: Principal, input: JobInput) {
    const schedule =
      input.scheduleType === 'interval'
        ? {
            schedule_type: 'interval' as const,
            interval_sec: input.intervalSec ?? null,
            cron_expression: null,
          }
        : {
            schedule_type: 'cron' as const,
            interval_sec: null,
            cron_expression: input.cronExpression ?? null,
          };
    if (schedule.schedule_type === 'interval' && schedule.interval_sec === null) {
      throw badRequest('validation.sync_interval_invalid');
    }
    if (schedule.schedule_type === 'cron') cronOf(schedule.cron_expression);
    const source = await this.deps.vfs.stat(principal, input.sourcePath).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) throw badRequest('scheduled.source_missing');
      throw error;
    });
    if (!source.entry.isDirectory) throw badRequest('scheduled.source_missing');
    const target = await this.deps.vfs.resolveWritable(principal, input.targetPath);
    const from = source.at.path;
    if (isNormalizedPathWithin(from, target.path) || isNormalizedPathWithin(target.path, from)) {
      throw badRequest('scheduled.target_inside_source');
    }
    return { source_path: from, target_path: target.path, ...schedule };
  }

  private async job(id: string): Promise<ScheduledJobsTable> {
    const row = await this.deps.repo.findJob(id);
    if (!row) throw notFound('scheduled.job_not_found');
    return row;
  }

  // ---- runs ------------------------------------------------------------------------------------

  /**
   * Runs a job now. A dry run answers when it has ended (with the list of what would change); a
   * real run answers as it starts. 409 while the job runs (here or elsewhere).
   */
  async runNow(id: string, dryRun: boolean, lang: Lang): Promise<SyncRun> {
    const row = await this.job(id);
    const started = await this.start(row, 'manual', dryRun);
    if (!started) throw conflict('scheduled.job_running');
    if (dryRun) await started.done;
    return runView((await this.deps.repo.findRun(started.runId))!, lang);
  }

  /**
   * Stops the job's run, in this process or (through the cache bus, lib/stop-elsewhere.ts) in the
   * instance running it; answers the run once it has stopped.
   */
  async cancel(id: string, lang: Lang): Promise<SyncRun> {
    const row = await this.job(id);
    const runId = row.running_run_id;
    if (!runId) throw conflict('scheduled.job_not_running');
    if (this.running.has(runId)) await this.stop(runId);
    else {
      const stopped = await stopElsewhere(this.deps.bus, runId, async () => {
        return (await this.deps.repo.findRun(runId))?.status !== 'running';
      });
      if (!stopped) throw conflict('scheduled.run_elsewhere');
    }
    return runView((await this.deps.repo.findRun(runId))!, lang);
  }

  /** Stops run `runId` if it goes on in this process (asked through another instance). */
  stopHere(runId: string): void {
    this.running.get(runId)?.abort.abort(new Cancelled());
  }

  private async stop(runId: string): Promise<void> {
    const run = this.running.get(runId);
    if (!run) return;
    run.abort.abort(new Cancelled());
    await run.done;
  }

  /** The scheduler's tick: frees what dead runs held, then starts every due job; answers how many. */
  async runDue(): Promise<number> {
    await this.failOrphans();
    let started = 0;
    for (const row of await this.deps.repo.due(this.now().toISOString())) {
      if (await this.start(row, 'schedule', false)) started++;
    }
    return started;
  }

  /** Marks failed the runs whose process is gone or that have been silent long; frees their jobs. */
  async failOrphans(): Promise<number> {
    const silentSince = this.now().getTime() - SILENT_AFTER_MS;
    let count = 0;
    for (const run of await this.deps.repo.runningRuns()) {
      if (LIVE_HERE.has(run.id)) continue;
      const state = processState(parseTag(run.runner));
      const gone = state === 'dead' || state === 'self';
      if (!gone && Date.parse(run.updated_at) > silentSince) continue;
      const now = this.now().toISOString();
      const errors = JSON.stringify([{ path: '', message: 'scheduled.run_interrupted' }]);
      if (await this.deps.repo.failRunning(run.id, { errors, updated_at: now, finished_at: now })) {
        count++;
        await this.deps.repo.release(run.job_id, run.id, run.dry_run ? {} : { last_run_status: 'failed' });
      }
    }
    await this.deps.repo.releaseStale();
    return count;
  }

  /** Stops every run of this process (shutdown); they are recorded failed (interrupted). */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }

  /**
   * Records a run and takes the job for it (the claim); null when another run holds the job (or,
   * for the scheduler, it is no longer due). The run goes on in the background.
   */
  private async start(row: ScheduledJobsTable, trigger: 'schedule' | 'manual', dryRun: boolean) {
    const { repo } = this.deps;
    const now = this.now();
    const at = now.toISOString();
    const run: ScheduledJobRunsTable = {
      id: randomUUID(),
      job_id: row.id,
      trigger,
      dry_run: dryRun ? 1 : 0,
      status: 'running',
      copied: 0,
      updated: 0,
      deleted: 0,
      skipped: 0,
      failed: 0,
      bytes: 0,
      changes: JSON.stringify({ created: [], updated: [], deleted: [] }),
      errors: '[]',
      runner: formatTag(THIS_PROCESS),
      started_at: at,
      updated_at: at,
      finished_at: null,
    };
    // The run exists before its claim, so a claim never names a run that is not there.
    LIVE_HERE.add(run.id);
    try {
      await repo.insertRun(run);
    } catch (error) {
      LIVE_HERE.delete(run.id);
      throw error;
    }
    const changes = dryRun
      ? {}
      : {
          last_run_at: at,
          last_run_status: 'running' as const,
          run_count: row.run_count + 1,
          ...(trigger === 'schedule' ? { next_run_at: nextRun(row, now) } : {}),
        };
    let claimed = false;
    try {
      claimed = await repo.claim(row.id, run.id, changes, trigger === 'schedule' ? at : undefined);
    } finally {
      if (!claimed) {
        await repo.deleteRun(run.id).catch(() => undefined);
        LIVE_HERE.delete(run.id);
      }
    }
    if (!claimed) return null;
    const abort = new AbortController();
    const done = this.execute(row, run, abort.signal)
      .catch((error: unknown) => {
        // Its record stays running; failOrphans fails it once this process is gone or it is silent.
        this.deps.logger.error({ err: error, run: run.id }, 'could not record a scheduled sync run');
      })
      .finally(() => {
        this.running.delete(run.id);
        LIVE_HERE.delete(run.id);
      });
    this.running.set(run.id, { jobId: row.id, abort, done });
    return { runId: run.id, done };
  }

  private async execute(job: ScheduledJobsTable, run: ScheduledJobRunsTable, signal: AbortSignal) {
    const { repo, logger } = this.deps;
    const tally: Tally = {
      counts: { copied: 0, updated: 0, deleted: 0, skipped: 0, failed: 0, bytes: 0 },
      changes: { created: [], updated: [], deleted: [] },
      errors: [],
    };
    const columns = () => ({
      ...tally.counts,
      changes: JSON.stringify(tally.changes),
      errors: JSON.stringify(tally.errors),
      updated_at: this.now().toISOString(),
    });
    let writing = Promise.resolve();
    const timer = setInterval(() => {
      writing = writing.then(() => repo.updateRun(run.id, columns())).catch(() => undefined);
    }, this.deps.progressEveryMs ?? 2000);
    timer.unref();
    let status: ScheduledJobRunsTable['status'];
    try {
      await this.sync(job, run.dry_run === 1, tally, signal);
      status = tally.counts.failed > 0 ? 'failed' : 'success';
    } catch (error) {
      if (signal.aborted) {
        status = this.stopping ? 'failed' : 'cancelled';
        if (this.stopping) note(tally, '', 'scheduled.run_interrupted');
      } else {
        status = 'failed';
        const key = errorKey(error);
        if (key === 'common.internal')
          logger.error({ err: error, job: job.id }, 'a scheduled sync run failed');
        note(tally, '', key);
      }
    } finally {
      clearInterval(timer);
      await writing;
    }
    const finished = this.now().toISOString();
    await repo.updateRun(run.id, { ...columns(), status, finished_at: finished });
    await repo.release(job.id, run.id, run.dry_run ? {} : { last_run_status: status });
  }

  /** Walks the source folder by folder and brings the target in line (or, dry, lists what would change). */
  private async sync(job: ScheduledJobsTable, dryRun: boolean, tally: Tally, signal: AbortSignal) {
    const { vfs } = this.deps;
    // A run acts as the admin who saved the job, as long as that account is an active admin.
    const principal = await this.deps.principalById(job.owner_id);
    if (principal?.type !== 'admin') throw forbidden('scheduled.owner_not_admin');
    const sourceAt = await vfs.resolveMounted(principal, job.source_path, 'read');
    const targetAt = await vfs.resolveWritable(principal, job.target_path);
    // Equal bytes have equal ETags only where both storages give the MD5 of the content.
    const etags = (await vfs.can(sourceAt, 'contentEtag')) && (await vfs.can(targetAt, 'contentEtag'));
    const progress = noProgress();
    const pending = [''];
    while (pending.length > 0) {
      if (signal.aborted) throw new Cancelled();
      const rel = pending.shift()!;
      const sourceDir = rel ? joinPath(sourceAt.path, rel) : sourceAt.path;
      const targetDir = rel ? joinPath(targetAt.path, rel) : targetAt.path;
      const sourceItems = (await vfs.list(principal, sourceDir, { cache: 'bypass' })).items.filter(
        (item) => !item.isVirtual,
      );
      const targetItems = await this.listIfAny(principal, targetDir);
      const there = new Map((targetItems ?? []).map((item) => [item.name, item]));
      if (!targetItems && !dryRun) await vfs.mkdir(principal, targetDir);
      for (const item of sourceItems) {
        if (signal.aborted) throw new Cancelled();
        const other = there.get(item.name);
        there.delete(item.name);
        const sourcePath = joinPath(sourceDir, item.name);
        const targetPath = joinPath(targetDir, item.name);
        if (item.isDirectory !== (other?.isDirectory ?? item.isDirectory)) {
          tally.counts.failed++;
          note(tally, targetPath, 'scheduled.kind_differs');
          continue;
        }
        if (item.isDirectory) {
          pending.push(rel ? `${rel}/${item.name}` : item.name);
          continue;
        }
        const kind = !other ? 'created' : differs(item, other, etags) ? 'updated' : null;
        if (!kind) {
          tally.counts.skipped++;
          continue;
        }
        if (!dryRun) {
          const before = progress.bytesDone;
          try {
            await vfs.copyItem(
              principal,
              { sourcePath, targetPath, done: 0, skipped: 0, failed: 0 },
              { move: false, skipExisting: false, progress, signal },
            );
          } catch (error) {
            if (signal.aborted) throw new Cancelled();
            tally.counts.failed++;
            note(tally, targetPath, errorKey(error));
            continue;
          } finally {
            tally.counts.bytes += progress.bytesDone - before;
          }
        } else {
          tally.counts.bytes += item.size;
        }
        if (kind === 'created') tally.counts.copied++;
        else tally.counts.updated++;
        listed(tally.changes[kind], targetPath);
      }
      if (job.delete_extra !== 1) continue;
      for (const extra of there.values()) {
        if (signal.aborted) throw new Cancelled();
        const targetPath = joinPath(targetDir, extra.name);
        if (!dryRun) {
          try {
            await vfs.remove(principal, targetPath);
          } catch (error) {
            tally.counts.failed++;
            note(tally, targetPath, errorKey(error));
            continue;
          }
        }
        tally.counts.deleted++;
        listed(tally.changes.deleted, targetPath);
      }
    }
  }

  /** A target folder's items; null when it does not exist yet. */
  private async listIfAny(principal: Principal, path: string): Promise<FsItem[] | null> {
    try {
      return (await this.deps.vfs.list(principal, path, { cache: 'bypass' })).items.filter(
        (i) => !i.isVirtual,
      );
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  }
}

/**
 * Whether the target's copy of a file is out of date: another size; where both sides give content
 * ETags (single-part), another ETag; else a source modified after the target, to the second: SFTP
 * and FTP servers keep whole seconds, so a copy made in the second its source was written would
 * otherwise look older than the source forever (and be copied again on every run).
 */
function differs(source: FsItem, target: FsItem, etags: boolean): boolean {
  if (source.size !== target.size) return true;
  if (etags && source.etag && target.etag && !source.etag.includes('-') && !target.etag.includes('-')) {
    return source.etag !== target.etag;
  }
  const second = (time: string) => Math.floor(Date.parse(time) / 1000);
  if (source.modified && target.modified) return second(source.modified) > second(target.modified);
  return false;
}

function listed(list: string[], path: string): void {
  if (list.length < SYNC_PATHS_LISTED) list.push(path);
}

function note(tally: Tally, path: string, message: string): void {
  if (tally.errors.length < SYNC_ERRORS_LISTED) tally.errors.push({ path, message });
}

/** A cron expression of five fields (minute to weekday), or 400. */
function cronOf(expression: string | null): Cron {
  const fields = expression?.trim().split(/\s+/) ?? [];
  if (!expression || (fields.length !== 5 && !expression.startsWith('@'))) {
    throw badRequest('validation.sync_cron_invalid');
  }
  try {
    return new Cron(expression, { paused: true, timezone: 'UTC' });
  } catch {
    throw badRequest('validation.sync_cron_invalid');
  }
}

/** When a job is due next after `now`. */
function nextRun(
  schedule: Pick<ScheduledJobsTable, 'schedule_type' | 'interval_sec' | 'cron_expression'>,
  now: Date,
): string | null {
  if (schedule.schedule_type === 'interval') {
    return new Date(now.getTime() + (schedule.interval_sec ?? 0) * 1000).toISOString();
  }
  return cronOf(schedule.cron_expression).nextRun(now)?.toISOString() ?? null;
}

function jobView(row: ScheduledJobsTable): SyncJob {
  return {
    taskId: row.id,
    name: row.name,
    sourcePath: row.source_path,
    targetPath: row.target_path,
    scheduleType: row.schedule_type,
    intervalSec: row.interval_sec,
    cronExpression: row.cron_expression,
    enabled: row.enabled === 1,
    deleteExtra: row.delete_extra === 1,
    nextRunAfter: row.next_run_at,
    lastRunStartedAt: row.last_run_at,
    lastRunStatus: row.last_run_status,
    runningRunId: row.running_run_id,
    runCount: row.run_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function runView(row: ScheduledJobRunsTable, lang: Lang): SyncRun {
  const errors = JSON.parse(row.errors) as SyncRun['errors'];
  return {
    id: row.id,
    taskId: row.job_id,
    trigger: row.trigger,
    dryRun: row.dry_run === 1,
    status: row.status,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    counts: {
      copied: row.copied,
      updated: row.updated,
      deleted: row.deleted,
      skipped: row.skipped,
      failed: row.failed,
      bytes: row.bytes,
    },
    changes: JSON.parse(row.changes) as SyncRun['changes'],
    errors: errors.map((e) => ({ path: e.path, message: messageText(e.message, lang) })),
  };
}
