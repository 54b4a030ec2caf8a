/**
 * Resumable uploads by the tus 1.0 protocol (docs/architecture.md, "Uploads"): one row per upload
 * a tus client created at `/api/tus/`, everything an instance needs to take it up again after a
 * restart — who made it, where it goes (`target_kind` + `target`, JSON), its declared length, the
 * bytes received (`upload_offset`), the storage multipart upload its whole parts went to and those
 * parts (JSON, in order). Bytes of the part under way wait in a temp file of the instance that
 * received them (docs/architecture.md explains why only whole parts are counted everywhere).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tus_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** creatorId of the principal that created it (docs/compatibility.md §2), null for a link's uploader. */
    .addColumn('created_by', 'text')
    .addColumn('owner_id', 'text')
    /** 'path' (a mount path) or 'share' (a new file share); later targets add their own kinds. */
    .addColumn('target_kind', 'text', (c) => c.notNull())
    /** What the target needs to finish (JSON): the virtual path, the pending file's id… */
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('upload_length', 'bigint', (c) => c.notNull())
    .addColumn('upload_offset', 'bigint', (c) => c.notNull().defaultTo(0))
    /** The Upload-Metadata header as the client sent it (answered again on HEAD). */
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('storage_config_id', 'text', (c) => c.notNull())
    .addColumn('storage_path', 'text', (c) => c.notNull())
    /** The storage's multipart upload id. */
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('part_size', 'bigint', (c) => c.notNull())
    /** The parts stored so far (JSON `[{partNumber, etag, size}]`, ascending). */
    .addColumn('parts', 'text', (c) => c.notNull().defaultTo('[]'))
    /** Set once the file is at its target: HEAD then answers the full length. */
    .addColumn('completed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tus_uploads_expires').on('tus_uploads').column('expires_at').execute();
  await db.schema.createIndex('tus_uploads_config').on('tus_uploads').column('storage_config_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tus_uploads').execute();
}
