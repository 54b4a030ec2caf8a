/**
 * The storage quota, one rule for every door (docs/architecture.md, "Quota"): a storage config
 * with a quota (`total_storage_bytes`) never holds more than it, whichever way bytes arrive — share
 * uploads, the fs API and the explorer, WebDAV, presigned and relay (multipart) uploads, copy and
 * move tasks.
 *
 * - **Used bytes** are counted per config in the database (shared by every instance) and follow the
 *   storage change events: a written file adds its size (less what it replaced), a deleted file
 *   takes its size away. A change whose size is not known (a folder deleted, a move between two
 *   storages, a file replaced by a door that did not look first) marks the count stale, and it is
 *   counted again from the storage itself before a write relies on it. The first write into a config
 *   with a quota counts it the same way.
 * - **Reservations**: before bytes flow, a write reserves what it declares (an upload's size, a
 *   relay upload's file size, a copy's source size); a write of unknown length reserves as its bytes
 *   arrive. A reservation is refused with 507 when used + every live reservation would pass the
 *   quota; it ends when the write is accounted for (its change event) or abandoned (its expiry: an
 *   unfinished multipart upload counts until it completes, is aborted or expires).
 * - Judged one at a time per config: on PostgreSQL a transaction-scoped advisory lock per config, so
 *   instances sharing the database cannot both take the last bytes; on SQLite the one connection's
 *   transaction is already exclusive.
 */
import { createHash, randomUUID } from 'node:crypto';
import { formatBytes } from '@cubby/shared';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { Place, StorageChange } from './changes.ts';
import type { StorageDriver } from '../storage/driver.ts';
import { joinPath } from '../storage/driver-path.ts';

/** A quota and what is left of it. */
export interface Capacity {
  totalBytes: number;
  freeBytes: number;
}

/** 507 with the numbers, as CloudPaste's upload page reads them (`file_size`, `free_bytes`, `total_bytes`). */
export class StorageFullError extends AppError {
  override readonly data: { file_size: number; free_bytes: number; total_bytes: number };

  constructor(fileSize: number, capacity: Capacity) {
    super(507, 'STORAGE_FULL', 'uploads.storage_full', {
      size: formatBytes(fileSize),
      free: formatBytes(capacity.freeBytes),
      total: formatBytes(capacity.totalBytes),
    });
    this.data = { file_size: fileSize, free_bytes: capacity.freeBytes, total_bytes: capacity.totalBytes };
  }
}

/** How long a reservation counts unless told otherwise: one write's worth. */
export const DEFAULT_RESERVATION_MS = 60 * 60 * 1000;
/** A write of unknown length reserves at least this much more each time its bytes pass what it holds. */
const GROWTH_STEP = 1024 * 1024;

/** What the quota needs of a storage config. */
export interface QuotaConfig {
  id: string;
  /** The quota; null (or 0) for none. */
  total_storage_bytes: number | null;
}

export interface QuotaDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** The driver of a config, to count what its storage holds. */
  driver(configId: string): Promise<StorageDriver>;
}

/** Bytes promised to one write; {@link StorageQuota.reserve} hands it out. */
export interface Reservation {
  readonly id: string;
  /** Counts `bytes` more arriving, growing the reservation (507 when the quota has no room). */
  consume(bytes: number): Promise<void>;
  /** Ends it: the write is accounted for by its change event, or it failed. */
  release(): Promise<void>;
}

/** The reservation of a write into storage without a quota: nothing to count. */
export const NO_RESERVATION: Reservation = {
  id: '',
  consume: () => Promise.resolve(),
  release: () => Promise.resolve(),
};

const quotaOf = (config: Pick<QuotaConfig, 'total_storage_bytes'>): number | null =>
  config.total_storage_bytes !== null && config.total_storage_bytes > 0 ? config.total_storage_bytes : null;

export class StorageQuota {
  /** One count at a time per config in this process. */
  private readonly counting = new Map<string, Promise<number>>();

  constructor(private readonly deps: QuotaDeps) {}

  /** The listener of storage changes (vfs.changes): keeps the counts. */
  readonly follow = async (change: StorageChange): Promise<void> => {
    switch (change.kind) {
      case 'written':
        if (change.previousSize === undefined) await this.adjust(change.at, change.size, true);
        else await this.adjust(change.at, change.size - change.previousSize, false);
        return;
      case 'deleted':
        if (change.size === undefined) await this.adjust(change.at, 0, true);
        else await this.adjust(change.at, -change.size, false);
        return;
      case 'moved':
        if (change.from.configId === change.to.configId) return;
        await this.adjust(change.from, 0, true);
        await this.adjust(change.to, 0, true);
        return;
      case 'made':
        return;
    }
  };

  /**
   * Reserves `bytes` in `config` for a write about to start (none is needed without a quota). `id`
   * names a reservation that later requests find again (a relay upload's id); `ttlMs` how long it
   * counts unless released.
   */
  async reserve(
    config: QuotaConfig,
    bytes: number,
    options: { id?: string; ttlMs?: number } = {},
  ): Promise<Reservation> {
    const quota = quotaOf(config);
    if (quota === null) return NO_RESERVATION;
    const id = options.id ?? randomUUID();
    const now = this.deps.clock.now();
    await this.counted(config);
    await this.judged(config.id, async (db) => {
      // Abandoned reservations no longer count; they go here, so the table stays as small as what is live.
      await db
        .deleteFrom('storage_reservations')
        .where('storage_config_id', '=', config.id)
        .where('expires_at', '<=', now.toISOString())
        .execute();
      await db
        .insertInto('storage_reservations')
        .values({
          id,
          storage_config_id: config.id,
          bytes,
          received: 0,
          expires_at: new Date(now.getTime() + (options.ttlMs ?? DEFAULT_RESERVATION_MS)).toISOString(),
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await this.judge(db, config.id, quota, bytes, id);
    });
    return this.handle(config, id, bytes);
  }

  /**
   * 507 unless what is counted and reserved in `config` fits its quota: for a write whose bytes are
   * already reserved another way (a share upload's pending file, `asked` bytes of it).
   */
  async check(config: QuotaConfig, asked: number): Promise<void> {
    const quota = quotaOf(config);
    if (quota === null) return;
    await this.counted(config);
    await this.judged(config.id, (db) => this.judge(db, config.id, quota, asked, '', true));
  }

  /** A reservation made earlier by id (a relay upload's next part); none when there is no quota. */
  existing(config: QuotaConfig, id: string): Reservation {
    return quotaOf(config) === null ? NO_RESERVATION : this.handle(config, id);
  }

  /** Ends the reservation `id` (a relay upload aborted or completed). */
  async release(id: string): Promise<void> {
    await this.deps.db.deleteFrom('storage_reservations').where('id', '=', id).execute();
  }

  /** Bytes counted in a config and reserved by writes under way (counting it first if need be). */
  async usage(config: QuotaConfig): Promise<{ usedBytes: number; reservedBytes: number }> {
    const usedBytes = await this.counted(config);
    return { usedBytes, reservedBytes: await this.reserved(this.deps.db, config.id) };
  }

  /** What is left under the quota, null without one. */
  async capacity(config: QuotaConfig): Promise<Capacity | null> {
    const quota = quotaOf(config);
    if (quota === null) return null;
    const { usedBytes, reservedBytes } = await this.usage(config);
    return { totalBytes: quota, freeBytes: Math.max(0, quota - usedBytes - reservedBytes) };
  }

  /** Forgets a config's count (its storage changed: recounted when next needed). */
  async forget(configId: string): Promise<void> {
    await this.deps.db.deleteFrom('storage_usage').where('storage_config_id', '=', configId).execute();
  }

  // ---- internals ------------------------------------------------------------------------------

  /**
   * The handle of reservation `id`. `held` is what it is known to hold when made here: bytes that
   * arrive within it are counted in memory; the database is asked only when they pass it.
   */
  private handle(config: QuotaConfig, id: string, held?: number): Reservation {
    const quota = quotaOf(config)!;
    const local = held === undefined ? undefined : { held, received: 0 };
    return {
      id,
      consume: async (bytes) => {
        if (bytes <= 0) return;
        if (local && local.received + bytes <= local.held) {
          local.received += bytes;
          return;
        }
        await this.judged(config.id, async (db) => {
          const row = await db
            .selectFrom('storage_reservations')
            .select(['bytes', 'received', 'expires_at'])
            .where('id', '=', id)
            .executeTakeFirst();
          const live = row !== undefined && row.expires_at > this.deps.clock.now().toISOString();
          const before = Number(row?.bytes ?? 0);
          const arrived = Math.max(Number(row?.received ?? 0), local?.received ?? 0);
          const received = arrived + bytes;
          // Everything else counted and reserved in the config, without this reservation's share.
          const others =
            (await this.total(db, config.id)) - (live ? Math.max(before, Number(row.received)) : 0);
          // A stream here takes room for a step more than arrived (fewer trips here); a relay upload's
          // parts (no stream here: they come one request at a time) exactly what arrived.
          const step = local ? GROWTH_STEP : 0;
          let grown = Math.max(before, received, Math.min(before + step, quota - others));
          if (received > grown) grown = received;
          if (others + grown > quota) {
            throw new StorageFullError(received, {
              totalBytes: quota,
              freeBytes: Math.max(0, quota - others - Math.max(before, arrived)),
            });
          }
          const now = this.deps.clock.now();
          await db
            .insertInto('storage_reservations')
            .values({
              id,
              storage_config_id: config.id,
              bytes: grown,
              received,
              expires_at: new Date(now.getTime() + DEFAULT_RESERVATION_MS).toISOString(),
              created_at: now.toISOString(),
            })
            .onConflict((oc) => oc.column('id').doUpdateSet({ bytes: grown, received }))
            .execute();
          if (local) Object.assign(local, { held: grown, received });
        });
      },
      release: () => this.release(id),
    };
  }

  /**
   * 507 when what is counted and reserved in the config passes the quota. `id`'s reservation is
   * dropped on refusal unless `keep` (a growing one keeps what it already held).
   */
  private async judge(
    db: Kysely<Database>,
    configId: string,
    quota: number,
    asked: number,
    id: string,
    keep = false,
  ): Promise<void> {
    const total = await this.total(db, configId);
    if (total <= quota) return;
    if (!keep) await db.deleteFrom('storage_reservations').where('id', '=', id).execute();
    throw new StorageFullError(asked, { totalBytes: quota, freeBytes: Math.max(0, quota - (total - asked)) });
  }

  /** Bytes counted in the config and promised to writes under way. */
  private async total(db: Kysely<Database>, configId: string): Promise<number> {
    const used = await db
      .selectFrom('storage_usage')
      .select('used_bytes')
      .where('storage_config_id', '=', configId)
      .executeTakeFirst();
    return Number(used?.used_bytes ?? 0) + (await this.reserved(db, configId));
  }

  /**
   * Bytes promised to writes under way: live reservations, and the share uploads not finished yet
   * (a pending file row holds its declared size until it is ready, when its change event counts it).
   */
  private async reserved(db: Kysely<Database>, configId: string): Promise<number> {
    const pending = await db
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
      .where('storage_config_id', '=', configId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const row = await db
      .selectFrom('storage_reservations')
      .select((eb) =>
        eb.fn
          .coalesce(
            eb.fn.sum<number>(sql<number>`case when bytes > received then bytes else received end`),
            eb.lit(0),
          )
          .as('bytes'),
      )
      .where('storage_config_id', '=', configId)
      .where('expires_at', '>', this.deps.clock.now().toISOString())
      .executeTakeFirstOrThrow();
    return Number(pending.bytes) + Number(row.bytes);
  }

  /** Runs `work` as the one judgement of `configId` at this moment, on every instance. */
  private judged<T>(configId: string, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (this.deps.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(${lockKey(configId)})`.execute(trx);
      }
      return work(trx);
    });
  }

  /** A change of `delta` bytes at `at` (`unknown`: of a size not known, so counted again later). */
  private async adjust(at: Place, delta: number, unknown: boolean): Promise<void> {
    await this.deps.db
      .updateTable('storage_usage')
      .set((eb) => ({
        used_bytes: sql<number>`case when ${eb.ref('used_bytes')} + ${delta} < 0 then 0 else ${eb.ref('used_bytes')} + ${delta} end`,
        version: eb(eb.ref('version'), '+', 1),
        ...(unknown ? { stale: 1 } : {}),
      }))
      .where('storage_config_id', '=', at.configId)
      .execute();
  }

  /** The config's counted bytes, counting them from the storage when there is no fresh count. */
  private async counted(config: QuotaConfig): Promise<number> {
    const row = await this.deps.db
      .selectFrom('storage_usage')
      .selectAll()
      .where('storage_config_id', '=', config.id)
      .executeTakeFirst();
    if (row && !row.stale) return Number(row.used_bytes);
    const running = this.counting.get(config.id);
    if (running) return running;
    const count = this.recount(config).finally(() => this.counting.delete(config.id));
    this.counting.set(config.id, count);
    return count;
  }

  /**
   * Counts the bytes of every file in the config's storage and keeps the count unless a change
   * arrived meanwhile (then it stays stale and the next write counts again).
   */
  private async recount(config: QuotaConfig): Promise<number> {
    const now = () => this.deps.clock.now().toISOString();
    // A stale row first, so changes made while counting are seen (they bump its version).
    await this.deps.db
      .insertInto('storage_usage')
      .values({ storage_config_id: config.id, used_bytes: 0, stale: 1, version: 0, counted_at: now() })
      .onConflict((oc) => oc.column('storage_config_id').doNothing())
      .execute();
    const before = await this.deps.db
      .selectFrom('storage_usage')
      .select(['version', 'used_bytes'])
      .where('storage_config_id', '=', config.id)
      .executeTakeFirstOrThrow();
    const version = before.version;
    const driver = await this.deps.driver(config.id);
    let bytes = 0;
    const folders = ['/'];
    while (folders.length > 0) {
      const folder = folders.pop()!;
      let cursor: string | undefined;
      do {
        const page = await driver.list(folder, cursor === undefined ? {} : { cursor });
        for (const entry of page.entries) {
          if (entry.isDirectory) folders.push(joinPath(folder, entry.name));
          else bytes += entry.size;
        }
        cursor = page.cursor;
      } while (cursor !== undefined);
    }
    // A write under way holds a reservation from before its bytes flow until after its change is
    // counted: while one does, a file the walk saw may still be counted again by its change, so the
    // walk is not kept as the truth (nor while a change came in during the walk: the version).
    const busy = (await this.reserved(this.deps.db, config.id)) > 0;
    const kept = busy
      ? { numUpdatedRows: 0 }
      : await this.deps.db
          .updateTable('storage_usage')
          .set({ used_bytes: bytes, stale: 0, counted_at: now() })
          .where('storage_config_id', '=', config.id)
          .where('version', '=', version)
          .executeTakeFirst();
    if (Number(kept.numUpdatedRows) === 0) {
      // Busy, or changed while counting: the walk may have missed a file whose change was counted
      // meanwhile (a write that ended after its folder was listed), so the changes counted since the
      // start are added to what was walked. That may count a file twice, never zero times — a quota errs
      // on the full side — and the row stays stale, to be counted again when the storage is quiet.
      await this.deps.db
        .updateTable('storage_usage')
        .set((eb) => ({
          used_bytes: sql<number>`${bytes} + ${eb.ref('used_bytes')} - ${Number(before.used_bytes)}`,
          counted_at: now(),
        }))
        .where('storage_config_id', '=', config.id)
        .execute();
    }
    return bytes;
  }
}

/** A 64-bit advisory lock key of a config id (within PostgreSQL's signed bigint). */
function lockKey(configId: string): string {
  return BigInt.asIntN(
    64,
    createHash('sha256').update(`quota:${configId}`).digest().readBigUInt64BE(),
  ).toString();
}
