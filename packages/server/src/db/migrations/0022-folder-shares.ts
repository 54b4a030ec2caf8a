/**
 * Folder shares (issue 24, docs/api.md "Folder shares"): a read-only link to a folder of a mount.
 * The folder is held as a storage config and a driver path, as file shares hold their file, so the
 * link follows the folder when any door moves it (modules/folder-shares/folder-shares.upkeep.ts);
 * `virtual_path` is only what it was made from, for display.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('folder_shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    // A storage config's shares go with it.
    .addColumn('storage_config_id', 'text', (c) =>
      c.notNull().references('storage_configs.id').onDelete('cascade'),
    )
    .addColumn('storage_path', 'text', (c) => c.notNull())
    .addColumn('virtual_path', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('remark', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'text')
    /** When the folder was deleted (the link then says so, and a folder made again later is not shown). */
    .addColumn('folder_gone_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('folder_shares_place')
    .on('folder_shares')
    .columns(['storage_config_id', 'storage_path'])
    .execute();
  await db.schema.createIndex('folder_shares_owner_id').on('folder_shares').column('owner_id').execute();
  await db.schema.createIndex('folder_shares_created_by').on('folder_shares').column('created_by').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('folder_shares').execute();
}
