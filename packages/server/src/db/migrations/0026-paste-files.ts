/**
 * Gist-like pastes and revocable shares (docs/api.md, "Multi-file pastes", "Public pastes",
 * "Revoking a share"): a paste's title and whether it is listed on the public page; the named files
 * of a paste made of several (its `content` keeps the first file's text, so CloudPaste 0.6 clients
 * still read something sensible); and on pastes and file shares the time their owner revoked them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pastes').addColumn('title', 'text').execute();
  await db.schema
    .alterTable('pastes')
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('pastes').addColumn('revoked_at', 'text').execute();
  // How many rows it has in paste_files (0 for a paste of one unnamed text): a read of a plain paste
  // then never looks there.
  await db.schema
    .alterTable('pastes')
    .addColumn('file_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('files').addColumn('revoked_at', 'text').execute();
  // The public page lists the newest public pastes.
  await db.schema.createIndex('pastes_public').on('pastes').columns(['is_public', 'created_at']).execute();
  await db.schema
    .createTable('paste_files')
    .addColumn('paste_id', 'text', (c) => c.notNull().references('pastes.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('paste_files_pk', ['paste_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('paste_files').execute();
  await db.schema.dropIndex('pastes_public').execute();
  await db.schema.alterTable('files').dropColumn('revoked_at').execute();
  await db.schema.alterTable('pastes').dropColumn('file_count').execute();
  await db.schema.alterTable('pastes').dropColumn('revoked_at').execute();
  await db.schema.alterTable('pastes').dropColumn('is_public').execute();
  await db.schema.alterTable('pastes').dropColumn('title').execute();
}
