/**
 * What each storage config holds, for its quota on every door (vfs/quota.ts,
 * docs/architecture.md "Quota"): the bytes counted in it, kept up to date by the storage change
 * events and recounted from the storage when a change's size is not known (`stale`); and the
 * reservations of writes under way (an upload's declared size, an unfinished multipart upload's
 * parts), each with an expiry so an abandoned one stops counting.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_usage')
    .addColumn('storage_config_id', 'text', (c) => c.primaryKey())
    .addColumn('used_bytes', 'bigint', (c) => c.notNull())
    .addColumn('stale', 'integer', (c) => c.notNull().defaultTo(0))
    /** Bumped by every change, so a recount that ran meanwhile does not overwrite it. */
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('storage_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('storage_config_id', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    /** Bytes received so far (the parts of a multipart upload); the reservation grows to cover them. */
    .addColumn('received', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('storage_reservations_config')
    .on('storage_reservations')
    .columns(['storage_config_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_reservations').execute();
  await db.schema.dropTable('storage_usage').execute();
}
