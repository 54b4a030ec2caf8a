/** SQL for API keys. */
import type { Kysely, Updateable } from 'kysely';
import type { ApiKeysTable, Database } from '../../db/schema.ts';

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<ApiKeysTable[]> {
    return this.db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc').orderBy('name').execute();
  }

  findById(id: string): Promise<ApiKeysTable | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<ApiKeysTable | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('name', '=', name).executeTakeFirst();
  }

  findLiveByHash(keyHash: string, now: string): Promise<ApiKeysTable | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async insert(row: ApiKeysTable): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  async update(id: string, changes: Updateable<ApiKeysTable>): Promise<boolean> {
    const result = await this.db.updateTable('api_keys').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Records use, at most once per `staleBefore` window: one conditional UPDATE, no read. */
  async touchLastUsed(id: string, now: string, staleBefore: string): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used', 'is', null), eb('last_used', '<', staleBefore)]))
      .execute();
  }
}
