/**
 * The app's offline database (docs/product.md §3 "Offline database", version 2): object stores `pastes` (by
 * slug), `files` (by slug), `directories` (by path) and `settings` (by key), each record carrying
 * `cachedAt` (milliseconds since the epoch). The Markdown draft and user preferences live in
 * `settings`. The page and the service worker share this code; opening is lazy, and failures
 * (private mode, no IndexedDB) surface as rejected promises that callers treat as "nothing stored".
 *
 * Version 1 (the layout of the offline layer Cubby replaces, docs/compatibility.md §9.3): the same four
 * stores, but `pastes`, `files` and `directories` held whole API answers with an ISO-date
 * `cachedAt` — protected texts and passwords included — and `settings` held `{key, value,
 * updatedAt}` records: the draft `markdown_draft` as `{content, savedAt: ISO date}` beside cached
 * API answers (API key lists with full keys, share lists with passwords…). The upgrade to version 2
 * keeps the draft and the preferences, in today's shape, and deletes everything else.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import { isFresh } from './api-cache-rules.ts';

export const OFFLINE_DB_NAME = 'cubby-offline';
export const OFFLINE_DB_VERSION = 2;
/** The settings a version-1 database may pass on: the draft and the preferences. */
const KEPT_V1_SETTINGS = new Set(['markdown_draft', 'pwa_install_dismissed_at']);

export interface SettingRecord<T = unknown> {
  key: string;
  value: T;
  cachedAt: number;
}

interface CachedRecord {
  cachedAt: number;
  [field: string]: unknown;
}

export interface OfflineSchema extends DBSchema {
  pastes: { key: string; value: CachedRecord & { slug: string } };
  files: { key: string; value: CachedRecord & { slug: string } };
  directories: { key: string; value: CachedRecord & { path: string } };
  settings: { key: string; value: SettingRecord };
}

type UpgradeTransaction = IDBPTransaction<OfflineSchema, StoreNames<OfflineSchema>[], 'versionchange'>;

/** A version-1 date (ISO string, or already a number) in milliseconds; NaN if unreadable. */
function toMillis(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/** Version 1 → 2: cached answers dropped; the draft and the preferences kept, dates as numbers. */
async function upgradeFromVersion1(transaction: UpgradeTransaction): Promise<void> {
  for (const name of ['pastes', 'files', 'directories'] as const) await transaction.objectStore(name).clear();
  let cursor = await transaction.objectStore('settings').openCursor();
  while (cursor) {
    const old = cursor.value as SettingRecord & { updatedAt?: unknown };
    if (!KEPT_V1_SETTINGS.has(old.key) || old.value === null || old.value === undefined) {
      await cursor.delete();
    } else {
      let value = old.value;
      if (old.key === 'markdown_draft' && typeof value === 'object') {
        const draft = value as { content?: unknown; savedAt?: unknown };
        value = { content: draft.content, savedAt: toMillis(draft.savedAt) };
      }
      const cachedAt = toMillis(old.cachedAt ?? old.updatedAt);
      await cursor.update({
        key: old.key,
        value,
        cachedAt: Number.isFinite(cachedAt) ? cachedAt : Date.now(),
      });
    }
    cursor = await cursor.continue();
  }
}

let connection: Promise<IDBPDatabase<OfflineSchema>> | null = null;

export function openOfflineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  connection ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, transaction) {
      // A fresh install creates the four stores; a version-1 database may lack some of them.
      if (!db.objectStoreNames.contains('pastes')) db.createObjectStore('pastes', { keyPath: 'slug' });
      if (!db.objectStoreNames.contains('files')) db.createObjectStore('files', { keyPath: 'slug' });
      if (!db.objectStoreNames.contains('directories'))
        db.createObjectStore('directories', { keyPath: 'path' });
      if (!db.objectStoreNames.contains('settings')) db.createObjectStore('settings', { keyPath: 'key' });
      if (oldVersion === 1) await upgradeFromVersion1(transaction);
    },
    // A newer version (another tab, or the service worker of a new build) wants to upgrade: let it.
    blocking() {
      void connection?.then((db) => db.close());
      connection = null;
    },
  }).catch((error: unknown) => {
    connection = null;
    throw error;
  });
  return connection;
}

export async function readSetting<T>(key: string): Promise<T | undefined> {
  const record = await (await openOfflineDb()).get('settings', key);
  return record?.value as T | undefined;
}

export async function writeSetting<T>(key: string, value: T): Promise<void> {
  await (await openOfflineDb()).put('settings', { key, value, cachedAt: Date.now() });
}

export async function deleteSetting(key: string): Promise<void> {
  await (await openOfflineDb()).delete('settings', key);
}

/** Offline records by kind: pastes, files (by slug), directories (by path). */
export type RecordStore = 'pastes' | 'files' | 'directories';

/** The record under `key` if stored under 7 days before `now`; an older one is deleted. */
export async function readFreshRecord(
  store: RecordStore,
  key: string,
  now: number,
): Promise<OfflineSchema[RecordStore]['value'] | null> {
  const db = await openOfflineDb();
  const record = await db.get(store, key);
  if (!record) return null;
  if (isFresh(record.cachedAt, now)) return record;
  await db.delete(store, key);
  return null;
}
