/**
 * Folder rules (CloudPaste's `fs_meta`; docs/architecture.md, "Folder rules"): per virtual folder
 * path a README above and below the listing, hide patterns (a JSON list of globs) and a password
 * (its hash only), each with whether it applies to the folders below too.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fs_meta')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** A canonical virtual path (shared normalizeFsPath), one rule per folder. */
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('header_markdown', 'text')
    .addColumn('header_inherit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('footer_markdown', 'text')
    .addColumn('footer_inherit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_patterns', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('hide_inherit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('password_inherit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fs_meta').execute();
}
