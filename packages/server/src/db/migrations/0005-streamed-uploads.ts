/**
 * The ledger of uploads streamed through a server process (form upload, upload-direct): one row
 * per upload in progress, naming the process (lib/process-tag.ts) and its latest heartbeat. Such an
 * upload can only finish in that process, so once the process is gone (or its heartbeat has
 * stopped) its pending file, and with it the slug it holds, is freed at once instead of after the
 * 24 hours a presigned upload gets. Deleting the file deletes its row.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('streamed_uploads')
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('streamed_uploads').execute();
}
