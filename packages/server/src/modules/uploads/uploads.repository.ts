/**
 * SQL of the upload life cycle: pending file rows (inserted through FilesRepository, or here with
 * their `streamed_uploads` row; finished or dropped here, only while still pending), the ledger of
 * uploads streaming through a server process (`streamed_uploads`), and the multipart ledger: one
 * `upload_sessions` row per multipart upload the app started and the `upload_parts` confirmed so
 * far (deleted with it).
 */
import type { Kysely, Updateable } from 'kysely';
import type {
  Database,
  FilesTable,
  StreamedUploadsTable,
  UploadPartsTable,
  UploadSessionsTable,
} from '../../db/schema.ts';

/** A streamed upload with what freeing it needs. */
export type StreamedUpload = StreamedUploadsTable & Pick<FilesTable, 'storage_config_id' | 'storage_path'>;

class NotPending extends Error {}

export class UploadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Applies `changes` to a file only while it is pending; false when it is gone or already ready.
   * With `replacing`, that file's row is deleted in the same transaction (an override taking its slug).
   */
  async updatePending(id: string, changes: Updateable<FilesTable>, replacing?: string): Promise<boolean> {
    const update = async (db: Kysely<Database>) => {
      const result = await db
        .updateTable('files')
        .set(changes)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    };
    if (replacing === undefined) return update(this.db);
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('files').where('id', '=', replacing).execute();
        // Not pending any more: roll the deletion back.
        if (!(await update(trx))) throw new NotPending();
        return true;
      });
    } catch (error) {
      if (error instanceof NotPending) return false;
      throw error;
    }
  }

  /** Deletes a file row only while it is pending (its sessions go with it). */
  async deletePending(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('files')
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Inserts the pending file of an upload streaming through the process `owner`, with its ledger row. */
  async insertStreamed(row: FilesTable, owner: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('files').values(row).execute();
      await trx
        .insertInto('streamed_uploads')
        .values({ file_id: row.id, owner, heartbeat_at: row.created_at })
        .execute();
    });
  }

  async heartbeat(fileIds: string[], now: string): Promise<void> {
    if (fileIds.length === 0) return;
    await this.db
      .updateTable('streamed_uploads')
      .set({ heartbeat_at: now })
      .where('file_id', 'in', fileIds)
      .execute();
  }

  /** Takes a streamed upload off the ledger (its file finished; a dropped file takes it along). */
  async endStreamed(fileId: string): Promise<void> {
    await this.db.deleteFrom('streamed_uploads').where('file_id', '=', fileId).execute();
  }

  /** Streamed uploads whose file is still pending, the longest silent first. */
  streamedPending(limit: number): Promise<StreamedUpload[]> {
    return this.db
      .selectFrom('streamed_uploads')
      .innerJoin('files', 'files.id', 'streamed_uploads.file_id')
      .select([
        'streamed_uploads.file_id',
        'streamed_uploads.owner',
        'streamed_uploads.heartbeat_at',
        'files.storage_config_id',
        'files.storage_path',
      ])
      .where('files.status', '=', 'pending')
      .orderBy('streamed_uploads.heartbeat_at')
      .limit(limit)
      .execute();
  }

  /** Pending files last touched before `before` that no multipart session keeps alive, oldest first. */
  stalePending(before: string, limit: number): Promise<FilesTable[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('status', '=', 'pending')
      .where('updated_at', '<=', before)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('upload_sessions')
              .select('upload_sessions.id')
              .whereRef('upload_sessions.file_id', '=', 'files.id'),
          ),
        ),
      )
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  async insertSession(row: UploadSessionsTable): Promise<void> {
    await this.db.insertInto('upload_sessions').values(row).execute();
  }

  /** The session of a file's multipart upload with this driver upload id. */
  findSession(fileId: string, uploadId: string): Promise<UploadSessionsTable | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('file_id', '=', fileId)
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
  }

  /**
   * The driver upload ids of a storage config's sessions and tus uploads (modules/tus, which the tus
   * janitor ends at their expiry): the uploads the ledger knows.
   */
  async uploadIdsOf(configId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .select('upload_id')
      .where('storage_config_id', '=', configId)
      .union(this.db.selectFrom('tus_uploads').select('upload_id').where('storage_config_id', '=', configId))
      .execute();
    return new Set(rows.map((r) => r.upload_id));
  }

  sessionsOfFile(fileId: string): Promise<UploadSessionsTable[]> {
    return this.db.selectFrom('upload_sessions').selectAll().where('file_id', '=', fileId).execute();
  }

  async updateSession(id: string, changes: Updateable<UploadSessionsTable>): Promise<void> {
    await this.db.updateTable('upload_sessions').set(changes).where('id', '=', id).execute();
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.deleteFrom('upload_sessions').where('id', '=', id).execute();
  }

  /** Sessions nobody touched before their `expires_at`, oldest first. */
  expiredSessions(now: string, limit: number): Promise<UploadSessionsTable[]> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  parts(sessionId: string): Promise<UploadPartsTable[]> {
    return this.db
      .selectFrom('upload_parts')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('part_number')
      .execute();
  }

  /** Records a part, replacing an earlier record of the same number (a part uploaded again). */
  async upsertPart(row: UploadPartsTable): Promise<void> {
    await this.db
      .insertInto('upload_parts')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['session_id', 'part_number']).doUpdateSet({
          etag: row.etag,
          size: row.size,
          created_at: row.created_at,
        }),
      )
      .execute();
  }

  async deleteParts(sessionId: string, partNumbers: number[]): Promise<void> {
    if (partNumbers.length === 0) return;
    await this.db
      .deleteFrom('upload_parts')
      .where('session_id', '=', sessionId)
      .where('part_number', 'in', partNumbers)
      .execute();
  }
}
