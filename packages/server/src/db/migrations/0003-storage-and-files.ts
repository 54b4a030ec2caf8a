/**
 * Storage configs, file shares and the multipart ledger.
 *
 * - `storage_configs`: `driver` is 'local' or 's3'; `settings` is JSON of the driver's plain settings
 *   (endpoint, bucket, region, path style, default folder, custom host, root folder); `secrets` is the
 *   credentials as JSON sealed with AES-256-GCM under SECRET_KEY (lib/secret-box.ts). A partial unique
 *   index allows at most one default.
 * - `files`: one row per file share. `status` is 'pending' from presign/multipart init until the
 *   bytes are confirmed in storage ('ready'); only ready files are served. A config with files cannot
 *   be deleted (RESTRICT; the service answers 409 with the count first).
 * - `upload_sessions` / `upload_parts`: every multipart upload the app starts and the parts confirmed
 *   so far, so an interrupted upload resumes and an abandoned one is aborted by a job.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('provider_type', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_storage_bytes', 'bigint')
    .addColumn('signature_expires_in', 'integer', (c) => c.notNull().defaultTo(3600))
    .addColumn('admin_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_used', 'text')
    .execute();
  await sql`CREATE UNIQUE INDEX storage_configs_one_default ON storage_configs (is_default) WHERE is_default = 1`.execute(
    db,
  );

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('storage_config_id', 'text', (c) =>
      c.notNull().references('storage_configs.id').onDelete('restrict'),
    )
    .addColumn('storage_path', 'text', (c) => c.notNull())
    .addColumn('mimetype', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('etag', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ready'))
    .addColumn('remark', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('use_proxy', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_storage_config_id').on('files').column('storage_config_id').execute();
  await db.schema.createIndex('files_created_by').on('files').column('created_by').execute();
  await db.schema.createIndex('files_created_at').on('files').column('created_at').execute();
  await db.schema.createIndex('files_expires_at').on('files').column('expires_at').execute();

  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.references('files.id').onDelete('cascade'))
    .addColumn('storage_config_id', 'text', (c) =>
      c.notNull().references('storage_configs.id').onDelete('restrict'),
    )
    .addColumn('storage_path', 'text', (c) => c.notNull())
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('part_size', 'bigint', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('part_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_sessions_expires_at')
    .on('upload_sessions')
    .column('expires_at')
    .execute();
  await db.schema.createIndex('upload_sessions_file_id').on('upload_sessions').column('file_id').execute();

  await db.schema
    .createTable('upload_parts')
    .addColumn('session_id', 'text', (c) => c.notNull().references('upload_sessions.id').onDelete('cascade'))
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_parts_pk', ['session_id', 'part_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_parts').execute();
  await db.schema.dropTable('upload_sessions').execute();
  await db.schema.dropTable('files').execute();
  await db.schema.dropTable('storage_configs').execute();
}
