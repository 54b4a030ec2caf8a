/**
 * Builds the real app over a real database for integration tests, with an adjustable clock and
 * the log captured line by line, and small helpers for JSON requests through `app.request()`.
 */
import { Writable } from 'node:stream';
import { createApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config/config.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type Db, type Dialect, openDatabase } from '../../src/db/database.ts';
import type { CacheBus } from '../../src/lib/cache-bus.ts';
import type { FilesTable, MountsTable, StorageConfigsTable } from '../../src/db/schema.ts';
import { createLogger } from '../../src/logger.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

export const ADMIN = { username: 'admin', password: 'correct horse battery' };

export class TestClock {
  /** Set by followRealTime: from then on the clock ticks with real time (plus what advance adds). */
  private realOffsetMs: number | undefined;
  constructor(private current = new Date('2026-01-01T00:00:00.000Z')) {}
  now(): Date {
    return this.realOffsetMs === undefined
      ? new Date(this.current)
      : new Date(Date.now() + this.realOffsetMs);
  }
  advance(ms: number): void {
    if (this.realOffsetMs === undefined) this.current = new Date(this.current.getTime() + ms);
    else this.realOffsetMs += ms;
  }
  /**
   * For tests against a real S3 server, which checks presigned URLs against real time: a clock that
   * stood still would sign links that expire while a slow test before them runs.
   */
  followRealTime(): void {
    this.realOffsetMs = 0;
  }
}

export interface TestApp {
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answers
  json<T = any>(
    path: string,
    init?: RequestInit & { json?: unknown },
  ): Promise<{ status: number; body: T; res: Response }>;
  /** The app's own fetch, for serving it on a real socket (src/http/node-server.ts). */
  fetch: ReturnType<typeof createApp>['app']['fetch'];
  clock: TestClock;
  logLines: string[];
  database: TestDatabase;
  config: Config;
  services: ReturnType<typeof createApp>['services'];
  /** The routes the app knows (Hono's list), for tests over every route. */
  routes: ReturnType<typeof createApp>['app']['routes'];
  adminToken(): Promise<string>;
  createKey(body: Record<string, unknown>): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export async function createTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  webDistDir?: string,
): Promise<TestApp> {
  return buildTestApp(await createTestDatabase(dialect), { env, webDistDir, ownsDatabase: true });
}

/**
 * Another instance on `first`'s PostgreSQL database (its own pool, clock, log and cache listener),
 * as a second server process would be; close it before `first`.
 */
export async function createSecondInstance(
  first: TestApp,
  options: { env?: Record<string, string>; cacheBus?: (db: Db, logger: Logger) => CacheBus } = {},
): Promise<TestApp> {
  const { connectionString } = first.database.db;
  if (!connectionString) throw new Error('a second instance needs PostgreSQL');
  const db = openDatabase({ dataDir: first.database.dataDir, databaseUrl: connectionString });
  const database: TestDatabase = { db, dataDir: first.database.dataDir, destroy: () => db.close() };
  return buildTestApp(database, { ...options, ownsDatabase: false });
}

async function buildTestApp(
  database: TestDatabase,
  options: {
    env?: Record<string, string>;
    webDistDir?: string;
    ownsDatabase: boolean;
    cacheBus?: (db: Db, logger: Logger) => CacheBus;
  },
): Promise<TestApp> {
  const { env = {}, webDistDir } = options;
  const loaded = loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'debug', ...env });
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const clock = new TestClock();
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const { app, services } = createApp({
    config: loaded.config,
    db: database.db,
    clock,
    logger,
    secretKey: 'test-secret-key-0123456789abcdef0123456789',
    webDistDir,
    cacheBus: options.cacheBus?.(database.db, logger),
  });
  if (options.ownsDatabase) {
    await services.auth.ensureInitialAdmin(ADMIN.username, ADMIN.password);
    await services.storageConfigs.ensureDefault();
  }

  const request = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return Promise.resolve(
      app.request(path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body }),
    );
  };
  const jsonRequest = async (path: string, init?: RequestInit & { json?: unknown }) => {
    const res = await request(path, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, res };
  };

  const testApp: TestApp = {
    request,
    json: jsonRequest,
    fetch: app.fetch,
    clock,
    logLines,
    database,
    config: loaded.config,
    services,
    routes: app.routes,
    async adminToken() {
      const { body } = await jsonRequest('/api/admin/login', { method: 'POST', json: ADMIN });
      return body.data.token as string;
    },
    async createKey(keyBody) {
      const token = await testApp.adminToken();
      const { status, body } = await jsonRequest('/api/admin/api-keys', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        json: { expires_at: 'never', ...keyBody },
      });
      if (status !== 201) throw new Error(`createKey failed: ${status} ${JSON.stringify(body)}`);
      return { id: body.data.id, key: body.data.key };
    },
    async close() {
      await services.cacheBus.close();
      await services.storageConfigs.close();
      await database.destroy();
    },
  };
  return testApp;
}

/**
 * A local-disk storage config (a fresh folder in the test's data dir) mounted at `mountPath`, made
 * through the admin routes as an admin would; answers their ids.
 */
export async function mountLocalDisk(
  t: TestApp,
  admin: Record<string, string>,
  mountPath = '/',
): Promise<{ configId: string; mountId: string }> {
  const config = await t.json('/api/s3-configs', {
    method: 'POST',
    headers: admin,
    json: { name: 'disk', provider_type: 'Local', root_path: `${t.database.dataDir}/disk-${randomUUID()}` },
  });
  if (config.status !== 201) throw new Error(`storage config: ${JSON.stringify(config.body)}`);
  const mount = await t.json('/api/admin/mounts', {
    method: 'POST',
    headers: admin,
    json: {
      name: mountPath === '/' ? 'root' : mountPath.slice(1),
      mount_path: mountPath,
      storage_config_id: config.body.data.id,
    },
  });
  if (mount.status !== 201) throw new Error(`mount: ${JSON.stringify(mount.body)}`);
  return { configId: config.body.data.id, mountId: mount.body.data.id };
}

/** tus Upload-Metadata from plain values. */
export function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const apiKey = (key: string) => ({ Authorization: `ApiKey ${key}` });
/** HTTP Basic, as WebDAV clients sign in (a username with a password, app password or key). */
export const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/**
 * Turns the admin's two-factor rule off behind the app's back: once it requires two factors of
 * everyone, the admin would have to set them up before changing any setting.
 */
export async function turnOffTwoFactorRule(t: TestApp): Promise<void> {
  await t.database.db.kysely
    .updateTable('settings')
    .set({ value: 'off' })
    .where('key', '=', 'require_two_factor')
    .execute();
}

/** A `files` row to insert directly: a ready, unprotected share unless `fields` say otherwise. */
export function fileRow(fields: Partial<FilesTable> & Pick<FilesTable, 'storage_config_id'>): FilesTable {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    slug: `f${randomBytes(5).toString('hex')}`,
    filename: 'a.txt',
    storage_path: '/a.txt',
    mimetype: 'text/plain',
    size: 3,
    etag: null,
    status: 'ready',
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: 0,
    views: 0,
    use_proxy: 1,
    keep_object: 0,
    source: 'share',
    created_by: null,
    owner_id: null,
    revoked_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/** A `storage_configs` row to insert directly: a local-disk config without a quota unless `fields` say otherwise. */
export function storageConfigRow(fields: Partial<StorageConfigsTable> = {}): StorageConfigsTable {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    name: 'disk',
    driver: 'local',
    provider_type: 'Local',
    settings: '{}',
    secrets: null,
    is_public: 0,
    is_default: 0,
    total_storage_bytes: null,
    signature_expires_in: 3600,
    admin_id: null,
    created_at: now,
    updated_at: now,
    last_used: null,
    ...fields,
  };
}

/** A `mounts` row to insert directly: an active mount at `mount_path`, named after it. */
export function mountRow(
  fields: Partial<MountsTable> & Pick<MountsTable, 'storage_config_id' | 'mount_path'>,
): MountsTable {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    name: fields.mount_path,
    remark: null,
    is_active: 1,
    sort_order: 0,
    cache_ttl: 300,
    link_policy: 'proxy',
    custom_host: null,
    created_by: null,
    created_at: now,
    updated_at: now,
    last_used: null,
    ...fields,
  };
}
