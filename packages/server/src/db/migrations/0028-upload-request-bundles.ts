/**
 * Upload requests into a new bundle (issue 24, docs/api.md "Upload requests"): such a request has no
 * folder (`target_path` is '') but the bundle it made, which each upload is appended to as a file
 * share of the request's owner (modules/upload-requests, modules/bundles).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  /** The bundle the uploads go into (a bundles.id), or null for a folder request. */
  await db.schema.alterTable('upload_requests').addColumn('bundle_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_requests').dropColumn('bundle_id').execute();
}
