/**
 * WebDAV state that every instance sharing the database must see (webdav/): dead properties set with
 * PROPPATCH, and write locks taken with LOCK. Both are keyed by canonical virtual path.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dav_properties')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('ns', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_properties_pk', ['path', 'ns', 'name'])
    .execute();
  await db.schema
    .createTable('dav_locks')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('depth', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('owner_xml', 'text', (c) => c.notNull())
    .addColumn('principal', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_locks_path').on('dav_locks').column('path').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dav_locks').execute();
  await db.schema.dropTable('dav_properties').execute();
}
