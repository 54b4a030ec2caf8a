/**
 * The figures of the admin dashboard, one query each, on indexed columns (`created_at`, `expires_at`,
 * `storage_config_id`), so they stay fast on large tables.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface StorageUse {
  id: string;
  name: string;
  provider_type: string;
  driver: 'local' | 's3';
  settings: string;
  total_storage_bytes: number | null;
  used: number;
  files: number;
}

const CONFIG_COLUMNS = [
  'storage_configs.id',
  'storage_configs.name',
  'storage_configs.provider_type',
  'storage_configs.driver',
  'storage_configs.settings',
  'storage_configs.total_storage_bytes',
] as const;

export class DashboardRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Rows of a table (of files: the ready ones; an upload in progress is not a file yet). */
  async count(table: 'pastes' | 'files' | 'api_keys' | 'storage_configs' | 'mounts'): Promise<number> {
    let query = this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (table === 'files') query = query.where(sql.ref('status'), '=', 'ready');
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  /** Shares (pastes or ready files) no longer served at `now`: expired or out of views. */
  async ended(table: 'pastes' | 'files', now: string): Promise<number> {
    let query = this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', now),
          eb.and([eb('max_views', '>', 0), eb('views', '>=', eb.ref('max_views'))]),
        ]),
      );
    if (table === 'files') query = query.where('status', '=', 'ready');
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  /** Bytes and files of ready shares per storage config, every config (ordered by name). */
  storageUse(): Promise<StorageUse[]> {
    return this.db
      .selectFrom('storage_configs')
      .leftJoin('files', (join) =>
        join.onRef('files.storage_config_id', '=', 'storage_configs.id').on('files.status', '=', 'ready'),
      )
      .select(CONFIG_COLUMNS)
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('files.size'), sql<number>`0`).as('used'),
        eb.fn.count<number>('files.id').as('files'),
      ])
      .groupBy(CONFIG_COLUMNS)
      .orderBy('storage_configs.name')
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, used: Number(r.used), files: Number(r.files) })));
  }

  /** Rows (ready files) created per UTC day (`YYYY-MM-DD`) from `since` (an ISO time) on. */
  async perDay(table: 'pastes' | 'files', since: string): Promise<Map<string, number>> {
    let query = this.db
      .selectFrom(table)
      .select([sql<string>`substr(created_at, 1, 10)`.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since);
    if (table === 'files') query = query.where(sql.ref('status'), '=', 'ready');
    const rows = await query.groupBy(sql`substr(created_at, 1, 10)`).execute();
    return new Map(rows.map((r) => [r.day, Number(r.n)]));
  }
}
