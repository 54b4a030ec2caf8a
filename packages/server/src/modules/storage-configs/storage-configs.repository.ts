/** SQL for storage configs. */
import type { Kysely, Updateable } from 'kysely';
import type { Database, StorageConfigsTable } from '../../db/schema.ts';

export class StorageConfigsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(options: { publicOnly?: boolean } = {}): Promise<StorageConfigsTable[]> {
    let query = this.db.selectFrom('storage_configs').selectAll();
    if (options.publicOnly) query = query.where('is_public', '=', 1);
    return query.orderBy('name').orderBy('created_at').execute();
  }

  findById(id: string): Promise<StorageConfigsTable | undefined> {
    return this.db.selectFrom('storage_configs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findDefault(): Promise<StorageConfigsTable | undefined> {
    return this.db.selectFrom('storage_configs').selectAll().where('is_default', '=', 1).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('storage_configs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: StorageConfigsTable): Promise<void> {
    await this.db.insertInto('storage_configs').values(row).execute();
  }

  async update(id: string, changes: Updateable<StorageConfigsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('storage_configs')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Makes `id` the one default, in one transaction (the partial unique index forbids two). */
  async setDefault(id: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const target = await trx
        .selectFrom('storage_configs')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!target) return false;
      await trx.updateTable('storage_configs').set({ is_default: 0 }).where('is_default', '=', 1).execute();
      await trx
        .updateTable('storage_configs')
        .set({ is_default: 1, updated_at: now })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('storage_configs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Bytes of the file shares kept on a config (pending uploads count with their declared size). */
  async usedBytes(id: string): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('used'))
      .where('storage_config_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.used);
  }

  async fileCount(id: string): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storage_config_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
