/**
 * Grants to deliver a file share's bytes that have already been counted as a view.
 *
 * - A signed share token (from the share's info or password check) is recorded here by its nonce on
 *   the request that counts its view, in the same transaction as the count; later requests with the
 *   same token (a player's Range requests) find the nonce and are not counted again.
 * - A direct-mode download (302 to a presigned URL) records a grant that lasts as long as the URL.
 * A used-up share is deleted only once no grant is live, so a delivery already allowed is never cut
 * off. Expired rows are removed by the purge job; deleting a share deletes its rows.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_view_tokens')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('file_view_tokens_file_id')
    .on('file_view_tokens')
    .columns(['file_id', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('file_view_tokens_expires_at')
    .on('file_view_tokens')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_view_tokens').execute();
}
