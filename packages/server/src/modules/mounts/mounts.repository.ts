/** SQL for mounts. */
import type { Kysely, Updateable } from 'kysely';
import type { Database, MountsTable, StorageConfigsTable } from '../../db/schema.ts';

/** A mount with what the answers show of its storage config (what it really is, and its name). */
export interface MountWithStorage extends MountsTable {
  storage_driver: StorageConfigsTable['driver'];
  storage_config_name: string;
}

export class MountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withStorage() {
    return this.db
      .selectFrom('mounts')
      .innerJoin('storage_configs', 'storage_configs.id', 'mounts.storage_config_id')
      .selectAll('mounts')
      .select(['storage_configs.driver as storage_driver', 'storage_configs.name as storage_config_name']);
  }

  /** {@link list} with each mount's storage config. */
  listWithStorage(options: { activeOnly?: boolean } = {}): Promise<MountWithStorage[]> {
    let query = this.withStorage();
    if (options.activeOnly) query = query.where('mounts.is_active', '=', 1);
    return query.orderBy('mounts.sort_order').orderBy('mounts.name').orderBy('mounts.mount_path').execute();
  }

  findWithStorage(id: string): Promise<MountWithStorage | undefined> {
    return this.withStorage().where('mounts.id', '=', id).executeTakeFirst();
  }

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
