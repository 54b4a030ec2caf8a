/**
 * Notifications (docs/api.md "Notifications"): outgoing webhooks (their signing secret sealed with
 * SECRET_KEY, lib/secret-box.ts, the webhook's id as associated data), the delivery log the retry
 * job works from, and which once-only notices a share has had (expiring soon, expired). SMTP
 * settings are rows of `settings` (the password sealed), so they need no table.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    /** JSON array of event names. */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    /** The JSON body sent, byte for byte on every attempt. */
    .addColumn('payload', 'text', (c) => c.notNull())
    /** 'pending' (an attempt is due at next_attempt_at), 'delivered' or 'failed' (gave up). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_by_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('share_notices')
    /** 'paste' or 'file'. */
    .addColumn('share_kind', 'text', (c) => c.notNull())
    .addColumn('share_id', 'text', (c) => c.notNull())
    /** 'expiring' or 'expired'. */
    .addColumn('notice', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_notices_pk', ['share_kind', 'share_id', 'notice'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('share_notices').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
