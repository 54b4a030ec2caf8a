/**
 * Single sign-on with OpenID Connect (docs/accounts.md, "Single sign-on"): the providers an admin
 * configures (the client secret sealed under SECRET_KEY), which person each provider's subject is,
 * and the sign-ins under way — state, nonce and PKCE verifier kept server-side, one use each, so
 * any instance can finish a sign-in another began.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    /** Sealed (lib/secret-box.ts, the provider's id as associated data), or null for a public client. */
    .addColumn('client_secret', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('allow_signup', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('link_by_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('role_claim', 'text')
    /** A JSON array of the claim values that make an admin. */
    .addColumn('admin_values', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oidc_identities')
    .addColumn('provider_id', 'text', (c) => c.notNull().references('oidc_providers.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_login_at', 'text')
    .addPrimaryKeyConstraint('oidc_identities_pk', ['provider_id', 'subject'])
    .execute();
  await db.schema.createIndex('oidc_identities_user').on('oidc_identities').column('user_id').execute();

  await db.schema
    .createTable('oidc_logins')
    /** SHA-256 of the `state` sent to the provider. */
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull().references('oidc_providers.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_logins_expires').on('oidc_logins').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_logins').execute();
  await db.schema.dropTable('oidc_identities').execute();
  await db.schema.dropTable('oidc_providers').execute();
}
