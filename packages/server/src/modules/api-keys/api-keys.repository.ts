/** SQL for API keys. */
import type { Kysely, Updateable } from 'kysely';
import type { ApiKeysTable, Database } from '../../db/schema.ts';
import { touchLastUsed } from '../../db/touch.ts';

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every key, or only those `ownerId` owns, with the owner's name. */
  list(ownerId?: string): Promise<(ApiKeysTable & { owner_name: string | null })[]> {
    let query = this.db
      .selectFrom('api_keys')
      .leftJoin('users', 'users.id', 'api_keys.owner_id')
      .selectAll('api_keys')
      .select('users.username as owner_name');
    if (ownerId !== undefined) query = query.where('api_keys.owner_id', '=', ownerId);
    return query.orderBy('api_keys.created_at', 'desc').orderBy('api_keys.name').execute();
  }

  findById(id: string, ownerId?: string): Promise<ApiKeysTable | undefined> {
    let query = this.db.selectFrom('api_keys').selectAll().where('id', '=', id);
    if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId);
    return query.executeTakeFirst();
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

  /** Records use, at most once per `staleBefore` window. */
  touchLastUsed(id: string, now: string, staleBefore: string): Promise<void> {
    return touchLastUsed(this.db, { table: 'api_keys', column: 'last_used', id }, { now, staleBefore });
  }
}
