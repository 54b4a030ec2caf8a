/**
 * A mount's creator as CloudPaste records it: the admin's id, bare (`<adminId>`). Mounts were
 * stored as `admin:<id>`, which CloudPaste's client shows verbatim ("Created By: admin:<uuid>")
 * because it takes a bare id that is no API key's for an admin.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update mounts set created_by = substr(created_by, 7) where created_by like 'admin:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update mounts set created_by = 'admin:' || created_by
    where created_by is not null and created_by not like 'apikey:%'`.execute(db);
}
