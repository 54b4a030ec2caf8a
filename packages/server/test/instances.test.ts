/**
 * Several instances on one PostgreSQL database (and one radosgw), as behind a load balancer: two
 * apps, each with its own pool, clock, log and cache listener. Failed guesses are limited as one;
 * periodic jobs run once per interval across both and are taken over when one stops or dies; what
 * one instance changes (a setting, a storage config, a mount, an API key, a file) is seen through
 * the other at once, cached listings included; with its listener cut an instance says `degraded`,
 * keeps listings only briefly, and clears them when it listens again. SQLite: one instance, `local`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { type Job, startJobs } from '../src/jobs.ts';
import { createCacheBus, DEGRADED_TTL_MS, newInstanceId } from '../src/lib/cache-bus.ts';
import { hashPassword } from '../src/lib/crypto.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createTestDatabase } from './support/databases.ts';
import { createBucket, deleteBucket, s3AdminClient, s3ConfigBody, S3_SKIP } from './support/s3.ts';
import { freePort, startServer, waitFor } from './support/server-process.ts';
import {
  ADMIN,
  apiKey,
  bearer,
  createSecondInstance,
  createTestApp,
  fileRow,
  type TestApp,
} from './support/test-app.ts';

/** Polls `check` until it holds; fails after `timeoutMs`. Returns how long it took. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(10);
  }
  return performance.now() - start;
}

const quiet = createLogger('silent');

const cacheState = async (t: TestApp) => (await t.json('/api/health')).body.data.cache as string;
const listening = (t: TestApp) => eventually(async () => (await cacheState(t)) === 'ok', 5000, 'listening');

/** Kills an instance's connection named `cubby <what> <instance>` from the server side. */
async function terminate(db: Db, name: string): Promise<number> {
  const { rows } = await sql<{ done: boolean }>`
    select pg_terminate_backend(pid) as done from pg_stat_activity
    where application_name = ${name.slice(0, 63)} and datname = current_database()`.execute(db.kysely);
  return rows.filter((r) => r.done).length;
}

/** A storage config on `bucket` and a mount of it at `mountPath` with a long cache time, made through `t`. */
async function mountBucket(t: TestApp, headers: Record<string, string>, bucket: string, mountPath: string) {
  const config = await t.json('/api/s3-configs', {
    method: 'POST',
    headers,
    json: s3ConfigBody(`Bucket ${bucket}`, bucket),
  });
  assert.equal(config.status, 201, JSON.stringify(config.body));
  const mount = await t.json('/api/admin/mounts', {
    method: 'POST',
    headers,
    json: {
      name: mountPath,
      storage_type: 'S3',
      storage_config_id: config.body.data.id,
      mount_path: mountPath,
      cache_ttl: 3600,
    },
  });
  assert.equal(mount.status, 201, JSON.stringify(mount.body));
  return { configId: config.body.data.id as string, mountId: mount.body.data.id as string };
}

describe('several instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await createTestApp('postgres', { TRUST_PROXY: '1' });
    b = await createSecondInstance(a, { env: { TRUST_PROXY: '1' } });
    await Promise.all([listening(a), listening(b)]);
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  describe('failed guesses are limited as one', () => {
    it('10 wrong logins spread over both: the 11th is refused on either, even with the right password', async () => {
      const login = (t: TestApp, password: string, ip = '203.0.113.50') =>
        t.json('/api/admin/login', {
          method: 'POST',
          json: { username: ADMIN.username, password },
          headers: { 'X-Forwarded-For': ip },
        });
      for (let i = 0; i < 10; i++) {
        assert.equal((await login(i % 2 ? b : a, `wrong-${i}`)).status, 401, `attempt ${i}`);
      }
      for (const t of [a, b]) {
        const refused = await login(t, ADMIN.password);
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.res.headers.get('retry-after')) > 0);
      }
      assert.equal((await login(b, ADMIN.password, '203.0.113.51')).status, 200, 'another address is apart');
    });

    it('40 simultaneous wrong paste and file-share passwords over both: exactly 5 of each are evaluated', async () => {
      const admin = bearer(await a.adminToken());
      const paste = await a.json('/api/paste', {
        method: 'POST',
        headers: admin,
        json: { content: 'guarded', password: 'right-one' },
      });
      assert.equal(paste.status, 201);
      const config = (await a.services.storageConfigs.repo.findDefault())!;
      const file = fileRow({ storage_config_id: config.id, password_hash: await hashPassword('right-one') });
      await a.database.db.kysely.insertInto('files').values(file).execute();

      const guess = (i: number, path: string) =>
        (i % 2 ? b : a).json(path, {
          method: 'POST',
          json: { password: `wrong-${i}` },
          headers: { 'X-Forwarded-For': '192.0.2.77' },
        });
      for (const [path, wrongStatus] of [
        [`/api/paste/${paste.body.data.slug}`, 401],
        [`/api/public/files/${file.slug}/verify`, 401],
      ] as const) {
        const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => guess(i, path)));
        const statuses = answers.map((x) => x.status);
        assert.equal(statuses.filter((s) => s === wrongStatus).length, 5, `${path}: ${statuses.join(',')}`);
        assert.equal(statuses.filter((s) => s === 429).length, 35, path);
        // Both instances evaluated guesses and refused others: the count is one.
        assert.ok(answers.some((x, i) => i % 2 === 1 && x.status === 429));
        assert.ok(answers.some((x, i) => i % 2 === 0 && x.status === 429));
      }
      const rows = await a.database.db.kysely
        .selectFrom('attempt_counters')
        .select(['rule', 'key', 'count'])
        .where('key', 'like', '%192.0.2.77')
        .execute();
      assert.deepEqual(
        rows.filter((r) => r.rule === 'share password per share and address').map((r) => r.count),
        [5, 5],
        'refused guesses counted nowhere',
      );
    });
  });

  describe('periodic jobs', () => {
    const INTERVAL = 300;

    /** A job that notes who ran it, when, and whether two runs ever overlapped. */
    function countingJob(name: string) {
      const runs: Array<{ instance: string; at: number }> = [];
      let active = 0;
      let overlapped = false;
      const make = (instance: string, hold?: () => Promise<void>): Job => ({
        name,
        everyMs: 3600_000,
        async run() {
          active++;
          if (active > 1) overlapped = true;
          runs.push({ instance, at: performance.now() });
          // Work that takes a while, so overlaps would show.
          await (hold ? hold() : sleep(20));
          active--;
          return 0;
        },
      });
      return { name, runs, make, overlapped: () => overlapped };
    }

    const runner = (t: TestApp, instance: string, job: Job, firstDelayMs = 0) =>
      startJobs(
        { db: t.database.db, clock: systemClock, logger: quiet, instance, everyMs: INTERVAL, firstDelayMs },
        [job],
      );

    it('run once per interval across two instances, and on the other alone when one stops', async () => {
      const job = countingJob(`count ${randomUUID()}`);
      const onA = runner(a, 'A', job.make('A'));
      const onB = runner(b, 'B', job.make('B'), INTERVAL / 2);
      await sleep(INTERVAL * 10 + 100);
      await onA.stop();
      const together = job.runs.length;
      // Ten intervals: ten runs at most (fewer when timers drift on a busy machine), never twenty.
      assert.ok(together >= 6 && together <= 11, `${together} runs in 10 intervals`);
      const gaps = job.runs.slice(1).map((r, i) => r.at - job.runs[i]!.at);
      assert.ok(
        gaps.every((g) => g >= INTERVAL * 0.9),
        `runs closer than the interval: ${gaps.map(Math.round).join(',')}`,
      );
      assert.ok(!job.overlapped(), 'two runs at once');
      const recorded = await a.database.db.kysely
        .selectFrom('job_runs')
        .selectAll()
        .where('name', '=', job.name)
        .executeTakeFirstOrThrow();
      assert.equal(recorded.runs, job.runs.length, 'job_runs counts every run');

      // A stopped: B runs it on its own, still once per interval.
      const before = job.runs.length;
      await sleep(INTERVAL * 8 + 100);
      await onB.stop();
      const alone = job.runs.slice(before);
      assert.ok(alone.length >= 5 && alone.length <= 9, `${alone.length} runs in 8 intervals on B`);
      assert.ok(alone.every((r) => r.instance === 'B'));
    });

    it('is not started twice while one instance runs it, and is taken over when that instance dies', async () => {
      const job = countingJob(`long ${randomUUID()}`);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const instanceA = `A-${newInstanceId()}`;
      const onA = runner(
        a,
        instanceA,
        job.make('A', () => held),
      );
      await eventually(async () => job.runs.length === 1, 2000, 'A starts the job');
      const onB = runner(b, 'B', job.make('B'));
      // Long past its interval, but A still runs it: B's ticks find the lock taken.
      await sleep(INTERVAL * 4);
      assert.deepEqual(
        job.runs.map((r) => r.instance),
        ['A'],
      );
      // A dies: its lock connection goes, and with it the lock.
      assert.equal(await terminate(b.database.db, `cubby jobs ${instanceA}`), 1);
      await eventually(async () => job.runs.some((r) => r.instance === 'B'), 2000, 'B takes over');
      const row = await b.database.db.kysely
        .selectFrom('job_runs')
        .selectAll()
        .where('name', '=', job.name)
        .executeTakeFirstOrThrow();
      assert.equal(row.instance, 'B');
      release();
      await Promise.all([onA.stop(), onB.stop()]);
    });
  });

  describe('caches follow changes made through the other instance', { skip: S3_SKIP }, () => {
    const client = s3AdminClient();
    let bucket: string;
    let adminA: Record<string, string>;
    let adminB: Record<string, string>;
    let configId: string;
    let mountId: string;
    /** How long each change took to show through B, for the report. */
    const delays: Record<string, number> = {};

    before(async () => {
      bucket = await createBucket(client, 'cubby-instances');
      a.clock.followRealTime();
      b.clock.followRealTime();
      adminA = bearer(await a.adminToken());
      adminB = bearer(await b.adminToken());
      ({ configId, mountId } = await mountBucket(a, adminA, bucket, '/shared'));
    });
    after(async () => {
      await deleteBucket(client, bucket);
      console.log(`# seen through the other instance after (ms): ${JSON.stringify(delays)}`);
    });

    const names = async (t: TestApp, path: string, headers: Record<string, string>) => {
      const res = await t.json(`/api/admin/fs/list?path=${encodeURIComponent(path)}`, { headers });
      return res.status === 200 ? (res.body.data.items as Array<{ name: string }>).map((i) => i.name) : [];
    };
    const write = async (path: string, content: string) => {
      const res = await a.json('/api/admin/fs/update', {
        method: 'POST',
        headers: adminA,
        json: { path, content },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const cacheHits = async (t: TestApp, headers: Record<string, string>) =>
      (await t.json('/api/admin/cache/stats', { headers })).body.data.cache.directory.hits as number;

    it('a file written through A is listed through B at once, though B had the folder cached', async () => {
      await write('/shared/docs/first.txt', 'one');
      assert.deepEqual(await names(b, '/shared/docs/', adminB), ['first.txt']);
      // B caches what it listed and answers the next listing from the cache. A's note of the write
      // may reach B only after B listed (the bus is asynchronous) and make it forget that listing
      // once, so a hit is waited for rather than expected of the very next listing.
      await eventually(
        async () => {
          const hits = await cacheHits(b, adminB);
          assert.deepEqual(await names(b, '/shared/docs/', adminB), ['first.txt']);
          return (await cacheHits(b, adminB)) === hits + 1;
        },
        1000,
        'B answers the folder from its cache',
      );
      await write('/shared/docs/second.txt', 'two');
      delays.file = await eventually(
        async () => (await names(b, '/shared/docs/', adminB)).includes('second.txt'),
        1000,
        'the new file through B',
      );
    });

    it('a storage config changed through A is used by B at once (driver and listings)', async () => {
      await write('/shared/inner/deep.txt', 'x');
      assert.deepEqual(await names(b, '/shared/', adminB), ['docs', 'inner']);
      const changed = await a.json(`/api/s3-configs/${configId}`, {
        method: 'PUT',
        headers: adminA,
        json: { default_folder: 'inner' },
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      delays.storageConfig = await eventually(
        async () => (await names(b, '/shared/', adminB)).join() === 'deep.txt',
        1000,
        'B lists the new root folder',
      );
      await a.json(`/api/s3-configs/${configId}`, {
        method: 'PUT',
        headers: adminA,
        json: { default_folder: '' },
      });
      await eventually(async () => (await names(b, '/shared/', adminB)).includes('docs'), 1000, 'back');
    });

    it('a mount changed through A is seen through B at once', async () => {
      assert.ok((await names(b, '/', adminB)).includes('shared'));
      const moved = await a.json(`/api/admin/mounts/${mountId}`, {
        method: 'PUT',
        headers: adminA,
        json: { mount_path: '/moved' },
      });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      delays.mount = await eventually(
        async () => (await names(b, '/moved/docs/', adminB)).includes('second.txt'),
        1000,
        'the mount at its new path through B',
      );
      assert.ok(!(await names(b, '/', adminB)).includes('shared'));
      await a.json(`/api/admin/mounts/${mountId}`, {
        method: 'PUT',
        headers: adminA,
        json: { mount_path: '/shared' },
      });
    });

    it('a setting and an API key changed through A hold on B at the next request', async () => {
      const set = await a.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: adminA,
        json: { max_upload_size: 7, max_upload_size_unit: 'MB' },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal((await b.json('/api/system/max-upload-size')).body.data.max_upload_size, 7);

      const key = await a.createKey({ name: `k-${randomUUID().slice(0, 8)}`, text_permission: true });
      const paste = () =>
        b.json('/api/paste', { method: 'POST', headers: apiKey(key.key), json: { content: 'x' } });
      assert.equal((await paste()).status, 201);
      assert.equal(
        (await a.json(`/api/admin/api-keys/${key.id}`, { method: 'DELETE', headers: adminA })).status,
        200,
      );
      assert.equal((await paste()).status, 401);
    });

    it('a cache cleared through A is cleared on B', async () => {
      assert.deepEqual(await names(b, '/shared/docs/', adminB), ['first.txt', 'second.txt']);
      const stats = await b.json('/api/admin/cache/stats', { headers: adminB });
      assert.ok(stats.body.data.cache.directory.cacheSize > 0);
      await a.json('/api/admin/cache/clear', { method: 'POST', headers: adminA, json: {} });
      await eventually(
        async () =>
          (await b.json('/api/admin/cache/stats', { headers: adminB })).body.data.cache.directory
            .cacheSize === 0,
        1000,
        'B cleared',
      );
    });

    it('a folder made deep through A is listed by B in every folder above it that B had cached', async () => {
      assert.ok(!(await names(b, '/shared/', adminB)).includes('deep'));
      assert.ok(!(await names(b, '/shared/docs/', adminB)).includes('new'));
      await write('/shared/docs/new/er/file.txt', 'x');
      const made = await a.json('/api/admin/fs/mkdir', {
        method: 'POST',
        headers: adminA,
        json: { path: '/shared/deep/a/b' },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      delays.nested = await eventually(
        async () =>
          (await names(b, '/shared/', adminB)).includes('deep') &&
          (await names(b, '/shared/docs/', adminB)).includes('new'),
        1000,
        'the new folders through B',
      );
    });
  });
});

describe('an instance whose cache listener is cut', { skip: S3_SKIP }, () => {
  const RECONNECT_MS = 3000;
  const client = s3AdminClient();
  let a: TestApp;
  let b: TestApp;
  let bucket: string;
  let instanceB: string;
  before(async () => {
    a = await createTestApp('postgres');
    instanceB = newInstanceId();
    // B waits a few seconds before it listens again, so its degraded state can be looked at.
    b = await createSecondInstance(a, {
      cacheBus: (db, logger) => createCacheBus(db, instanceB, logger, { retryMinMs: RECONNECT_MS }),
    });
    await Promise.all([listening(a), listening(b)]);
    bucket = await createBucket(client, 'cubby-degraded');
  });
  after(async () => {
    await b.close();
    await a.close();
    await deleteBucket(client, bucket);
  });

  it('says degraded, keeps listings only briefly, clears them and says ok once it listens again', async () => {
    const adminA = bearer(await a.adminToken());
    const adminB = bearer(await b.adminToken());
    await mountBucket(a, adminA, bucket, '/b');
    const names = async () =>
      (
        (await b.json('/api/admin/fs/list?path=/b/', { headers: adminB })).body.data.items as Array<{
          name: string;
        }>
      )
        .map((i) => i.name)
        .sort();
    const write = async (name: string) =>
      assert.equal(
        (
          await a.json('/api/admin/fs/update', {
            method: 'POST',
            headers: adminA,
            json: { path: `/b/${name}`, content: name },
          })
        ).status,
        200,
      );

    assert.equal(await terminate(a.database.db, `cubby cache ${instanceB}`), 1);
    await eventually(async () => (await cacheState(b)) === 'degraded', 1000, 'B says degraded');
    const health = await b.json('/api/health');
    assert.equal(health.status, 200, 'still serving');
    assert.equal(health.body.data.database, 'ok');
    assert.equal(await cacheState(a), 'ok', 'A still listens');

    assert.deepEqual(await names(), []);
    await write('one.txt');
    await a.services.cacheBus.flush();
    assert.deepEqual(await names(), [], 'B missed the note: its listing is stale for now');
    b.clock.advance(DEGRADED_TTL_MS + 1);
    assert.deepEqual(await names(), ['one.txt'], 'but kept only briefly');
    await write('two.txt');
    assert.deepEqual(await names(), ['one.txt'], 'stale again');

    await eventually(async () => (await cacheState(b)) === 'ok', RECONNECT_MS + 3000, 'B listens again');
    assert.deepEqual(await names(), ['one.txt', 'two.txt'], 'what was cached while deaf is gone');
    await write('three.txt');
    await eventually(async () => (await names()).includes('three.txt'), 1000, 'notes arrive again');
  });
});

describe('one instance on SQLite', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('says its cache is local', async () => {
    assert.equal(await cacheState(t), 'local');
  });

  it('runs a job once per interval and records it in job_runs', async () => {
    let runs = 0;
    const name = `sqlite ${randomUUID()}`;
    const jobs = startJobs(
      {
        db: t.database.db,
        clock: systemClock,
        logger: quiet,
        instance: 'one',
        everyMs: 200,
        firstDelayMs: 0,
      },
      [
        {
          name,
          everyMs: 3600_000,
          run: async () => {
            runs++;
            return 0;
          },
        },
      ],
    );
    await sleep(1100);
    await jobs.stop();
    assert.ok(runs >= 3 && runs <= 6, `${runs} runs in 5.5 intervals`);
    const row = await t.database.db.kysely
      .selectFrom('job_runs')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    assert.equal(row.runs, runs);
    assert.equal(row.instance, 'one');
    assert.ok(row.last_finished_at! >= row.last_started_at);
  });
});

describe('two server processes on one PostgreSQL database', () => {
  it('run each periodic job once per interval between them (JOB_INTERVAL_SECONDS=1)', async () => {
    const database = await createTestDatabase('postgres');
    const env = async () => ({
      DATABASE_URL: database.db.connectionString!,
      DATA_DIR: database.dataDir,
      SECRET_KEY: 's'.repeat(40),
      ADMIN_PASSWORD: 'long-enough',
      LOG_LEVEL: 'warn',
      JOB_INTERVAL_SECONDS: '1',
      PORT: String(await freePort()),
    });
    // The first creates the schema and the admin; then the second joins it.
    const first = startServer(await env());
    await waitFor(first, (out) => out.includes('Cubby is serving'));
    const second = startServer(await env());
    const procs = [first, second];
    try {
      await waitFor(second, (out) => out.includes('Cubby is serving'));
      // Counted from the moment both run (the first ran on its own while the second started, for
      // as long as that took on a busy machine).
      const runsNow = async () =>
        new Map(
          (await database.db.kysely.selectFrom('job_runs').selectAll().execute()).map((r) => [
            r.name,
            r.runs,
          ]),
        );
      const before = await runsNow();
      const started = performance.now();
      await sleep(4500);
      const after = await runsNow();
      const seconds = (performance.now() - started) / 1000;
      // Every periodic job the server starts (main.ts names them) ran, each on its own schedule.
      assert.deepEqual([...after.keys()].sort(), startedJobNames());
      for (const [name, runs] of after) {
        // Once a second between the two; never twice.
        const between = runs - (before.get(name) ?? 0);
        assert.ok(
          between >= 3 && between <= Math.ceil(seconds) + 1,
          `${name}: ${between} runs in ${seconds} s`,
        );
      }
    } finally {
      for (const proc of procs) proc.child.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.exited));
      await database.destroy();
    }
  });
});

/** The names of the periodic jobs main.ts starts (its `startJobs` list), sorted. */
function startedJobNames(): string[] {
  const main = readFileSync(new URL('../src/main.ts', import.meta.url), 'utf8');
  const list = main.slice(main.indexOf('startJobs('));
  return [...list.matchAll(/\bname: '([^']+)'/g)].map((m) => m[1]!).sort();
}
