/** SQL for storage configs. */
import { type Kysely, PostgresAdapter, sql, type Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Database, StorageConfigsTable } from '../../db/schema.ts';

/** A FOREIGN KEY failure from SQLite or PostgreSQL (a RESTRICT reference still holds the row). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return (
    e?.code === '23503' ||
    e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    /FOREIGN KEY constraint/.test(e?.message ?? '')
  );
}

/** PostgreSQL advisory lock key that serialises set-default transactions ("cubd"). */
const SET_DEFAULT_LOCK = 0x63756264;
/** Attempts of a set-default transaction that lost a race against another one. */
const SET_DEFAULT_ATTEMPTS = 10;

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

  /**
   * Inserts a config, made the default when there is none (no config exists yet). Two such configs
   * created at once cannot both be default (the partial unique index); the second is then inserted
   * plainly.
   */
  async insertFirstAsDefault(row: StorageConfigsTable): Promise<StorageConfigsTable> {
    if (!(await this.findDefault())) {
      try {
        await this.insert({ ...row, is_default: 1 });
        return { ...row, is_default: 1 };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    await this.insert({ ...row, is_default: 0 });
    return { ...row, is_default: 0 };
  }

  /** Notes a use (a test, an upload) without touching `updated_at`, so cached drivers stay valid. */
  async touchLastUsed(id: string, now: string): Promise<void> {
    await this.db.updateTable('storage_configs').set({ last_used: now }).where('id', '=', id).execute();
  }

  async update(id: string, changes: Updateable<StorageConfigsTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('storage_configs')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Makes `id` the one default, in one transaction (the partial unique index forbids two).
   * Concurrent calls are serialised: on PostgreSQL each takes one transaction-scoped advisory lock
   * first, so the next waits for the one before to commit and then sees its default (without it,
   * two calls clear the old default side by side and collide on the index, or deadlock); SQLite
   * runs one write transaction at a time anyway. The last to commit wins. A collision that still
   * happens (a config created as the first default meanwhile) is retried.
   */
  async setDefault(id: string, now: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.setDefaultOnce(id, now);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= SET_DEFAULT_ATTEMPTS) throw error;
      }
    }
  }

  private setDefaultOnce(id: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (trx.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`SELECT pg_advisory_xact_lock(${SET_DEFAULT_LOCK}::bigint)`.execute(trx);
      }
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
