/**
 * Indexes for the admin dashboard: ready files per storage config with their sizes, read from the
 * index alone (counts and storage used stay fast on large instances).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('files_status_config_size')
    .on('files')
    .columns(['status', 'storage_config_id', 'size'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_status_config_size').execute();
}
