/**
 * Where a file share came from (issue 21): `source` = 'mount_upload' for the share an upload into a
 * mount published (explorer, fs API, WebDAV), 'share' for every other one (the upload page, URL
 * uploads, upload-direct, the explorer's "Share…"), so file management can show or hide the former.
 *
 * Rows from before are classified by what only the upload page's routes write: a storage key of
 * the shape `…/<yyyy>/<mm>/<12-character id>-<name>` (or `…/<id>/<name>`), built by
 * modules/uploads/storage-key.ts since the first version. A row whose object belongs to the share
 * is a mount upload when its key has any other shape, or when its slug is CloudPaste's `M-…`. A
 * mount upload's file belongs to the mount, so it is also marked `keep_object`: deleting the share
 * in file management no longer deletes the mount's file (were a share-page upload ever taken for
 * one, its object would outlive its share — kept, never lost). The rows are read a page at a
 * time (ids and keys only), so the migration's memory stays flat.
 */
import { type Kysely, sql } from 'kysely';

const SHARE_UPLOAD_KEY = /\/\d{4}\/\d{2}\/[a-z0-9]{12}[-/][^/]+$/;
const PAGE = 1000;

interface Row {
  id: string;
  slug: string;
  storage_path: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('files')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('share'))
    .execute();
  await db.schema
    .createIndex('files_source_created_at')
    .on('files')
    .columns(['source', 'created_at'])
    .execute();
  for (let after = ''; ;) {
    const { rows } = await sql<Row>`select id, slug, storage_path from files
      where keep_object = 0 and id > ${after} order by id limit ${PAGE}`.execute(db);
    if (rows.length === 0) break;
    const uploads = rows
      .filter((row) => row.slug.startsWith('M-') || !SHARE_UPLOAD_KEY.test(row.storage_path))
      .map((row) => row.id);
    if (uploads.length > 0) {
      await sql`update files set source = 'mount_upload', keep_object = 1
        where id in (${sql.join(uploads)})`.execute(db);
    }
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_source_created_at').execute();
  await db.schema.alterTable('files').dropColumn('source').execute();
}
