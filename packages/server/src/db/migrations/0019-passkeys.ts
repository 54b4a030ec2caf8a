/**
 * Passkeys (WebAuthn; docs/accounts.md "Passkeys"): each person's registered credentials — the
 * public key only, its sign counter, and the name they gave it — and the ceremonies under way: a
 * challenge kept server-side for five minutes and taken once, so any instance can finish what
 * another began.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** Base64url, as the browser names the credential. */
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    /** The COSE public key, base64url. */
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    /** A JSON array of transports (`internal`, `usb`, `hybrid`…), hints for the browser. */
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    /** `singleDevice` or `multiDevice` (synced). */
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('passkey_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** `register` or `login`. */
    .addColumn('purpose', 'text', (c) => c.notNull())
    /** Who registers; null for a sign-in (the credential says who). */
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('challenge', 'text', (c) => c.notNull())
    /** The origin the ceremony runs at (its host is the RP ID). */
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('passkey_challenges_expires')
    .on('passkey_challenges')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
