/** SQL for upload requests and the files they received (migration 0023). */
import { type Kysely, sql, type Updateable } from 'kysely';
import type { Database, UploadRequestFilesTable, UploadRequestsTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Whose } from '../shares/share-rules.ts';

/** Most uploads one request lists (its owner's view and the uploader's), newest first. */
export const FILES_LIST_MAX = 1000;

export class UploadRequestsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: UploadRequestsTable): Promise<void> {
    await this.db.insertInto('upload_requests').values(row).execute();
  }

  findByTokenHash(tokenHash: string): Promise<UploadRequestsTable | undefined> {
    return this.db
      .selectFrom('upload_requests')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  findById(id: string): Promise<UploadRequestsTable | undefined> {
    return this.db.selectFrom('upload_requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every request, or those of `whose`, newest first. */
  list(whose: Whose | undefined): Promise<UploadRequestsTable[]> {
    let query = this.db.selectFrom('upload_requests').selectAll();
    if (whose) query = query.where(whose.column, '=', whose.value);
    return query.orderBy('created_at', 'desc').orderBy('id').execute();
  }

  async update(id: string, changes: Updateable<UploadRequestsTable>): Promise<void> {
    await this.db.updateTable('upload_requests').set(changes).where('id', '=', id).execute();
  }

  /**
   * Takes `files` file slots and `bytes` bytes of a live request in one statement, only when they
   * fit its limits (0: none) — exact however many uploads race, as the database serialises the
   * updates of one row and checks the condition on the row as it is then. False when they do not fit.
   */
  async reserve(id: string, files: number, bytes: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_requests')
      .set({
        files_count: sql`files_count + ${files}`,
        bytes_total: sql`bytes_total + ${bytes}`,
      })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) =>
        eb.or([eb('max_files', '=', 0), eb(sql<number>`files_count + ${files}`, '<=', eb.ref('max_files'))]),
      )
      .where((eb) =>
        eb.or([
          eb('max_total_size', '=', 0),
          eb(sql<number>`bytes_total + ${bytes}`, '<=', eb.ref('max_total_size')),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Gives back what {@link reserve} took (an upload that failed, or bytes it did not need); a
   * negative `bytes` counts bytes no limit held back.
   */
  async release(id: string, files: number, bytes: number): Promise<void> {
    if (files === 0 && bytes === 0) return;
    await this.db
      .updateTable('upload_requests')
      .set({
        files_count: sql`files_count - ${files}`,
        bytes_total: sql`bytes_total - ${bytes}`,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Claims `virtualPath` for an upload of the request; false when another upload holds it. */
  async claimPath(row: UploadRequestFilesTable): Promise<boolean> {
    try {
      await this.db.insertInto('upload_request_files').values(row).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async finishFile(id: string, size: number): Promise<void> {
    await this.db
      .updateTable('upload_request_files')
      .set({ status: 'done', size })
      .where('id', '=', id)
      .execute();
  }

  findFile(id: string): Promise<UploadRequestFilesTable | undefined> {
    return this.db.selectFrom('upload_request_files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async dropFile(id: string): Promise<void> {
    await this.db.deleteFrom('upload_request_files').where('id', '=', id).execute();
  }

  /** The files a request received (finished ones), newest first. */
  files(requestId: string): Promise<UploadRequestFilesTable[]> {
    return this.db
      .selectFrom('upload_request_files')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('status', '=', 'done')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(FILES_LIST_MAX)
      .execute();
  }
}
