/**
 * Quotas, one rule for every door (docs/architecture.md, "Quota"): a storage config with a quota
 * (`total_storage_bytes`) never holds more than it, nor a folder with a quota (a member's home folder
 * with their quota, docs/accounts.md) — whichever way bytes arrive: share uploads, the fs API and
 * the explorer, WebDAV, presigned and relay (multipart) uploads, copy and move tasks.
 *
 * - **Scopes**: what a quota covers is a scope — a whole storage config, or a folder in one (its
 *   driver path as a prefix). A write is judged in every scope that holds its place; all must have
 *   room.
 *
 * - **Used bytes** are counted per scope in the database (shared by every instance) and follow the
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
 * - Judged one at a time per scope: on PostgreSQL a transaction-scoped advisory lock per scope, so
 *   instances sharing the database cannot both take the last bytes; on SQLite the one connection's
 *   transaction is already exclusive. A count changes under the same lock (a change event, a
 *   recount's result), so a judgement never sees a write's bytes leave its reservation before they
 *   reach the count.
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
import { pathBelow } from '../db/path-below.ts';
import { isStorageError } from '../storage/driver.ts';

/** A quota and what is left of it. */
export interface Capacity {
  totalBytes: number;
  freeBytes: number;
}

/** 507 with the numbers, as CloudPaste's upload page reads them (`file_size`, `free_bytes`, `total_bytes`). */
export class StorageFullError extends AppError {
  override readonly data: { file_size: number; free_bytes: number; total_bytes: number };

  /** `personal`: the quota of a person's home folder, not the storage's. */
  constructor(fileSize: number, capacity: Capacity, personal = false) {
    super(507, 'STORAGE_FULL', personal ? 'uploads.home_quota_full' : 'uploads.storage_full', {
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

/** A folder with a quota of its own: a member's home folder, as a driver path of one config. */
export interface FolderQuota {
  /** The scope's key (`user:<id>`), unique beside config ids. */
  key: string;
  configId: string;
  /** The folder's driver path in the config. */
  prefix: string;
  quota: number;
  /**
   * The person whose quota it is: their file shares stored elsewhere count too (a share upload to a
   * storage no mount shows), and their share uploads are judged here wherever they land.
   */
  ownerId?: string;
}

/** Where a write lands: its config and driver path, and for a share upload whose it is. */
export interface QuotaPlace {
  config: QuotaConfig;
  path: string;
  ownerId?: string | null;
}

export interface QuotaDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** The driver of a config, to count what its storage holds. */
  driver(configId: string): Promise<StorageDriver>;
  /** The folders with a quota of their own, as they are now (none when unset). */
  folders?(): Promise<FolderQuota[]>;
}

/** What one quota covers: a whole config (`prefix` "/", keyed by the config's id) or a folder in it. */
interface Scope {
  key: string;
  configId: string;
  prefix: string;
  quota: number;
  folder: boolean;
  ownerId?: string;
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

const within = (prefix: string, path: string) =>
  prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);

/** The id of a reservation's row in one scope (the config's scope keeps the bare id, as before scopes). */
const rowId = (id: string, scope: Scope) => (scope.folder ? `${id}@${scope.key}` : id);

/** Several reservations as one: bytes count in each; each is released. */
function together(handles: Reservation[], id: string): Reservation {
  if (handles.length === 0) return NO_RESERVATION;
  if (handles.length === 1) return handles[0]!;
  return {
    id,
    consume: async (bytes) => {
      for (const handle of handles) await handle.consume(bytes);
    },
    release: async () => {
      for (const handle of handles) await handle.release();
    },
  };
}

export class StorageQuota {
  /** One count at a time per scope in this process. */
  private readonly counting = new Map<string, Promise<number>>();

  constructor(private readonly deps: QuotaDeps) {}

  /** The listener of storage changes (vfs.changes): keeps the counts of every scope they touch. */
  readonly follow = async (change: StorageChange): Promise<void> => {
    switch (change.kind) {
      case 'written':
        for (const key of await this.keysAt(change.at)) {
          if (change.previousSize === undefined) await this.adjust(key, change.size, true);
          else await this.adjust(key, change.size - change.previousSize, false);
        }
        return;
      case 'deleted':
        for (const key of await this.keysAt(change.at)) {
          if (change.size === undefined) await this.adjust(key, 0, true);
          else await this.adjust(key, -change.size, false);
        }
        return;
      case 'moved': {
        // What left one scope for another is counted again in both (its size is not known here).
        const from = await this.keysAt(change.from);
        const to = await this.keysAt(change.to);
        for (const key of from) if (!to.includes(key)) await this.adjust(key, 0, true);
        for (const key of to) if (!from.includes(key)) await this.adjust(key, 0, true);
        return;
      }
      case 'made':
        return;
    }
  };

  /**
   * Reserves `bytes` at `place` for a write about to start, in every scope that holds it and has a
   * quota (none is needed without one; 507 when one has no room). `id` names a reservation that
   * later requests find again (a relay upload's id); `ttlMs` how long it counts unless released.
   */
  async reserve(
    place: QuotaPlace,
    bytes: number,
    options: { id?: string; ttlMs?: number } = {},
  ): Promise<Reservation> {
    const scopes = await this.scopesAt(place);
    if (scopes.length === 0) return NO_RESERVATION;
    const id = options.id ?? randomUUID();
    const handles: Reservation[] = [];
    try {
      for (const scope of scopes) handles.push(await this.reserveIn(scope, id, bytes, options.ttlMs));
    } catch (error) {
      for (const handle of handles) await handle.release();
      throw error;
    }
    return together(handles, id);
  }

  /**
   * 507 unless every scope holding `place` has room for what is counted and reserved in it: for a
   * write whose bytes are already reserved another way (a share upload's pending file, `asked`
   * bytes of it).
   */
  async check(place: QuotaPlace, asked: number): Promise<void> {
    for (const scope of await this.scopesAt(place)) {
      await this.counted(scope);
      await this.judged(scope.key, (db) => this.judge(db, scope, asked, '', true));
    }
  }

  /** A reservation made earlier by id (a relay upload's next part); none where there is no quota. */
  async existing(place: QuotaPlace, id: string): Promise<Reservation> {
    const scopes = await this.scopesAt(place);
    return together(
      scopes.map((scope) => this.handle(scope, id)),
      id,
    );
  }

  /** Ends the reservation `id` (a relay upload aborted or completed), in every scope. */
  async release(id: string): Promise<void> {
    const folderRows = `${id}@`;
    await this.deps.db
      .deleteFrom('storage_reservations')
      .where((eb) =>
        eb.or([
          eb('id', '=', id),
          // No LIKE: `%` and `_` may be in an id.
          sql<boolean>`substr(${eb.ref('id')}, 1, ${[...folderRows].length}) = ${folderRows}`,
        ]),
      )
      .execute();
  }

  /** Bytes counted in a config and reserved by writes under way (counting it first if need be). */
  async usage(config: QuotaConfig): Promise<{ usedBytes: number; reservedBytes: number }> {
    const scope = configScope(config, quotaOf(config) ?? 0);
    const usedBytes = await this.counted(scope);
    return { usedBytes, reservedBytes: await this.reserved(this.deps.db, scope) };
  }

  /** What is left under the quota of a config, null without one. */
  async capacity(config: QuotaConfig): Promise<Capacity | null> {
    const quota = quotaOf(config);
    if (quota === null) return null;
    const { usedBytes, reservedBytes } = await this.usage(config);
    return { totalBytes: quota, freeBytes: Math.max(0, quota - usedBytes - reservedBytes) };
  }

  /** What is used and left of a folder's quota (a member's home), counting it first if need be. */
  async folderUsage(folder: FolderQuota): Promise<{ usedBytes: number; freeBytes: number }> {
    const scope = folderScope(folder);
    const usedBytes = await this.counted(scope);
    const reserved = await this.reserved(this.deps.db, scope);
    return { usedBytes, freeBytes: Math.max(0, folder.quota - usedBytes - reserved) };
  }

  /**
   * Counts every config's storage again: the periodic recount that corrects drift (a file changed
   * on the storage behind our back, a change event lost in a crash). One config at a time; one that
   * cannot be reached is skipped, keeping its last count. Returns how many were counted.
   */
  async recountAll(
    configs: QuotaConfig[],
    onError: (configId: string, error: unknown) => void = () => undefined,
  ): Promise<number> {
    let counted = 0;
    for (const config of configs) {
      const scope = configScope(config, quotaOf(config) ?? 0);
      const running = this.counting.get(scope.key);
      const count = running ?? this.recount(scope).finally(() => this.counting.delete(scope.key));
      if (!running) this.counting.set(scope.key, count);
      try {
        await count;
        counted++;
      } catch (error) {
        onError(config.id, error);
      }
    }
    return counted;
  }

  /** Forgets a scope's count (a config's storage changed, a home moved: recounted when next needed). */
  async forget(key: string): Promise<void> {
    await this.deps.db.deleteFrom('storage_usage').where('storage_config_id', '=', key).execute();
  }

  // ---- internals ------------------------------------------------------------------------------

  /** The scopes with a quota that hold `place`: its config's, and the folders of it around the path. */
  private async scopesAt(place: QuotaPlace): Promise<Scope[]> {
    const scopes: Scope[] = [];
    const quota = quotaOf(place.config);
    if (quota !== null) scopes.push(configScope(place.config, quota));
    for (const folder of (await this.deps.folders?.()) ?? []) {
      const inside = folder.configId === place.config.id && within(folder.prefix, place.path);
      if (inside || (place.ownerId && folder.ownerId === place.ownerId)) scopes.push(folderScope(folder));
    }
    return scopes;
  }

  /** The keys of every count a change at `at` touches: its config's, and the folders' around it. */
  private async keysAt(at: Place): Promise<string[]> {
    const keys = [at.configId];
    for (const folder of (await this.deps.folders?.()) ?? []) {
      if (folder.configId === at.configId && within(folder.prefix, at.path)) keys.push(folder.key);
    }
    return keys;
  }

  private async reserveIn(scope: Scope, id: string, bytes: number, ttlMs?: number): Promise<Reservation> {
    const now = this.deps.clock.now();
    const row = rowId(id, scope);
    await this.counted(scope);
    await this.judged(scope.key, async (db) => {
      // Abandoned reservations no longer count; they go here, so the table stays as small as what is live.
      await db
        .deleteFrom('storage_reservations')
        .where('storage_config_id', '=', scope.key)
        .where('expires_at', '<=', now.toISOString())
        .execute();
      await db
        .insertInto('storage_reservations')
        .values({
          id: row,
          storage_config_id: scope.key,
          bytes,
          received: 0,
          expires_at: new Date(now.getTime() + (ttlMs ?? DEFAULT_RESERVATION_MS)).toISOString(),
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await this.judge(db, scope, bytes, row);
    });
    return this.handle(scope, id, bytes);
  }

  /**
   * The handle of reservation `id` in `scope`. `held` is what it is known to hold when made here:
   * bytes that arrive within it are counted in memory; the database is asked only when they pass it.
   */
  private handle(scope: Scope, id: string, held?: number): Reservation {
    const { quota } = scope;
    const row = rowId(id, scope);
    const local = held === undefined ? undefined : { held, received: 0 };
    return {
      id,
      consume: async (bytes) => {
        if (bytes <= 0) return;
        if (local && local.received + bytes <= local.held) {
          local.received += bytes;
          return;
        }
        await this.judged(scope.key, async (db) => {
          const found = await db
            .selectFrom('storage_reservations')
            .select(['bytes', 'received', 'expires_at'])
            .where('id', '=', row)
            .executeTakeFirst();
          const live = found !== undefined && found.expires_at > this.deps.clock.now().toISOString();
          const before = Number(found?.bytes ?? 0);
          const arrived = Math.max(Number(found?.received ?? 0), local?.received ?? 0);
          const received = arrived + bytes;
          // Everything else counted and reserved in the scope, without this reservation's share.
          const others =
            (await this.total(db, scope)) - (live ? Math.max(before, Number(found.received)) : 0);
          // A stream here takes room for a step more than arrived (fewer trips here); a relay upload's
          // parts (no stream here: they come one request at a time) exactly what arrived.
          const step = local ? GROWTH_STEP : 0;
          let grown = Math.max(before, received, Math.min(before + step, quota - others));
          if (received > grown) grown = received;
          if (others + grown > quota) {
            throw new StorageFullError(
              received,
              { totalBytes: quota, freeBytes: Math.max(0, quota - others - Math.max(before, arrived)) },
              scope.folder,
            );
          }
          const now = this.deps.clock.now();
          await db
            .insertInto('storage_reservations')
            .values({
              id: row,
              storage_config_id: scope.key,
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
      release: async () => {
        await this.deps.db.deleteFrom('storage_reservations').where('id', '=', row).execute();
      },
    };
  }

  /**
   * 507 when what is counted and reserved in the scope passes its quota. Reservation `row` is
   * dropped on refusal unless `keep` (a growing one keeps what it already held).
   */
  private async judge(
    db: Kysely<Database>,
    scope: Scope,
    asked: number,
    row: string,
    keep = false,
  ): Promise<void> {
    const total = await this.total(db, scope);
    if (total <= scope.quota) return;
    if (!keep) await db.deleteFrom('storage_reservations').where('id', '=', row).execute();
    throw new StorageFullError(
      asked,
      { totalBytes: scope.quota, freeBytes: Math.max(0, scope.quota - (total - asked)) },
      scope.folder,
    );
  }

  /** Bytes counted in the scope and promised to writes under way. */
  private async total(db: Kysely<Database>, scope: Scope): Promise<number> {
    const used = await db
      .selectFrom('storage_usage')
      .select('used_bytes')
      .where('storage_config_id', '=', scope.key)
      .executeTakeFirst();
    return (
      Number(used?.used_bytes ?? 0) + (await this.reserved(db, scope)) + (await this.elsewhere(db, scope))
    );
  }

  /** A person's file shares stored outside their home folder (inside it the count already has them). */
  private async elsewhere(db: Kysely<Database>, scope: Scope): Promise<number> {
    if (!scope.ownerId) return 0;
    const row = await db
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
      .where('owner_id', '=', scope.ownerId)
      .where('status', '=', 'ready')
      .where((eb) =>
        eb.not(
          eb.and([eb('storage_config_id', '=', scope.configId), pathBelow('storage_path', scope.prefix)]),
        ),
      )
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /**
   * Bytes promised to writes under way: live reservations, and the share uploads not finished yet
   * (a pending file row holds its declared size until it is ready, when its change event counts it).
   */
  private async reserved(db: Kysely<Database>, scope: Scope): Promise<number> {
    let pendingQuery = db
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
      .where('status', '=', 'pending');
    // A person's pending share uploads count wherever they go; a config's or folder's, those into it.
    if (scope.ownerId) pendingQuery = pendingQuery.where('owner_id', '=', scope.ownerId);
    else pendingQuery = pendingQuery.where('storage_config_id', '=', scope.configId);
    if (scope.folder && !scope.ownerId)
      pendingQuery = pendingQuery.where(pathBelow('storage_path', scope.prefix));
    const pending = await pendingQuery.executeTakeFirstOrThrow();
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
      .where('storage_config_id', '=', scope.key)
      .where('expires_at', '>', this.deps.clock.now().toISOString())
      .executeTakeFirstOrThrow();
    return Number(pending.bytes) + Number(row.bytes);
  }

  /** Runs `work` as the one judgement of scope `key` at this moment, on every instance. */
  private judged<T>(key: string, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (this.deps.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(${lockKey(key)})`.execute(trx);
      }
      return work(trx);
    });
  }

  /**
   * A change of `delta` bytes in scope `key` (`unknown`: of a size not known, so counted again later).
   * Under the scope's lock: a judgement reads the count and then the reservations in two statements,
   * and a write's count must not change between them (its reservation ends just after, so its bytes
   * would be seen in neither).
   */
  private async adjust(key: string, delta: number, unknown: boolean): Promise<void> {
    await this.judged(key, (db) => this.adjustIn(db, key, delta, unknown));
  }

  private async adjustIn(db: Kysely<Database>, key: string, delta: number, unknown: boolean): Promise<void> {
    await db
      .updateTable('storage_usage')
      .set((eb) => ({
        used_bytes: sql<number>`case when ${eb.ref('used_bytes')} + ${delta} < 0 then 0 else ${eb.ref('used_bytes')} + ${delta} end`,
        version: eb(eb.ref('version'), '+', 1),
        ...(unknown ? { stale: 1 } : {}),
      }))
      .where('storage_config_id', '=', key)
      .execute();
  }

  /** The scope's counted bytes, counting them from the storage when there is no fresh count. */
  private async counted(scope: Scope): Promise<number> {
    const row = await this.deps.db
      .selectFrom('storage_usage')
      .selectAll()
      .where('storage_config_id', '=', scope.key)
      .executeTakeFirst();
    if (row && !row.stale) return Number(row.used_bytes);
    const running = this.counting.get(scope.key);
    if (running) return running;
    const count = this.recount(scope).finally(() => this.counting.delete(scope.key));
    this.counting.set(scope.key, count);
    return count;
  }

  /**
   * Counts the bytes of every file in the scope (its config's storage, below its folder) and keeps
   * the count unless a change arrived meanwhile (then it stays stale and the next write counts again).
   */
  private async recount(scope: Scope): Promise<number> {
    const now = () => this.deps.clock.now().toISOString();
    // A stale row first, so changes made while counting are seen (they bump its version).
    await this.deps.db
      .insertInto('storage_usage')
      .values({ storage_config_id: scope.key, used_bytes: 0, stale: 1, version: 0, counted_at: now() })
      .onConflict((oc) => oc.column('storage_config_id').doNothing())
      .execute();
    const before = await this.deps.db
      .selectFrom('storage_usage')
      .select(['version', 'used_bytes'])
      .where('storage_config_id', '=', scope.key)
      .executeTakeFirstOrThrow();
    const version = before.version;
    const driver = await this.deps.driver(scope.configId);
    let bytes = 0;
    const folders = [scope.prefix];
    while (folders.length > 0) {
      const folder = folders.pop()!;
      let cursor: string | undefined;
      do {
        let page;
        try {
          page = await driver.list(folder, cursor === undefined ? {} : { cursor });
        } catch (error) {
          // A folder not made yet (a home before its first use) holds nothing.
          if (folder === scope.prefix && scope.folder && isStorageError(error, 'NOT_FOUND')) break;
          throw error;
        }
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
    // Judged under the scope's lock, like a reservation, so no change or reservation slips between.
    await this.judged(scope.key, async (db) => {
      const busy = (await this.reserved(db, scope)) > 0;
      const kept = busy
        ? { numUpdatedRows: 0 }
        : await db
            .updateTable('storage_usage')
            .set({ used_bytes: bytes, stale: 0, counted_at: now() })
            .where('storage_config_id', '=', scope.key)
            .where('version', '=', version)
            .executeTakeFirst();
      if (Number(kept.numUpdatedRows) === 0) {
        // Busy, or changed while counting: the walk may have missed a file whose change was counted
        // meanwhile (a write that ended after its folder was listed), so the changes counted since the
        // start are added to what was walked. That may count a file twice, never zero times — a quota
        // errs on the full side — and the row stays stale, to be counted again when the storage is quiet.
        // Never less than what was walked (another instance's count may have replaced the row meanwhile).
        const since = Number(before.used_bytes);
        await db
          .updateTable('storage_usage')
          .set((eb) => ({
            used_bytes: sql<number>`case when ${eb.ref('used_bytes')} < ${since} then ${bytes} else ${bytes} + ${eb.ref('used_bytes')} - ${since} end`,
            counted_at: now(),
          }))
          .where('storage_config_id', '=', scope.key)
          .execute();
      }
    });
    return bytes;
  }
}

const configScope = (config: QuotaConfig, quota: number): Scope => ({
  key: config.id,
  configId: config.id,
  prefix: '/',
  quota,
  folder: false,
});

const folderScope = (folder: FolderQuota): Scope => ({ ...folder, folder: true });

/** A 64-bit advisory lock key of a scope's key (within PostgreSQL's signed bigint). */
function lockKey(configId: string): string {
  return BigInt.asIntN(
    64,
    createHash('sha256').update(`quota:${configId}`).digest().readBigUInt64BE(),
  ).toString();
}
