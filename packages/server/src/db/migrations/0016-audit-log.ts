/**
 * The audit log (modules/audit/, docs/security.md "Audit log"): one row per security-relevant
 * request — who, when, from which address, what, on what, and how it ended. Rows are only ever
 * added; the retention job is the one thing that deletes them. `details` is small JSON and never
 * holds a password, token, key or hash.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    /** The account or key name; for a failed sign-in, the name that was tried. */
    .addColumn('actor_name', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('details', 'text')
    .execute();
  // Newest first (id orders entries of the same millisecond): pages and the export walk these
  // indexes instead of sorting the log; the purge of old entries; the action filter.
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema
    .createIndex('audit_log_action_at')
    .on('audit_log')
    .columns(['action', 'at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
