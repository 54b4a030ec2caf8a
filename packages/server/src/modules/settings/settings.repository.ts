/** SQL for the key-value settings table. */
import type { Kysely } from 'kysely';
import type { Database, SettingsTable } from '../../db/schema.ts';

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  all(): Promise<SettingsTable[]> {
    return this.db.selectFrom('settings').selectAll().orderBy('key').execute();
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())
      ?.value;
  }

  async set(key: string, value: string, now: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
      .execute();
  }
}
