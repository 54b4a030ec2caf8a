/**
 * SQL for folder shares (migration 0022): rows, the one-statement visit count, the owner's list, and
 * following the folder when it moves or goes (folder-shares.upkeep.ts).
 */
import { type Kysely, type Updateable, sql } from 'kysely';
import { movePlaceRows, pathBelow } from '../../db/path-below.ts';
import type { Database, FolderSharesTable } from '../../db/schema.ts';
import type { Place } from '../../vfs/changes.ts';
import type { Whose } from '../shares/share-rules.ts';

/** Most shares one management list answers. */
export const FOLDER_SHARES_LIST_MAX = 500;

export class FolderSharesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: FolderSharesTable): Promise<void> {
    await this.db.insertInto('folder_shares').values(row).execute();
  }

  findBySlug(slug: string): Promise<FolderSharesTable | undefined> {
    return this.db.selectFrom('folder_shares').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  findById(id: string): Promise<FolderSharesTable | undefined> {
    return this.db.selectFrom('folder_shares').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async slugExists(slug: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('folder_shares')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Newest first; `whose` narrows to one owner's or creator's (undefined: every share). */
  list(whose: Whose | undefined): Promise<FolderSharesTable[]> {
    let query = this.db.selectFrom('folder_shares').selectAll();
    if (whose) query = query.where(whose.column, '=', whose.value);
    return query.orderBy('created_at', 'desc').orderBy('id').limit(FOLDER_SHARES_LIST_MAX).execute();
  }

  async update(id: string, changes: Updateable<FolderSharesTable>): Promise<void> {
    await this.db.updateTable('folder_shares').set(changes).where('id', '=', id).execute();
  }

  /**
   * Counts one visit in one statement, only while the share is live (not revoked, its folder not
   * gone, not expired at `now`, under its view limit): exactly `max_views` visits are counted however
   * many arrive at once. False when none was.
   */
  async countVisit(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('folder_shares')
      .set({ views: sql<number>`views + 1` })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('folder_gone_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The shares of `from` (the folder, or a folder above it) now name the folder under `to`. */
  moveUnder(from: Place, to: Place): Promise<void> {
    return movePlaceRows(this.db, 'folder_shares', from, to);
  }

  /** The shares of the folder at `at`, or of a folder below it, say their folder is gone. */
  async markGone(at: Place, now: string): Promise<void> {
    await this.db
      .updateTable('folder_shares')
      .set({ folder_gone_at: now, updated_at: now })
      .where('storage_config_id', '=', at.configId)
      .where('folder_gone_at', 'is', null)
      .where((eb) => eb.or([eb('storage_path', '=', at.path), pathBelow('storage_path', at.path)]))
      .execute();
  }
}
