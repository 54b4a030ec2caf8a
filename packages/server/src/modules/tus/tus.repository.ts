/** SQL of tus uploads (`tus_uploads`, migration 0024): one row per upload a tus client created. */
import type { Kysely, Updateable } from 'kysely';
import type { Database, TusUploadsTable } from '../../db/schema.ts';

export class TusRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: TusUploadsTable): Promise<void> {
    await this.db.insertInto('tus_uploads').values(row).execute();
  }

  find(id: string): Promise<TusUploadsTable | undefined> {
    return this.db.selectFrom('tus_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Records progress only while the row still holds `from` bytes: another instance that took the
   * upload on meanwhile wins (false).
   */
  async update(id: string, from: number, changes: Updateable<TusUploadsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('tus_uploads')
      .set(changes)
      .where('id', '=', id)
      .where('upload_offset', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('tus_uploads').where('id', '=', id).execute();
  }

  /** Uploads past their expiry, oldest first. */
  expired(now: string, limit: number): Promise<TusUploadsTable[]> {
    return this.db
      .selectFrom('tus_uploads')
      .selectAll()
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }
}
