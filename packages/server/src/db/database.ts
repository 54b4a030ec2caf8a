/**
 * Opens the metadata database: SQLite in DATA_DIR by default (WAL, foreign keys, busy timeout), or
 * PostgreSQL when DATABASE_URL is a postgres:// URL. Migrations run before the app uses it.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { SqliteWriteBatch } from './write-batch.ts';
import * as m0001 from './migrations/0001-initial.ts';
import * as m0002 from './migrations/0002-pastes.ts';
import * as m0003 from './migrations/0003-storage-and-files.ts';
import * as m0004 from './migrations/0004-file-view-tokens.ts';
import * as m0005 from './migrations/0005-streamed-uploads.ts';
import * as m0006 from './migrations/0006-mounts.ts';
import * as m0007 from './migrations/0007-fs-tasks.ts';
import * as m0008 from './migrations/0008-dashboard-indexes.ts';
import * as m0009 from './migrations/0009-webdav.ts';
import * as m0010 from './migrations/0010-shared-instances.ts';
import * as m0011 from './migrations/0011-mount-file-shares.ts';
import * as m0012 from './migrations/0012-mount-creators.ts';
import * as m0013 from './migrations/0013-file-share-sources.ts';
import * as m0014 from './migrations/0014-storage-usage.ts';
import * as m0015 from './migrations/0015-accounts.ts';
import * as m0016 from './migrations/0016-audit-log.ts';
import * as m0017 from './migrations/0017-oidc.ts';
import * as m0018 from './migrations/0018-two-factor.ts';
import * as m0019 from './migrations/0019-passkeys.ts';
import * as m0020 from './migrations/0020-ldap.ts';
import * as m0021 from './migrations/0021-bundles.ts';
import * as m0022 from './migrations/0022-folder-shares.ts';
import * as m0023 from './migrations/0023-upload-requests.ts';
import * as m0024 from './migrations/0024-tus-uploads.ts';
import * as m0025 from './migrations/0025-fs-meta.ts';
import * as m0026 from './migrations/0026-paste-files.ts';
import * as m0027 from './migrations/0027-notifications.ts';
import * as m0028 from './migrations/0028-upload-request-bundles.ts';
import * as m0029 from './migrations/0029-scheduled-jobs.ts';
import * as m0030 from './migrations/0030-mount-link-policy.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL only: for the connections kept apart from the pool (LISTEN, job locks). */
  connectionString?: string;
  /** SQLite only: group commit for the hottest single-statement writes (db/write-batch.ts). */
  writeBatch?: SqliteWriteBatch;
  close(): Promise<void>;
}

// BIGINT columns (file sizes) come back as numbers, as on SQLite; sizes stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function openDatabase(options: { databaseUrl?: string; dataDir: string }): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      connectionString: options.databaseUrl,
      close: () => kysely.destroy(),
    };
  }
  const filePath = path.join(options.dataDir, 'cubby.db');
  const file = new SQLite(filePath);
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma('synchronous = NORMAL');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  const writeBatch = new SqliteWriteBatch(filePath);
  return {
    kysely,
    dialect: 'sqlite',
    writeBatch,
    close: async () => {
      writeBatch.close();
      await kysely.destroy();
    },
  };
}

/**
 * Kysely prepares every query afresh; on SQLite preparing costs about as much as running a small
 * query. The app sends a bounded set of SQL texts, so each prepared statement is kept and reused.
 */
function withStatementCache(file: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  return new Proxy(file, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = target.prepare(source);
          if (cache.size >= 500) cache.delete(cache.keys().next().value!);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}

const migrations = {
  '0001-initial': m0001,
  '0002-pastes': m0002,
  '0003-storage-and-files': m0003,
  '0004-file-view-tokens': m0004,
  '0005-streamed-uploads': m0005,
  '0006-mounts': m0006,
  '0007-fs-tasks': m0007,
  '0008-dashboard-indexes': m0008,
  '0009-webdav': m0009,
  '0010-shared-instances': m0010,
  '0011-mount-file-shares': m0011,
  '0012-mount-creators': m0012,
  '0013-file-share-sources': m0013,
  '0014-storage-usage': m0014,
  '0015-accounts': m0015,
  '0016-audit-log': m0016,
  '0017-oidc': m0017,
  '0018-two-factor': m0018,
  '0019-passkeys': m0019,
  '0020-ldap': m0020,
  '0021-bundles': m0021,
  '0022-folder-shares': m0022,
  '0023-upload-requests': m0023,
  '0024-tus-uploads': m0024,
  '0025-fs-meta': m0025,
  '0026-paste-files': m0026,
  '0027-notifications': m0027,
  '0028-upload-request-bundles': m0028,
  '0029-scheduled-jobs': m0029,
  '0030-mount-link-policy': m0030,
};

export type MigrationName = keyof typeof migrations;

/**
 * Brings the schema up to date, or up to the migration `upTo` (tests of a migration's data step);
 * throws with the failing migration's error.
 */
export async function migrate(db: Db, upTo?: MigrationName): Promise<void> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}
