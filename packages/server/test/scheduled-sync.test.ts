/**
 * Scheduled sync (/api/admin/scheduled/jobs) on both databases, between two local-disk storages
 * (so every copy streams from one driver into the other): a dry run lists exactly what would change
 * and writes nothing; a run copies new and changed files, skips unchanged ones, deletes extras only
 * when asked; the history counts files and bytes; cancel stops a run midway with nothing half-written;
 * the scheduler starts a due job once even when two ticks (two instances on PostgreSQL) race; a run
 * left by a dead process is failed; bad input is refused with a clear message; only admins get in,
 * and a run acts as an active admin only. Between two radosgw buckets, equal-size files are told apart
 * by their ETags (the content's MD5), not their times.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, mountBucket, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { freePort, startServer, waitFor } from './support/server-process.ts';
import {
  ADMIN,
  apiKey,
  bearer,
  createSecondInstance,
  createTestApp,
  type TestApp,
} from './support/test-app.ts';

const JOBS = '/api/admin/scheduled/jobs';
const OLD = new Date('2020-01-01T00:00:00Z');
const OLDER = new Date('2019-01-01T00:00:00Z');

/** Writes a file below `root` with the given modification time. */
function put(root: string, rel: string, content: string, mtime = OLD) {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.utimesSync(file, mtime, mtime);
}

for (const dialect of DIALECTS) {
  describe(`scheduled sync (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let srcRoot: string;
    let dstRoot: string;

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = { ...bearer(await t.adminToken()), 'X-Cubby-Lang': 'en' };
      srcRoot = `${t.database.dataDir}/sync-src-${randomUUID()}`;
      dstRoot = `${t.database.dataDir}/sync-dst-${randomUUID()}`;
      for (const [mountPath, root] of [
        ['/src', srcRoot],
        ['/dst', dstRoot],
      ] as const) {
        fs.mkdirSync(root, { recursive: true });
        const config = await t.json('/api/s3-configs', {
          method: 'POST',
          headers: admin,
          json: { name: mountPath, provider_type: 'Local', root_path: root },
        });
        assert.equal(config.status, 201, JSON.stringify(config.body));
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: {
            name: mountPath,
            mount_path: mountPath,
            storage_config_id: config.body.data.id,
            cache_ttl: 300,
          },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
      }
    });
    after(async () => {
      await t.services.scheduledSync.stopAll();
      await t.close();
    });

    async function createJob(body: Record<string, unknown>) {
      const res = await t.json(JOBS, {
        method: 'POST',
        headers: admin,
        json: { name: 'mirror', scheduleType: 'interval', intervalSec: 3600, ...body },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.taskId as string;
    }

    async function runNow(taskId: string, dryRun = false) {
      const res = await t.json(`${JOBS}/${taskId}/run`, {
        method: 'POST',
        headers: admin,
        json: { dry_run: dryRun },
      });
      assert.equal(res.status, dryRun ? 200 : 202, JSON.stringify(res.body));
      return res.body.data;
    }

    /** Waits until the job's newest run has ended; answers it. */
    async function ended(taskId: string) {
      for (let i = 0; i < 500; i++) {
        const res = await t.json(`${JOBS}/${taskId}/runs?limit=1`, { headers: admin });
        const run = res.body.data.items[0];
        if (run && run.status !== 'running') return run;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the run did not end');
    }

    it('lists the changes in a dry run, copies new and changed files, skips the rest, deletes extras when asked', async () => {
      put(srcRoot, 'tree/new.txt', 'brand new');
      put(srcRoot, 'tree/docs/inner.txt', 'inside a new folder');
      put(srcRoot, 'tree/same.txt', 'same bytes');
      put(dstRoot, 'tree/same.txt', 'same bytes', OLD);
      put(srcRoot, 'tree/changed.txt', 'the longer new text');
      put(dstRoot, 'tree/changed.txt', 'old text');
      // Same size, but the source was modified after the target.
      put(srcRoot, 'tree/touched.txt', 'version 2', OLD);
      put(dstRoot, 'tree/touched.txt', 'version 1', OLDER);
      put(dstRoot, 'tree/extra.txt', 'only at the target');
      put(dstRoot, 'tree/old/stale.txt', 'a folder only at the target');

      const taskId = await createJob({ sourcePath: '/src/tree', targetPath: '/dst/tree' });
      const listed = await t.json(JOBS, { headers: admin });
      const job = listed.body.data.items.find((j: { taskId: string }) => j.taskId === taskId);
      assert.equal(job.sourcePath, '/src/tree');
      assert.equal(job.deleteExtra, false);
      assert.ok(job.nextRunAfter > new Date().toISOString(), 'the first run is an interval away');

      const dry = await runNow(taskId, true);
      assert.equal(dry.status, 'success');
      assert.equal(dry.dryRun, true);
      assert.deepEqual([...dry.changes.created].sort(), ['/dst/tree/docs/inner.txt', '/dst/tree/new.txt']);
      assert.deepEqual([...dry.changes.updated].sort(), ['/dst/tree/changed.txt', '/dst/tree/touched.txt']);
      assert.deepEqual(dry.changes.deleted, []);
      assert.deepEqual(
        { ...dry.counts },
        { copied: 2, updated: 2, deleted: 0, skipped: 1, failed: 0, bytes: 9 + 19 + 19 + 9 },
      );
      assert.equal(fs.existsSync(path.join(dstRoot, 'tree/new.txt')), false, 'a dry run writes nothing');
      assert.equal(fs.readFileSync(path.join(dstRoot, 'tree/changed.txt'), 'utf8'), 'old text');

      const started = await runNow(taskId);
      assert.equal(started.dryRun, false);
      const run = await ended(taskId);
      assert.equal(run.id, started.id);
      assert.equal(run.status, 'success', JSON.stringify(run.errors));
      assert.deepEqual(
        { ...run.counts },
        { copied: 2, updated: 2, deleted: 0, skipped: 1, failed: 0, bytes: 9 + 19 + 19 + 9 },
      );
      for (const rel of ['new.txt', 'docs/inner.txt', 'changed.txt', 'touched.txt', 'same.txt']) {
        assert.equal(
          fs.readFileSync(path.join(dstRoot, 'tree', rel), 'utf8'),
          fs.readFileSync(path.join(srcRoot, 'tree', rel), 'utf8'),
          rel,
        );
      }
      assert.ok(fs.existsSync(path.join(dstRoot, 'tree/extra.txt')), 'extras stay unless asked');
      // The listing of the target follows the copies (change events).
      const listing = await t.json('/api/admin/fs/list?path=/dst/tree', { headers: admin });
      assert.ok(listing.body.data.items.some((i: { name: string }) => i.name === 'new.txt'));

      // Nothing changed since: everything is skipped.
      await runNow(taskId);
      const again = await ended(taskId);
      assert.deepEqual(
        { ...again.counts },
        { copied: 0, updated: 0, deleted: 0, skipped: 5, failed: 0, bytes: 0 },
      );

      const put1 = await t.json(`${JOBS}/${taskId}`, {
        method: 'PUT',
        headers: admin,
        json: { deleteExtra: true },
      });
      assert.equal(put1.status, 200);
      assert.equal(put1.body.data.deleteExtra, true);
      const dryDelete = await runNow(taskId, true);
      assert.deepEqual([...dryDelete.changes.deleted].sort(), ['/dst/tree/extra.txt', '/dst/tree/old']);
      assert.ok(fs.existsSync(path.join(dstRoot, 'tree/extra.txt')));
      await runNow(taskId);
      const deleting = await ended(taskId);
      assert.equal(deleting.counts.deleted, 2);
      assert.equal(fs.existsSync(path.join(dstRoot, 'tree/extra.txt')), false);
      assert.equal(fs.existsSync(path.join(dstRoot, 'tree/old')), false);
      assert.ok(fs.existsSync(path.join(srcRoot, 'tree/new.txt')), 'the source is never touched');

      // History: newest first, bounded pages.
      const history = await t.json(`${JOBS}/${taskId}/runs?limit=3`, { headers: admin });
      assert.equal(history.status, 200);
      const items = history.body.data.items as Array<{
        id: string;
        dryRun: boolean;
        counts: { deleted: number };
      }>;
      assert.equal(items.length, 3);
      assert.equal(items[0]!.id, deleting.id);
      assert.equal(items[1]!.dryRun, true);
      const rest = await t.json(`${JOBS}/${taskId}/runs?limit=3&before=${history.body.data.nextBefore}`, {
        headers: admin,
      });
      assert.equal(rest.body.data.items.length, 2, 'five runs in all');
      assert.equal(rest.body.data.items[1].id, dry.id);

      const jobAfter = (await t.json(`${JOBS}/${taskId}`, { headers: admin })).body.data;
      assert.equal(jobAfter.lastRunStatus, 'success');
      assert.equal(jobAfter.runCount, 3, 'dry runs are not counted as runs');
      assert.equal(jobAfter.runningRunId, null);

      const audit = await t.json('/api/admin/audit?action=scheduled_job.create', { headers: admin });
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      assert.ok(audit.body.data.items.some((e: { target: string }) => e.target === taskId));
    });

    it('cancels a run midway: nothing half-written, the job free again', async () => {
      const count = 120;
      for (let i = 0; i < count; i++)
        put(srcRoot, `many/f${String(i).padStart(3, '0')}.bin`, `file ${i} `.repeat(200));
      const taskId = await createJob({ sourcePath: '/src/many', targetPath: '/dst/many' });
      await runNow(taskId);
      const twice = await t.json(`${JOBS}/${taskId}/run`, { method: 'POST', headers: admin, json: {} });
      assert.equal(twice.status, 409, 'a job never runs twice at once');
      const cancelled = await t.json(`${JOBS}/${taskId}/cancel`, { method: 'POST', headers: admin });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal(cancelled.body.data.status, 'cancelled');
      assert.ok(cancelled.body.data.counts.copied < count, `copied ${cancelled.body.data.counts.copied}`);
      const there = fs.existsSync(path.join(dstRoot, 'many'))
        ? fs.readdirSync(path.join(dstRoot, 'many'))
        : [];
      assert.ok(there.length < count);
      for (const name of there) {
        assert.equal(
          fs.readFileSync(path.join(dstRoot, 'many', name), 'utf8'),
          fs.readFileSync(path.join(srcRoot, 'many', name), 'utf8'),
          `${name} is whole`,
        );
      }
      const job = (await t.json(`${JOBS}/${taskId}`, { headers: admin })).body.data;
      assert.equal(job.runningRunId, null);
      assert.equal(job.lastRunStatus, 'cancelled');
      const none = await t.json(`${JOBS}/${taskId}/cancel`, { method: 'POST', headers: admin });
      assert.equal(none.status, 409);
      // The next run takes up the rest.
      await runNow(taskId);
      const rest = await ended(taskId);
      assert.equal(rest.status, 'success');
      assert.equal(rest.counts.copied + rest.counts.skipped, count);
      assert.equal(fs.readdirSync(path.join(dstRoot, 'many')).length, count);
      const removed = await t.json(`${JOBS}/${taskId}`, { method: 'DELETE', headers: admin });
      assert.equal(removed.status, 200);
      assert.equal((await t.json(`${JOBS}/${taskId}`, { headers: admin })).status, 404);
    });

    it(
      'a cancel through another instance stops the run where it goes on',
      { skip: dialect !== 'postgres' },
      async () => {
        const count = 400;
        for (let i = 0; i < count; i++)
          put(srcRoot, `far/f${String(i).padStart(3, '0')}.bin`, `file ${i} `.repeat(200));
        const taskId = await createJob({ sourcePath: '/src/far', targetPath: '/dst/far' });
        const second = await createSecondInstance(t);
        try {
          await runNow(taskId);
          // The run goes on in t; the cancel arrives at the second instance.
          const cancelled = await second.json(`${JOBS}/${taskId}/cancel`, { method: 'POST', headers: admin });
          assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
          assert.equal(cancelled.body.data.status, 'cancelled');
          assert.ok(cancelled.body.data.counts.copied < count, `copied ${cancelled.body.data.counts.copied}`);
          const job = (await second.json(`${JOBS}/${taskId}`, { headers: admin })).body.data;
          assert.equal(job.runningRunId, null);
          assert.equal(job.lastRunStatus, 'cancelled');
        } finally {
          await second.close();
        }
      },
    );

    it('starts a due job once, even when two ticks race', async () => {
      put(srcRoot, 'sched/a.txt', 'scheduled');
      const taskId = await createJob({
        name: 'every minute',
        sourcePath: '/src/sched',
        targetPath: '/dst/sched',
        intervalSec: 60,
      });
      const second = dialect === 'postgres' ? await createSecondInstance(t) : undefined;
      try {
        assert.equal(await t.services.scheduledSync.runDue(), 0, 'not due yet');
        t.clock.advance(61_000);
        second?.clock.followRealTime();
        second?.clock.advance(61_000);
        const other = second ?? t;
        const started = await Promise.all([
          t.services.scheduledSync.runDue(),
          other.services.scheduledSync.runDue(),
        ]);
        assert.equal(started[0] + started[1], 1, `started ${JSON.stringify(started)}`);
        let run: { trigger: string; status: string };
        for (;;) {
          run = (await t.json(`${JOBS}/${taskId}/runs`, { headers: admin })).body.data.items[0];
          if (run.status !== 'running') break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const runs = (await t.json(`${JOBS}/${taskId}/runs`, { headers: admin })).body.data.items;
        assert.equal(runs.length, 1);
        assert.equal(run.trigger, 'schedule');
        assert.equal(run.status, 'success');
        assert.equal(fs.readFileSync(path.join(dstRoot, 'sched/a.txt'), 'utf8'), 'scheduled');
        const job = (await t.json(`${JOBS}/${taskId}`, { headers: admin })).body.data;
        assert.ok(job.nextRunAfter > t.clock.now().toISOString(), 'the next run is an interval later');
        assert.equal(await t.services.scheduledSync.runDue(), 0);
        // Disabled jobs are never started.
        await t.json(`${JOBS}/${taskId}`, { method: 'PUT', headers: admin, json: { enabled: false } });
        t.clock.advance(120_000);
        assert.equal(await t.services.scheduledSync.runDue(), 0);
        assert.equal((await t.json(`${JOBS}/${taskId}`, { headers: admin })).body.data.nextRunAfter, null);
      } finally {
        await second?.services.scheduledSync.stopAll();
        await second?.close();
      }
    });

    it('fails a run whose process is gone and frees its job', async () => {
      const taskId = await createJob({ name: 'orphan', sourcePath: '/src/sched', targetPath: '/dst/orphan' });
      const runId = randomUUID();
      const now = t.clock.now().toISOString();
      await t.database.db.kysely
        .insertInto('scheduled_job_runs')
        .values({
          id: runId,
          job_id: taskId,
          trigger: 'schedule',
          dry_run: 0,
          status: 'running',
          copied: 0,
          updated: 0,
          deleted: 0,
          skipped: 0,
          failed: 0,
          bytes: 0,
          changes: '{"created":[],"updated":[],"deleted":[]}',
          errors: '[]',
          // A process of this machine that no longer exists.
          runner: 'ffffffffff.999999999.00000000'.replace(
            'ffffffffff',
            (await import('../src/lib/process-tag.ts')).THIS_PROCESS.machine,
          ),
          started_at: now,
          updated_at: now,
          finished_at: null,
        })
        .execute();
      await t.database.db.kysely
        .updateTable('scheduled_jobs')
        .set({ running_run_id: runId })
        .where('id', '=', taskId)
        .execute();
      assert.equal(
        (await t.json(`${JOBS}/${taskId}/run`, { method: 'POST', headers: admin, json: {} })).status,
        409,
      );
      assert.equal(await t.services.scheduledSync.failOrphans(), 1);
      const run = (await t.json(`${JOBS}/${taskId}/runs`, { headers: admin })).body.data.items[0];
      assert.equal(run.status, 'failed');
      assert.match(run.errors[0].message, /interrupted/);
      assert.equal((await t.json(`${JOBS}/${taskId}`, { headers: admin })).body.data.runningRunId, null);
    });

    it('refuses bad input with a clear message', async () => {
      put(srcRoot, 'valid/x.txt', 'x');
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ scheduleType: 'cron', cronExpression: '61 * * * *' }, /cron expression/],
        [{ scheduleType: 'cron', cronExpression: '*/5 * * * * *' }, /five fields/],
        [{ scheduleType: 'cron', cronExpression: null }, /cron expression/],
        [{ intervalSec: 30 }, /at least 60/],
        [{ sourcePath: '/src/no-such-folder' }, /source folder does not exist/],
        [{ sourcePath: '/src/valid/x.txt' }, /not a folder/],
        [{ targetPath: '/src/valid/inside' }, /inside each other/],
        [{ sourcePath: '/src', targetPath: '/src/valid' }, /inside each other/],
        [{ targetPath: '/nowhere/at-all' }, /./],
        [{ name: '' }, /name/],
      ];
      for (const [fields, message] of cases) {
        const res = await t.json(JOBS, {
          method: 'POST',
          headers: admin,
          json: {
            name: 'bad',
            sourcePath: '/src/valid',
            targetPath: '/dst/valid',
            scheduleType: 'interval',
            intervalSec: 3600,
            ...fields,
          },
        });
        assert.ok(res.status === 400 || res.status === 404, `${JSON.stringify(fields)}: ${res.status}`);
        assert.match(res.body.message, message, JSON.stringify(fields));
      }
      const cron = await t.json(JOBS, {
        method: 'POST',
        headers: admin,
        json: {
          name: 'nightly',
          sourcePath: '/src/valid',
          targetPath: '/dst/valid',
          scheduleType: 'cron',
          cronExpression: '30 2 * * *',
        },
      });
      assert.equal(cron.status, 201, JSON.stringify(cron.body));
      assert.match(cron.body.data.nextRunAfter, /T02:30:00/);
      const bad = await t.json(`${JOBS}/${cron.body.data.taskId}`, {
        method: 'PUT',
        headers: admin,
        json: { cronExpression: 'not a cron' },
      });
      assert.equal(bad.status, 400);
    });

    it('runs as the admin who saved the job, while that account is an active admin', async () => {
      put(srcRoot, 'owned/a.txt', 'owned');
      const taskId = await createJob({ name: 'owned', sourcePath: '/src/owned', targetPath: '/dst/owned' });
      await t.database.db.kysely
        .updateTable('scheduled_jobs')
        .set({ owner_id: randomUUID() })
        .where('id', '=', taskId)
        .execute();
      await runNow(taskId);
      const refused = await ended(taskId);
      assert.equal(refused.status, 'failed');
      assert.match(refused.errors[0].message, /no longer has an active admin account/);
      assert.equal(fs.existsSync(path.join(dstRoot, 'owned/a.txt')), false);
      // Saved again by an admin, it runs as that admin.
      await t.json(`${JOBS}/${taskId}`, { method: 'PUT', headers: admin, json: {} });
      await runNow(taskId);
      assert.equal((await ended(taskId)).status, 'success');
      assert.equal(fs.readFileSync(path.join(dstRoot, 'owned/a.txt'), 'utf8'), 'owned');
    });

    it('tells equal-size files apart by ETag between two buckets', { skip: S3_SKIP }, async () => {
      const client = s3AdminClient();
      const buckets = [
        await createBucket(client, 'cubby-sync-a'),
        await createBucket(client, 'cubby-sync-b'),
      ];
      try {
        await mountBucket(t, admin, buckets[0]!, '/s3a');
        await mountBucket(t, admin, buckets[1]!, '/s3b');
        const object = (bucket: string, key: string, body: string) =>
          client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
        await object(buckets[0]!, 'e/same.txt', 'AAAA');
        await object(buckets[0]!, 'e/differs.txt', 'BBBB');
        // Written after the source: by time alone the target would look up to date.
        await object(buckets[1]!, 'e/same.txt', 'AAAA');
        await object(buckets[1]!, 'e/differs.txt', 'CCCC');
        const taskId = await createJob({ name: 'buckets', sourcePath: '/s3a/e', targetPath: '/s3b/e' });
        const dry = await runNow(taskId, true);
        assert.deepEqual(dry.changes.updated, ['/s3b/e/differs.txt']);
        assert.equal(dry.counts.skipped, 1);
        await runNow(taskId);
        const run = await ended(taskId);
        assert.equal(run.status, 'success', JSON.stringify(run.errors));
        assert.deepEqual(
          { updated: run.counts.updated, skipped: run.counts.skipped },
          { updated: 1, skipped: 1 },
        );
        const read = await t.request('/api/admin/fs/download?path=/s3b/e/differs.txt', { headers: admin });
        assert.equal(await read.text(), 'BBBB');
      } finally {
        for (const bucket of buckets) await deleteBucket(client, bucket);
      }
    });

    // Last of the suite: after a shutdown the service starts nothing more.
    it('a shutdown stops a run and records it failed (interrupted), never done', async () => {
      const taskId = await createJob({
        name: 'shutdown',
        sourcePath: '/src/many',
        targetPath: '/dst/shutdown',
      });
      await runNow(taskId);
      await t.services.scheduledSync.stopAll();
      const run = (await t.json(`${JOBS}/${taskId}/runs`, { headers: admin })).body.data.items[0];
      assert.equal(run.status, 'failed');
      assert.match(run.errors.at(-1).message, /interrupted/);
      assert.ok(run.counts.copied < 120, `copied ${run.counts.copied}`);
      const job = (await t.json(`${JOBS}/${taskId}`, { headers: admin })).body.data;
      assert.equal(job.runningRunId, null);
      assert.equal(job.lastRunStatus, 'failed');
    });

    it('is for admins only', async () => {
      const key = apiKey(
        (await t.createKey({ name: 'keyed', mount_permission: true, file_permission: true })).key,
      );
      for (const [method, url] of [
        ['GET', JOBS],
        ['POST', JOBS],
        ['GET', `${JOBS}/x/runs`],
        ['POST', `${JOBS}/x/run`],
      ] as const) {
        for (const headers of [key, {}]) {
          const res = await t.request(url, { method, headers, ...(method === 'POST' ? { json: {} } : {}) });
          assert.ok(res.status === 401 || res.status === 403, `${method} ${url}: ${res.status}`);
        }
      }
    });
  });
}

describe('scheduled sync in the server process', () => {
  it('the "scheduled-sync" job of main.ts starts a job once it is due', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-sync-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // The test hooks move the server's clock; JOB_INTERVAL_SECONDS ticks every job each second.
    const server = startServer({
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD: ADMIN.password,
      CUBBY_TEST_HOOKS: '1',
      JOB_INTERVAL_SECONDS: '1',
    });
    try {
      await waitFor(server, (out) => out.includes('Cubby is serving'));
      const login = await fetch(`${origin}/api/admin/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const auth = bearer(((await login.json()) as { data: { token: string } }).data.token);
      const call = async (route: string, body?: unknown) => {
        const res = await fetch(`${origin}/api${route}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const answer = (await res.json()) as {
          data: Record<string, unknown> & { items: Array<Record<string, unknown>> };
        };
        assert.ok(res.ok, `${route}: ${res.status} ${JSON.stringify(answer)}`);
        return answer.data;
      };
      for (const name of ['from', 'to']) {
        fs.mkdirSync(path.join(dataDir, name));
        const config = await call('/s3-configs', {
          name,
          provider_type: 'Local',
          root_path: path.join(dataDir, name),
        });
        await call('/admin/mounts', { name, mount_path: `/${name}`, storage_config_id: config.id });
      }
      put(path.join(dataDir, 'from'), 'photo.txt', 'on schedule');
      const job = await call('/admin/scheduled/jobs', {
        name: 'process',
        sourcePath: '/from',
        targetPath: '/to/copy',
        scheduleType: 'interval',
        intervalSec: 60,
      });
      // A few ticks go by: not due yet.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await call(`/admin/scheduled/jobs/${String(job.taskId)}/runs`)).items.length, 0);
      await call('/__test__/clock', { advanceMs: 61_000 });
      let runs: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 150; i++) {
        runs = (await call(`/admin/scheduled/jobs/${String(job.taskId)}/runs`)).items;
        if (runs[0]?.status === 'success') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(runs.length, 1, JSON.stringify(runs));
      assert.equal(runs[0]!.trigger, 'schedule');
      assert.equal(runs[0]!.status, 'success');
      assert.equal(fs.readFileSync(path.join(dataDir, 'to', 'copy', 'photo.txt'), 'utf8'), 'on schedule');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
