/**
 * The databases every integration suite runs on: a SQLite file in a temp dir and a fresh
 * PostgreSQL database (created per suite on the server named by DATABASE_URL, dropped afterwards).
 * When DATABASE_URL is missing the PostgreSQL tier fails loudly, never skips — unless the run leaves
 * PostgreSQL out on purpose (`CUBBY_TEST_DIALECTS`, below).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, type Dialect, type MigrationName, migrate, openDatabase } from '../../src/db/database.ts';

/**
 * The dialects the suites run on: both, unless `CUBBY_TEST_DIALECTS` names some (comma-separated):
 * `sqlite` runs without PostgreSQL, as the fast tier does (docs/testing.md). An unknown name fails.
 */
export const DIALECTS: Dialect[] = testDialects(process.env.CUBBY_TEST_DIALECTS);

/** `skip` for a suite that needs PostgreSQL outside the DIALECTS loop: false unless the run leaves it out. */
export const POSTGRES_SKIP: string | false = DIALECTS.includes('postgres')
  ? false
  : 'CUBBY_TEST_DIALECTS leaves PostgreSQL out of this run';

function testDialects(setting: string | undefined): Dialect[] {
  const all: Dialect[] = ['sqlite', 'postgres'];
  if (!setting?.trim()) return all;
  const named = setting.split(',').map((name) => name.trim());
  for (const name of named) {
    if (!all.includes(name as Dialect)) {
      throw new Error(`CUBBY_TEST_DIALECTS: unknown dialect "${name}" (use ${all.join(', ')})`);
    }
  }
  return all.filter((dialect) => named.includes(dialect));
}

export interface TestDatabase {
  db: Db;
  dataDir: string;
  /** The PostgreSQL database's URL (for a server process on it); undefined on SQLite. */
  url?: string;
  /** Removes the temp dir and, on PostgreSQL, the database. */
  destroy(): Promise<void>;
}

const PG_MISSING =
  'DATABASE_URL is not set, so the PostgreSQL tier cannot run. Run the suite with `npm test` (it starts a ' +
  'throwaway PostgreSQL; install it with `apt-get install postgresql`) or point DATABASE_URL at a server.';

/** A migrated database; `upTo` stops at that migration (to test a later one's data step). */
export async function createTestDatabase(dialect: Dialect, upTo?: MigrationName): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-test-'));
  const ready = async (db: Db, dropDatabase?: () => Promise<void>, url?: string): Promise<TestDatabase> => {
    await migrate(db, upTo);
    return {
      db,
      dataDir,
      ...(url ? { url } : {}),
      destroy: async () => {
        await db.close();
        await dropDatabase?.();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
  if (dialect === 'sqlite') return ready(openDatabase({ dataDir }));
  const pgDatabase = await createPostgresDatabase();
  return ready(openDatabase({ dataDir, databaseUrl: pgDatabase.url }), pgDatabase.drop, pgDatabase.url);
}

/**
 * A fresh, empty PostgreSQL database on the server DATABASE_URL names (for suites that run server
 * processes on it); `drop` waits for its sessions to end, then drops it.
 */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error(PG_MISSING);
  const name = `cubby_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    // pg's pool.end() resolves before its sessions are gone; forcing them closed would make the
    // closing clients throw. Wait for them instead (55006: database in use).
    for (let attempt = 0; ; attempt++) {
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 100) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await cleanup.end();
  };
  return { url: url.toString(), drop };
}
