/**
 * Mounts: a virtual path (`/photos`) that shows the root of one storage config (local disk or S3) in
 * the file explorer and over WebDAV. A config that mounts use cannot be deleted (RESTRICT); deleting
 * a mount never touches the objects behind it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('storage_config_id', 'text', (c) =>
      c.notNull().references('storage_configs.id').onDelete('restrict'),
    )
    .addColumn('mount_path', 'text', (c) => c.notNull().unique())
    .addColumn('remark', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cache_ttl', 'integer', (c) => c.notNull().defaultTo(300))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_used', 'text')
    .execute();
  await db.schema.createIndex('mounts_storage_config').on('mounts').column('storage_config_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mounts').execute();
}
