/**
 * What several instances on one database share (issue 15): failed-guess counters (used on
 * PostgreSQL; SQLite runs one instance and counts in memory) and the record of each periodic job's
 * runs (both dialects: one code path, and a count a test can read).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_counters')
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // Start of the fixed window, in ms since the epoch (the injected clock's).
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    // window_start + the rule's window: rows past it are pruned.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('attempt_counters_pk', ['rule', 'key', 'window_start'])
    .execute();
  await db.schema
    .createIndex('attempt_counters_expires')
    .on('attempt_counters')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_started_at', 'text', (c) => c.notNull())
    .addColumn('last_finished_at', 'text')
    .addColumn('runs', 'integer', (c) => c.notNull())
    .addColumn('instance', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_runs').execute();
  await db.schema.dropTable('attempt_counters').execute();
}
