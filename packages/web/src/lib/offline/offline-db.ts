/**
 * The app's offline database (spec §3 "Offline database", version 2): object stores `pastes` (by
 * slug), `files` (by slug), `directories` (by path) and `settings` (by key), each record carrying
 * `cachedAt`. The Markdown draft and user preferences live in `settings`. The offline layer reuses
 * this one connection; opening it is lazy, and failures (private mode, no IndexedDB) surface as
 * rejected promises that callers treat as "nothing stored".
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export const OFFLINE_DB_NAME = 'cubby-offline';
export const OFFLINE_DB_VERSION = 2;

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

let connection: Promise<IDBPDatabase<OfflineSchema>> | null = null;

export function openOfflineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  connection ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db) {
      // Version 1 had pastes, files and directories; version 2 added settings. Creating whatever
      // is missing covers both a fresh install and an upgrade.
      if (!db.objectStoreNames.contains('pastes')) db.createObjectStore('pastes', { keyPath: 'slug' });
      if (!db.objectStoreNames.contains('files')) db.createObjectStore('files', { keyPath: 'slug' });
      if (!db.objectStoreNames.contains('directories'))
        db.createObjectStore('directories', { keyPath: 'path' });
      if (!db.objectStoreNames.contains('settings')) db.createObjectStore('settings', { keyPath: 'key' });
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
