/**
 * File shares made from a file that already lives in a mount (the explorer's "Share…"): the file
 * belongs to the mount, not to the share, so when such a share expires, is used up or is deleted the
 * object stays. `keep_object` = 1 marks them; every other share owns its object as before.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('files')
    .addColumn('keep_object', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').dropColumn('keep_object').execute();
}
