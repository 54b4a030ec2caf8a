/**
 * Scheduled sync (modules/scheduled-sync): admin jobs that copy one folder to another on a schedule,
 * and the record of each run. A job's `running_run_id` is its claim: a run starts only by setting it
 * from null with one conditional UPDATE, so a job never runs twice at once across instances.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source_path', 'text', (c) => c.notNull())
    .addColumn('target_path', 'text', (c) => c.notNull())
    /** 'interval' or 'cron'. */
    .addColumn('schedule_type', 'text', (c) => c.notNull())
    .addColumn('interval_sec', 'integer')
    .addColumn('cron_expression', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('delete_extra', 'integer', (c) => c.notNull())
    /** The admin the runs act as: who saved the job last. */
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('owner_name', 'text', (c) => c.notNull())
    .addColumn('next_run_at', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_run_status', 'text')
    .addColumn('running_run_id', 'text')
    .addColumn('run_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scheduled_jobs_due')
    .on('scheduled_jobs')
    .columns(['enabled', 'next_run_at'])
    .execute();
  await db.schema
    .createTable('scheduled_job_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull().references('scheduled_jobs.id').onDelete('cascade'))
    /** 'schedule' or 'manual'. */
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull())
    /** 'running', 'success', 'failed' or 'cancelled'. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('copied', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    /** JSON: {created, updated, deleted} lists of virtual paths, capped. */
    .addColumn('changes', 'text', (c) => c.notNull())
    /** JSON: [{path, message}], capped; a message is a message key (with its parameters). */
    .addColumn('errors', 'text', (c) => c.notNull())
    /** The process running it (lib/process-tag.ts). */
    .addColumn('runner', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    /** Moves while the run goes on: a run silent for long is taken for dead. */
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('scheduled_job_runs_by_job')
    .on('scheduled_job_runs')
    .columns(['job_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('scheduled_job_runs_status')
    .on('scheduled_job_runs')
    .column('status')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scheduled_job_runs').execute();
  await db.schema.dropTable('scheduled_jobs').execute();
}
