/**
 * Bundles (docs/api.md "Bundles"): one link for several files and texts. A bundle has the settings of
 * a share (password, expiry, view limit) and is revoked, not deleted, so its link answers 410 at once
 * and for good. Its items name what they show: a file share or a paste by id, or a file of a mount by
 * its path (read with the creator's rights, checked again at every read).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bundles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bundles_owner_id').on('bundles').column('owner_id').execute();
  await db.schema.createIndex('bundles_created_by').on('bundles').column('created_by').execute();
  await db.schema
    .createTable('bundle_items')
    .addColumn('bundle_id', 'text', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    /** 'file' (a file share's id), 'paste' (a paste's id) or 'mount' (a virtual path). */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    /** The name shown (and given in the zip). */
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bundle_items_pk', ['bundle_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bundle_items').execute();
  await db.schema.dropTable('bundles').execute();
}
