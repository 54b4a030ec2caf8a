/**
 * How a mount's downloads leave (issue 25, docs/storage.md "Download links"): through this server
 * (`proxy`, the default, what every mount did through WebDAV), straight from the storage where it
 * can sign a URL (`direct`), or from a public address in front of the mount's folder (`custom_host`,
 * with `custom_host` holding that address).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mounts')
    .addColumn('link_policy', 'text', (col) => col.notNull().defaultTo('proxy'))
    .execute();
  await db.schema.alterTable('mounts').addColumn('custom_host', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mounts').dropColumn('custom_host').execute();
  await db.schema.alterTable('mounts').dropColumn('link_policy').execute();
}
