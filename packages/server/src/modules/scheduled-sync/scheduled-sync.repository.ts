/** SQL for scheduled sync jobs and their runs (migration 0029-scheduled-jobs). */
import type { Kysely, Updateable } from 'kysely';
import type { Database, ScheduledJobRunsTable, ScheduledJobsTable } from '../../db/schema.ts';

/** Most due jobs one tick starts. */
const DUE_BATCH = 20;

export class ScheduledSyncRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertJob(row: ScheduledJobsTable): Promise<void> {
    await this.db.insertInto('scheduled_jobs').values(row).execute();
  }

  findJob(id: string): Promise<ScheduledJobsTable | undefined> {
    return this.db.selectFrom('scheduled_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listJobs(): Promise<ScheduledJobsTable[]> {
    return this.db.selectFrom('scheduled_jobs').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async updateJob(id: string, changes: Updateable<ScheduledJobsTable>): Promise<void> {
    await this.db.updateTable('scheduled_jobs').set(changes).where('id', '=', id).execute();
  }

  async deleteJob(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('scheduled_jobs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Enabled jobs whose time has come and that no run holds. */
  due(now: string): Promise<ScheduledJobsTable[]> {
    return this.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('enabled', '=', 1)
      .where('running_run_id', 'is', null)
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .limit(DUE_BATCH)
      .execute();
  }

  /**
   * Takes a job for `runId` with one conditional UPDATE: only while no run holds it (and, for the
   * scheduler, while it is still enabled and due). False when another run or instance got there first.
   */
  async claim(
    id: string,
    runId: string,
    changes: Updateable<ScheduledJobsTable>,
    dueBy?: string,
  ): Promise<boolean> {
    let query = this.db
      .updateTable('scheduled_jobs')
      .set({ ...changes, running_run_id: runId })
      .where('id', '=', id)
      .where('running_run_id', 'is', null);
    if (dueBy !== undefined) query = query.where('enabled', '=', 1).where('next_run_at', '<=', dueBy);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Lets go of a job's claim, only when `runId` still holds it. */
  async release(id: string, runId: string, changes: Updateable<ScheduledJobsTable>): Promise<void> {
    await this.db
      .updateTable('scheduled_jobs')
      .set({ ...changes, running_run_id: null })
      .where('id', '=', id)
      .where('running_run_id', '=', runId)
      .execute();
  }

  async insertRun(row: ScheduledJobRunsTable): Promise<void> {
    await this.db.insertInto('scheduled_job_runs').values(row).execute();
  }

  async deleteRun(id: string): Promise<void> {
    await this.db.deleteFrom('scheduled_job_runs').where('id', '=', id).execute();
  }

  findRun(id: string): Promise<ScheduledJobRunsTable | undefined> {
    return this.db.selectFrom('scheduled_job_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A job's runs, newest first, `limit` of them started before `before` (a page's cursor). */
  runs(jobId: string, limit: number, before?: string): Promise<ScheduledJobRunsTable[]> {
    let query = this.db.selectFrom('scheduled_job_runs').selectAll().where('job_id', '=', jobId);
    if (before !== undefined) query = query.where('started_at', '<', before);
    return query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async updateRun(id: string, changes: Updateable<ScheduledJobRunsTable>): Promise<void> {
    await this.db.updateTable('scheduled_job_runs').set(changes).where('id', '=', id).execute();
  }

  runningRuns(): Promise<ScheduledJobRunsTable[]> {
    return this.db.selectFrom('scheduled_job_runs').selectAll().where('status', '=', 'running').execute();
  }

  /** Marks a run failed only while it is still running (a runner finishing meanwhile wins). */
  async failRunning(id: string, changes: Updateable<ScheduledJobRunsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduled_job_runs')
      .set({ ...changes, status: 'failed' })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Frees jobs held by a run that is no longer running (its process died between the steps). */
  async releaseStale(): Promise<number> {
    const result = await this.db
      .updateTable('scheduled_jobs')
      .set({ running_run_id: null })
      .where('running_run_id', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('scheduled_job_runs')
              .select('scheduled_job_runs.id')
              .whereRef('scheduled_job_runs.id', '=', 'scheduled_jobs.running_run_id')
              .where('scheduled_job_runs.status', '=', 'running'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
