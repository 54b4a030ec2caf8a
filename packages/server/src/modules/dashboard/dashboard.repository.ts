/**
 * The figures of the admin dashboard, one query each, on indexed columns (`created_at`, `expires_at`,
 * `storage_config_id`), so they stay fast on large tables.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, StorageConfigsTable } from '../../db/schema.ts';

export interface StorageUse {
  id: string;
  name: string;
  provider_type: string;
  driver: StorageConfigsTable['driver'];
  settings: string;
  total_storage_bytes: number | null;
  used: number;
  files: number;
}

const CONFIG_COLUMNS = ['id', 'name', 'provider_type', 'driver', 'settings', 'total_storage_bytes'] as const;

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
    const row = await this.db
      .selectFrom(table)
      .select(sql<number>`${readyCount(table)}`.as('n'))
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', now),
          eb.and([eb('max_views', '>', 0), eb('views', '>=', eb.ref('max_views'))]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Bytes and files of ready shares per storage config, every config (ordered by name). */
  async storageUse(): Promise<StorageUse[]> {
    // Summed from the (status, storage_config_id, size) index alone, then matched to the configs.
    // A config the quota has counted (vfs/quota.ts) shows that count — every byte in its storage,
    // the number its quota is judged by; any other, what its file shares hold.
    const [sums, configs, counted] = await Promise.all([
      this.db
        .selectFrom('files')
        .select(['storage_config_id'])
        .select((eb) => [eb.fn.sum<number>('size').as('used'), eb.fn.countAll<number>().as('files')])
        .where('status', '=', 'ready')
        .groupBy('storage_config_id')
        .execute(),
      this.db.selectFrom('storage_configs').select(CONFIG_COLUMNS).orderBy('name').execute(),
      this.db.selectFrom('storage_usage').select(['storage_config_id', 'used_bytes']).execute(),
    ]);
    const byConfig = new Map(sums.map((s) => [s.storage_config_id, s]));
    const countedBytes = new Map(counted.map((c) => [c.storage_config_id, Number(c.used_bytes)]));
    return configs.map((config) => ({
      ...config,
      used: countedBytes.get(config.id) ?? Number(byConfig.get(config.id)?.used ?? 0),
      files: Number(byConfig.get(config.id)?.files ?? 0),
    }));
  }

  /** Rows (ready files) created per UTC day (`YYYY-MM-DD`) from `since` (an ISO time) on. */
  async perDay(table: 'pastes' | 'files', since: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom(table)
      .select([sql<string>`substr(created_at, 1, 10)`.as('day'), sql<number>`${readyCount(table)}`.as('n')])
      .where('created_at', '>=', since)
      .groupBy(sql`substr(created_at, 1, 10)`)
      .execute();
    return new Map(rows.map((r) => [r.day, Number(r.n)]));
  }
}

/**
 * Rows counted (of files: only ready ones). The status is counted, not filtered on, so that the
 * planner keeps the index of the query's own condition (created_at, expires_at) instead of the
 * status index, which would walk every ready file.
 */
function readyCount(table: 'pastes' | 'files') {
  return table === 'files' ? sql`count(case when status = 'ready' then 1 end)` : sql`count(*)`;
}
