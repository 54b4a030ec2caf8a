/** SQL for mounts. */
import type { Kysely, Updateable } from 'kysely';
import type { Database, MountsTable } from '../../db/schema.ts';

export class MountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every mount, in the order lists show them: sort order, then name. */
  list(options: { activeOnly?: boolean } = {}): Promise<MountsTable[]> {
    let query = this.db.selectFrom('mounts').selectAll();
    if (options.activeOnly) query = query.where('is_active', '=', 1);
    return query.orderBy('sort_order').orderBy('name').orderBy('mount_path').execute();
  }

  findById(id: string): Promise<MountsTable | undefined> {
    return this.db.selectFrom('mounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByPath(mountPath: string): Promise<MountsTable | undefined> {
    return this.db.selectFrom('mounts').selectAll().where('mount_path', '=', mountPath).executeTakeFirst();
  }

  /** Names and paths of the mounts on a storage config (why it cannot be deleted). */
  usingConfig(storageConfigId: string): Promise<Array<Pick<MountsTable, 'id' | 'name' | 'mount_path'>>> {
    return this.db
      .selectFrom('mounts')
      .select(['id', 'name', 'mount_path'])
      .where('storage_config_id', '=', storageConfigId)
      .orderBy('mount_path')
      .execute();
  }

  async insert(row: MountsTable): Promise<void> {
    await this.db.insertInto('mounts').values(row).execute();
  }

  async update(id: string, changes: Updateable<MountsTable>): Promise<boolean> {
    const result = await this.db.updateTable('mounts').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('mounts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Records a use (a listing inside the mount); at most one write per mount and minute is enough. */
  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('mounts').set({ last_used: at }).where('id', '=', id).execute();
  }
}
