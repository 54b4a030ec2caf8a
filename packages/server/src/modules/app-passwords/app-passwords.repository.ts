/** SQL for app passwords (docs/accounts.md). */
import type { Kysely } from 'kysely';
import type { AppPasswordsTable, Database } from '../../db/schema.ts';
import { touchLastUsed } from '../../db/touch.ts';

export class AppPasswordsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOf(userId: string): Promise<AppPasswordsTable[]> {
    return this.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(500)
      .execute();
  }

  countOf(userId: string): Promise<number> {
    return this.db
      .selectFrom('app_passwords')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  findByHash(secretHash: string): Promise<AppPasswordsTable | undefined> {
    return this.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('secret_hash', '=', secretHash)
      .executeTakeFirst();
  }

  async insert(row: AppPasswordsTable): Promise<void> {
    await this.db.insertInto('app_passwords').values(row).execute();
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('app_passwords')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Records use, at most once per `staleBefore` window. */
  touch(id: string, now: string, staleBefore: string): Promise<void> {
    return touchLastUsed(this.db, { table: 'app_passwords', column: 'last_used', id }, { now, staleBefore });
  }
}
