/**
 * Signing in against an LDAP directory (docs/accounts.md, "LDAP"): the one directory an admin
 * configures (its service account's password sealed with SECRET_KEY), and on each person the DN of
 * the directory entry their password lives in — null for a password kept here.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ldap_config')
    /** Always 'default': one directory. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('start_tls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bind_dn', 'text', (c) => c.notNull().defaultTo(''))
    /** Sealed (lib/secret-box.ts, the row's id as associated data), or null for an anonymous search. */
    .addColumn('bind_password', 'text')
    .addColumn('user_base', 'text', (c) => c.notNull())
    .addColumn('user_filter', 'text', (c) => c.notNull())
    .addColumn('email_attribute', 'text', (c) => c.notNull())
    .addColumn('admin_group', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('allow_signup', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('users').addColumn('ldap_dn', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('ldap_dn').execute();
  await db.schema.dropTable('ldap_config').execute();
}
