/**
 * Copy and move tasks of the file system (fs-tasks module): what to copy, who asked, how far it got.
 * A task runs in the process that created it (`runner`, lib/process-tag.ts); one whose process is gone
 * is marked failed, never reported as done.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fs_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('skip_existing', 'integer', (c) => c.notNull())
    .addColumn('files_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('runner', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('fs_tasks_owner').on('fs_tasks').columns(['owner', 'created_at']).execute();
  await db.schema.createIndex('fs_tasks_status').on('fs_tasks').column('status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fs_tasks').execute();
}
