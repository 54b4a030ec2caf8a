/**
 * Upload requests (issue 24, docs/api.md "Upload requests"): a link strangers upload files INTO, a
 * folder of a mount chosen by its creator, under limits counted here exactly (files and bytes
 * reserved by one conditional UPDATE each, modules/upload-requests/).
 *
 * The link's token is never stored: it is derived from the request's id with the server secret
 * (HMAC), so its owner can copy the link again, and only its SHA-256 (`token_hash`) is kept, which
 * the public routes look it up by. A database read alone gives no working link.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    /** The virtual path of the folder the files go into. */
    .addColumn('target_path', 'text', (c) => c.notNull())
    /** 1: each upload (a batch of files sent together) gets its own subfolder. */
    .addColumn('per_upload_subfolder', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    /** 0: no limit (for each of the three). */
    .addColumn('max_files', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_file_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('max_total_size', 'bigint', (c) => c.notNull().defaultTo(0))
    /** A JSON array of extensions (`.pdf`) and MIME patterns (`image/*`); `[]` takes any type. */
    .addColumn('allowed_types', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('message', 'text')
    /** 1: uploaders see the names and sizes already sent. */
    .addColumn('show_uploads', 'integer', (c) => c.notNull().defaultTo(0))
    /** Files and bytes received or being received (reserved while they stream). */
    .addColumn('files_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', 'text')
    /** Whose rights the uploads are written with: a person's id or `apikey:<id>`. */
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_requests_owner').on('upload_requests').column('owner_id').execute();
  await db.schema
    .createIndex('upload_requests_created_by')
    .on('upload_requests')
    .column('created_by')
    .execute();

  await db.schema
    .createTable('upload_request_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('upload_requests.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** Where the file went; unique per request, so two uploads never pick the same free name. */
    .addColumn('virtual_path', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    /** An HMAC of the uploader's address (never the address), or null. */
    .addColumn('uploader_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    /** `uploading` while its bytes stream, then `done`; a failed upload leaves no row. */
    .addColumn('status', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_request_files_path')
    .on('upload_request_files')
    .columns(['request_id', 'virtual_path'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_request_files').execute();
  await db.schema.dropTable('upload_requests').execute();
}
