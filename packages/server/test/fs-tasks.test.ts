/**
 * Copy and move tasks (/api/{admin|user}/fs/tasks, batch-copy, batch-copy-commit) on both databases,
 * on local disk and radosgw: files and folders of 1,200 objects on one storage and across storages,
 * skip-existing, CloudPaste's answers, a key confined to its base path and to its own tasks, cancel,
 * retry of only what failed, clearing one's own finished tasks, the restart rule, listings refreshed
 * after a copy, and a 1 GiB cross-storage copy with flat memory, cancelled halfway without leaving
 * anything under the target name.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import type { FsTasksTable } from '../src/db/schema.ts';
import { formatTag, THIS_PROCESS } from '../src/lib/process-tag.ts';
import type { StorageDriver } from '../src/storage/driver.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { apiKey, bearer, createSecondInstance, createTestApp, type TestApp } from './support/test-app.ts';

const MiB = 1024 * 1024;
const text = (s: string) => new Blob([s]).stream();

/** `count` bytes of a repeating pattern, made as they are read (never one buffer). */
function generated(count: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MiB).map((_, i) => i % 251);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= count) return controller.close();
      const n = Math.min(chunk.length, count - sent);
      controller.enqueue(n === chunk.length ? chunk.slice() : chunk.slice(0, n));
      sent += n;
    },
  });
}

for (const dialect of DIALECTS) {
  describe(`copy and move tasks (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let key: Record<string, string>;
    let local: StorageDriver;
    let s3: StorageDriver | undefined;
    let bucket: string | undefined;
    const client = S3_SKIP ? undefined : s3AdminClient();

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      const made = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'tasks-local',
          provider_type: 'Local',
          root_path: `${t.database.dataDir}/tl-${randomUUID()}`,
        },
      });
      const localId = made.body.data.id as string;
      await mount('/l', localId);
      local = await t.services.storageConfigs.driver((await t.services.storageConfigs.find(localId))!);
      if (client) {
        bucket = await createBucket(client, 'cubby-tasks');
        const s3Id = await insertS3Config(t, bucket);
        await mount('/s', s3Id);
        s3 = await t.services.storageConfigs.driver((await t.services.storageConfigs.find(s3Id))!);
      }
      key = apiKey((await t.createKey({ name: 'team', basic_path: '/l/team', mount_permission: true })).key);
    });
    after(async () => {
      await t.close();
      if (bucket) await deleteBucket(client!, bucket);
    });

    async function mount(path: string, configId: string) {
      const res = await t.json('/api/admin/mounts', {
        method: 'POST',
        headers: admin,
        json: { name: path, mount_path: path, storage_config_id: configId, cache_ttl: 300 },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const post = (path: string, json: unknown, headers = admin) =>
      t.json(path, { method: 'POST', headers, json });
    const names = async (path: string, headers = admin, tree = 'admin') => {
      const res = await t.json(`/api/${tree}/fs/list?path=${encodeURIComponent(path)}`, { headers });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.data.items as Array<{ name: string }>).map((i) => i.name);
    };
    const read = async (driver: StorageDriver, path: string) =>
      new Response((await driver.read(path)).body).text();
    /** Starts a task and waits (polling its state, no fixed sleep) until it has ended. */
    const runTask = async (body: unknown, headers = admin, tree = 'admin') => {
      const started = await post(`/api/${tree}/fs/tasks`, body, headers);
      assert.equal(started.status, 202, JSON.stringify(started.body));
      return waitFor(started.body.data.id, headers, tree);
    };
    const waitFor = async (
      id: string,
      headers = admin,
      tree = 'admin',
      until = (s: string) => s !== 'pending' && s !== 'running',
    ) => {
      for (;;) {
        const res = await t.json(`/api/${tree}/fs/tasks/${id}`, { headers });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        if (until(res.body.data.status)) return res.body.data;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    /** A task row as a process running it leaves it, put straight into the database. */
    const runningRow = (id: string, fields: Partial<FsTasksTable> = {}): FsTasksTable => {
      const now = t.clock.now().toISOString();
      return {
        id,
        kind: 'copy',
        status: 'running',
        owner: 'admin-x',
        items: '[]',
        skip_existing: 1,
        files_total: 10,
        files_done: 3,
        files_skipped: 0,
        files_failed: 0,
        bytes_total: 100,
        bytes_done: 30,
        error: null,
        runner: formatTag(THIS_PROCESS),
        created_at: now,
        updated_at: now,
        finished_at: null,
        ...fields,
      };
    };
    const writeMany = async (driver: StorageDriver, dir: string, count: number) => {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < count; i++) {
        writes.push(driver.write(`${dir}/f${String(i).padStart(4, '0')}.txt`, text(String(i))));
        if (writes.length === 50) await Promise.all(writes.splice(0));
      }
      await Promise.all(writes);
    };

    it(
      'a cancel through another instance stops the task where it runs',
      { skip: dialect !== 'postgres' || S3_SKIP },
      async () => {
        const count = 600;
        await writeMany(local, '/far', count);
        const second = await createSecondInstance(t);
        try {
          const started = await post('/api/admin/fs/tasks', {
            // Across storages (a stream per file): slow enough to be cancelled midway.
            items: [{ sourcePath: '/l/far/', targetPath: '/s/far-copy/' }],
          });
          assert.equal(started.status, 202, JSON.stringify(started.body));
          const id = started.body.data.id as string;
          const cancelled = await second.json(`/api/admin/fs/tasks/${id}`, {
            method: 'DELETE',
            headers: admin,
          });
          assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
          assert.equal(cancelled.body.data.status, 'cancelled');
          assert.ok(
            cancelled.body.data.progress.filesDone < count,
            JSON.stringify(cancelled.body.data.progress),
          );
        } finally {
          await second.close();
        }
        await local.remove('/far', { recursive: true });
        await s3!.remove('/far-copy', { recursive: true }).catch(() => undefined);
      },
    );

    it('copies a file on one storage; the target listing shows it at once (cached before)', async () => {
      await local.write('/docs/a.txt', text('alpha'));
      await local.mkdir('/copies');
      assert.deepEqual(await names('/l/copies'), []);
      const task = await runTask({ items: [{ sourcePath: '/l/docs/a.txt', targetPath: '/l/copies/' }] });
      assert.equal(task.status, 'done', JSON.stringify(task));
      assert.equal(task.progress.filesDone, 1);
      assert.equal(task.progress.bytesDone, 5);
      assert.deepEqual(await names('/l/copies'), ['a.txt']);
      assert.equal(await read(local, '/copies/a.txt'), 'alpha');
      assert.equal(await read(local, '/docs/a.txt'), 'alpha');
    });

    it('skips what exists unless told not to; moves a file and a folder', async () => {
      await local.write('/docs/a.txt', text('changed'));
      const skipped = await runTask({
        items: [{ sourcePath: '/l/docs/a.txt', targetPath: '/l/copies/a.txt' }],
      });
      assert.equal(skipped.status, 'done');
      assert.equal(skipped.progress.filesSkipped, 1);
      assert.equal(skipped.items[0].status, 'skipped');
      assert.equal(await read(local, '/copies/a.txt'), 'alpha');
      const replaced = await runTask({
        items: [{ sourcePath: '/l/docs/a.txt', targetPath: '/l/copies/a.txt' }],
        skipExisting: false,
      });
      assert.equal(replaced.progress.filesDone, 1);
      assert.equal(await read(local, '/copies/a.txt'), 'changed');

      await local.write('/m/one/x.txt', text('x'));
      await local.write('/m/one/deep/y.txt', text('y'));
      const moved = await runTask({
        kind: 'move',
        items: [{ sourcePath: '/l/m/one/', targetPath: '/l/m/two/' }],
      });
      assert.equal(moved.status, 'done', JSON.stringify(moved));
      assert.deepEqual(await names('/l/m'), ['two']);
      assert.deepEqual(await names('/l/m/two'), ['deep', 'x.txt']);
      assert.equal(await read(local, '/m/two/deep/y.txt'), 'y');
    });

    it('a folder move that skips what the target has keeps those files in the source; only emptied folders go', async () => {
      await local.write('/mvskip/src/keep.txt', text('source version'));
      await local.write('/mvskip/src/sub/go.txt', text('go'));
      await local.write('/mvskip/src/only/deeper/also.txt', text('also'));
      await local.write('/mvskip/dst/keep.txt', text('target version'));
      const task = await runTask({
        kind: 'move',
        items: [{ sourcePath: '/l/mvskip/src/', targetPath: '/l/mvskip/dst/' }],
      });
      assert.equal(task.status, 'done', JSON.stringify(task));
      assert.equal(task.progress.filesSkipped, 1);
      assert.equal(await read(local, '/mvskip/dst/keep.txt'), 'target version');
      assert.equal(await read(local, '/mvskip/src/keep.txt'), 'source version', 'a skipped file was lost');
      assert.equal(await read(local, '/mvskip/dst/sub/go.txt'), 'go');
      assert.equal(await read(local, '/mvskip/dst/only/deeper/also.txt'), 'also');
      assert.deepEqual(await names('/l/mvskip/src'), ['keep.txt']);
    });

    it('refuses a key outside its base path before anything, and shows a key only its own tasks', async () => {
      await local.write('/team/k.txt', text('k'));
      await local.write('/other/o.txt', text('o'));
      const out = await post(
        '/api/user/fs/tasks',
        { items: [{ sourcePath: '/l/other/o.txt', targetPath: '/l/team/' }] },
        key,
      );
      assert.equal(out.status, 403);
      const outTarget = await post(
        '/api/user/fs/tasks',
        { items: [{ sourcePath: '/l/team/k.txt', targetPath: '/l/other/' }] },
        key,
      );
      assert.equal(outTarget.status, 403);
      const mixed = await post(
        '/api/user/fs/batch-copy',
        {
          items: [
            { sourcePath: '/l/team/k.txt', targetPath: '/l/team/k2.txt' },
            { sourcePath: '/l/team/k.txt', targetPath: '/l/x.txt' },
          ],
        },
        key,
      );
      assert.equal(mixed.status, 403);
      assert.deepEqual(await names('/l/other'), ['o.txt']);
      assert.deepEqual(await names('/l/team'), ['k.txt']);

      const own = await runTask(
        { items: [{ sourcePath: '/l/team/k.txt', targetPath: '/l/team/k2.txt' }] },
        key,
        'user',
      );
      assert.equal(own.status, 'done');
      const mine = await t.json('/api/user/fs/tasks', { headers: key });
      assert.deepEqual(
        mine.body.data.map((x: { id: string }) => x.id),
        [own.id],
      );
      const adminTasks = await t.json('/api/admin/fs/tasks', { headers: admin });
      const adminOnly = adminTasks.body.data.find((x: { id: string }) => x.id !== own.id).id;
      assert.equal((await t.json(`/api/user/fs/tasks/${adminOnly}`, { headers: key })).status, 404);
      assert.equal(
        (await t.json(`/api/user/fs/tasks/${adminOnly}`, { method: 'DELETE', headers: key })).status,
        404,
      );
      assert.ok(
        adminTasks.body.data.some((x: { id: string }) => x.id === own.id),
        'the admin sees every task',
      );
    });

    it("batch-copy answers CloudPaste's shape and batch-copy-commit confirms targets", async () => {
      const res = await post('/api/admin/fs/batch-copy', {
        items: [
          { sourcePath: '/l/docs/a.txt', targetPath: '/l/batch/' },
          { sourcePath: '/l/docs/none.txt', targetPath: '/l/batch/' },
        ],
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.code, 200);
      assert.equal(res.body.data.success, 1);
      assert.equal(res.body.data.failed.length, 1);
      assert.deepEqual(res.body.data.crossStorageResults, []);
      assert.match(res.body.message, /^批量复制部分完成，成功: 1，跳过: 0，失败: 1$/);
      assert.equal(res.body.data.details[0].status, 'success');
      const nothing = await post('/api/admin/fs/batch-copy', {
        items: [{ sourcePath: '/l/none', targetPath: '/l/batch/' }],
      });
      assert.equal(nothing.status, 200);
      assert.equal(nothing.body.code, 202);
      assert.equal(nothing.body.success, false);
      assert.equal((await post('/api/admin/fs/batch-copy', { items: [] })).status, 400);

      const commit = await post('/api/admin/fs/batch-copy-commit', {
        targetMountId: 'any',
        files: [
          { targetPath: '/l/batch/a.txt', s3Path: 'ignored' },
          { targetPath: '/l/batch/none.txt', s3Path: 'x' },
        ],
      });
      assert.equal(commit.status, 200);
      assert.deepEqual(commit.body.data.success, [{ targetPath: '/l/batch/a.txt', fileName: 'a.txt' }]);
      assert.equal(commit.body.data.failed.length, 1);
      assert.equal((await post('/api/admin/fs/batch-copy-commit', {})).status, 400);
    });

    it('marks failed a task its process left unfinished, and leaves a live one alone', async () => {
      const row = (id: string, runner: string, updated_at?: string) =>
        runningRow(id, { runner, ...(updated_at ? { updated_at } : {}) });
      const dead = formatTag({ ...THIS_PROCESS, pid: 4_000_000 });
      const elsewhere = 'abcdefabcd.12.0badf00d';
      const old = new Date(Date.now() - 3600_000).toISOString();
      await t.database.db.kysely
        .insertInto('fs_tasks')
        .values([
          row('dead-runner', dead),
          row('silent-elsewhere', elsewhere, old),
          row('live-elsewhere', elsewhere),
        ])
        .execute();
      assert.equal(await t.services.fsTasks.failOrphans(), 2);
      const get = async (id: string) =>
        (await t.json(`/api/admin/fs/tasks/${id}`, { headers: admin })).body.data;
      const failed = await get('dead-runner');
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error, '服务器在任务完成前重启，任务未完成');
      assert.equal((await get('silent-elsewhere')).status, 'failed');
      assert.equal((await get('live-elsewhere')).status, 'running');
      await t.database.db.kysely.deleteFrom('fs_tasks').where('id', '=', 'live-elsewhere').execute();
    });

    it('retries a failed task: only the items and the files inside a folder that failed run again', async () => {
      await local.write('/retry/src/a.txt', text('a'));
      await local.write('/retry/src/b.txt', text('b'));
      for (const name of ['f1', 'f2', 'f3']) await local.write(`/retry/dir/${name}.txt`, text(name));
      // Folders where files should go: those copies fail.
      await local.mkdir('/retry/out/a.txt');
      await local.mkdir('/retry/out/dir/f2.txt');
      const items = [
        { sourcePath: '/l/retry/src/a.txt', targetPath: '/l/retry/out/a.txt' },
        { sourcePath: '/l/retry/dir/', targetPath: '/l/retry/out/dir/' },
        { sourcePath: '/l/retry/src/b.txt', targetPath: '/l/retry/out/b.txt' },
      ];
      const first = await runTask({ items, skipExisting: false });
      assert.equal(first.status, 'failed', JSON.stringify(first));
      assert.deepEqual(
        first.items.map((i: { status: string }) => i.status),
        ['failed', 'failed', 'done'],
      );
      assert.deepEqual(
        [first.items[1].done, first.items[1].failed, first.items[1].failedFiles],
        [2, 1, ['f2.txt']],
      );
      // What worked is changed since: a retry that copied it again would put the source back.
      await local.write('/retry/out/b.txt', text('kept b'));
      await local.write('/retry/out/dir/f1.txt', text('kept f1'));
      await local.remove('/retry/out/a.txt', { recursive: true });
      await local.remove('/retry/out/dir/f2.txt', { recursive: true });
      const key2 = apiKey(
        (await t.createKey({ name: 'other', basic_path: '/l', mount_permission: true })).key,
      );
      const foreign = await post(`/api/user/fs/tasks/${first.id}/retry`, {}, key2);
      assert.equal(foreign.status, 404, 'a key cannot retry a task that is not its own');

      const retried = await post(`/api/admin/fs/tasks/${first.id}/retry`, {});
      assert.equal(retried.status, 202, JSON.stringify(retried.body));
      assert.equal(retried.body.message, '任务已重新开始，只重试失败的部分');
      const again = await waitFor(first.id);
      assert.equal(again.status, 'done', JSON.stringify(again));
      assert.equal(again.progress.filesDone, 2, 'a.txt and f2.txt, nothing else');
      assert.deepEqual(
        again.items.map((i: { status: string; done: number }) => [i.status, i.done]),
        [
          ['done', 1],
          ['done', 3],
          ['done', 1],
        ],
      );
      assert.equal(again.items[1].failedFiles, undefined);
      assert.equal(await read(local, '/retry/out/a.txt'), 'a');
      assert.equal(await read(local, '/retry/out/dir/f2.txt'), 'f2');
      assert.equal(await read(local, '/retry/out/b.txt'), 'kept b');
      assert.equal(await read(local, '/retry/out/dir/f1.txt'), 'kept f1');
      assert.equal(await read(local, '/retry/out/dir/f3.txt'), 'f3');
      const done = await post(`/api/admin/fs/tasks/${first.id}/retry`, {});
      assert.equal(done.status, 409, JSON.stringify(done.body));
      assert.equal(done.body.message, '只有失败的任务可以重试');
    });

    it("clears the caller's finished tasks only: a key its own, the admin its own, none running", async () => {
      await local.write('/team/c.txt', text('c'));
      const keys = await runTask(
        { items: [{ sourcePath: '/l/team/c.txt', targetPath: '/l/team/c2.txt' }] },
        key,
        'user',
      );
      const admins = await runTask({ items: [{ sourcePath: '/l/team/c.txt', targetPath: '/l/c3.txt' }] });
      const { owner } = await t.database.db.kysely
        .selectFrom('fs_tasks')
        .select('owner')
        .where('id', '=', admins.id)
        .executeTakeFirstOrThrow();
      await t.database.db.kysely
        .insertInto('fs_tasks')
        .values(runningRow('still-running', { owner, runner: 'abcdefabcd.12.0badf00d' }))
        .execute();
      const ids = async (headers = admin, tree = 'admin') =>
        ((await t.json(`/api/${tree}/fs/tasks`, { headers })).body.data as Array<{ id: string }>).map(
          (task) => task.id,
        );

      const cleared = await post('/api/admin/fs/tasks/clear', {});
      assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
      assert.ok(cleared.body.data.clearedCount >= 1);
      const left = await ids();
      assert.ok(!left.includes(admins.id), "the admin's finished task went");
      assert.ok(left.includes('still-running'), 'a running task stays');
      assert.ok(left.includes(keys.id), "a key's task is not the admin's to clear");

      const keyHad = await ids(key, 'user');
      assert.ok(keyHad.includes(keys.id));
      const byKey = await post('/api/user/fs/tasks/clear', {}, key);
      assert.equal(byKey.status, 200, JSON.stringify(byKey.body));
      assert.equal(byKey.body.data.clearedCount, keyHad.length);
      assert.deepEqual(await ids(key, 'user'), []);
      assert.ok((await ids()).includes('still-running'));
      await t.database.db.kysely.deleteFrom('fs_tasks').where('id', '=', 'still-running').execute();
    });

    /** Makes a share of a mount file; answers a function that reads the file through its link. */
    const share = async (path: string) => {
      const made = await post('/api/admin/fs/share', { path });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return async () => {
        const res = await t.request(`/api/file-download/${made.body.data.slug}`);
        return { status: res.status, text: await res.text() };
      };
    };

    it('a share follows its file through a move task: a file, and a folder moved whole', async () => {
      await local.write('/follow/a.txt', text('file a'));
      await local.write('/follow/dir/b.txt', text('file b'));
      const a = await share('/l/follow/a.txt');
      const b = await share('/l/follow/dir/b.txt');
      const movedFile = await runTask({
        kind: 'move',
        items: [{ sourcePath: '/l/follow/a.txt', targetPath: '/l/followed/a.txt' }],
      });
      assert.equal(movedFile.status, 'done', JSON.stringify(movedFile));
      assert.deepEqual(await a(), { status: 200, text: 'file a' });
      const movedFolder = await runTask({
        kind: 'move',
        items: [{ sourcePath: '/l/follow/dir/', targetPath: '/l/followed/dir/' }],
      });
      assert.equal(movedFolder.status, 'done', JSON.stringify(movedFolder));
      assert.deepEqual(await b(), { status: 200, text: 'file b' });
    });

    describe('across storages (radosgw)', { skip: S3_SKIP }, () => {
      it('a share follows its file moved into another storage, file by file', async () => {
        await local.write('/across/one.txt', text('one'));
        await local.write('/across/sub/two.txt', text('two'));
        const one = await share('/l/across/one.txt');
        const two = await share('/l/across/sub/two.txt');
        // A folder share of a folder below the one moved: it follows the folder to the bucket.
        const folder = await post('/api/fs/create-share', { path: '/l/across/sub' });
        assert.equal(folder.status, 201, JSON.stringify(folder.body));
        const slug = folder.body.data.slug as string;
        const moved = await runTask({
          kind: 'move',
          items: [{ sourcePath: '/l/across/', targetPath: '/s/across/' }],
        });
        assert.equal(moved.status, 'done', JSON.stringify(moved));
        assert.deepEqual(await one(), { status: 200, text: 'one' });
        assert.deepEqual(await two(), { status: 200, text: 'two' });
        const visit = await t.json(`/api/public/folders/${slug}`);
        assert.equal(visit.status, 200, JSON.stringify(visit.body));
        const token = visit.body.data.token as string;
        const file = await t.request(
          `/api/public/folders/${slug}/download?path=${encodeURIComponent('/two.txt')}&token=${token}`,
        );
        assert.equal(file.status, 200);
        assert.equal(await file.text(), 'two');
        await s3!.remove('/across', { recursive: true });
      });

      it('copies a folder of 1,200 objects local → S3 and within S3, and moves a file across', async () => {
        await writeMany(local, '/big', 1200);
        let t0 = Date.now();
        const across = await runTask({ items: [{ sourcePath: '/l/big/', targetPath: '/s/big/' }] });
        const acrossMs = Date.now() - t0;
        assert.equal(across.status, 'done', JSON.stringify(across.error));
        assert.equal(across.progress.filesDone, 1200);
        const listed = await names('/s/big');
        assert.equal(listed.length, 1200);
        assert.equal(await read(s3!, '/big/f1199.txt'), '1199');
        t0 = Date.now();
        const within = await runTask({ items: [{ sourcePath: '/s/big/', targetPath: '/s/big2/' }] });
        const withinMs = Date.now() - t0;
        assert.equal(within.status, 'done');
        assert.equal((await names('/s/big2')).length, 1200);
        console.log(
          `# ${dialect}: 1,200 objects local → S3 in ${acrossMs} ms; S3 → S3 (server-side) in ${withinMs} ms`,
        );

        await local.write('/mv/one.txt', text('moving'));
        const moved = await runTask({
          kind: 'move',
          items: [{ sourcePath: '/l/mv/one.txt', targetPath: '/s/mv/' }],
        });
        assert.equal(moved.status, 'done');
        assert.equal(await read(s3!, '/mv/one.txt'), 'moving');
        assert.deepEqual(await names('/l/mv'), []);
        for (const p of ['/big2', '/big']) await s3!.remove(p, { recursive: true });
        await local.remove('/big', { recursive: true });
      });

      it(
        'copies 1 GiB across storages with flat memory; cancelled halfway, nothing is left under the target name',
        { skip: dialect !== 'sqlite' ? 'one database is enough for the 1 GiB run' : false },
        async () => {
          const size = 1024 * MiB;
          await local.write('/huge/1g.bin', generated(size), { size });
          const baseline = process.memoryUsage().rss;
          let peak = baseline;
          const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
          const t0 = Date.now();
          const started = await post('/api/admin/fs/tasks', {
            items: [{ sourcePath: '/l/huge/1g.bin', targetPath: '/s/huge/' }],
          });
          assert.equal(started.status, 202);
          const id = started.body.data.id as string;
          const half = await waitFor(id, admin, 'admin', (s) => s !== 'pending');
          for (let state = half; state.progress.bytesDone < size / 2;) {
            assert.equal(state.status, 'running', 'still running before half of it is copied');
            state = await waitFor(id, admin, 'admin', () => true);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          const halfMs = Date.now() - t0;
          const cancelled = await t.json(`/api/admin/fs/tasks/${id}`, { method: 'DELETE', headers: admin });
          clearInterval(sampler);
          assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
          assert.equal(cancelled.body.data.status, 'cancelled');
          const growth = (peak - baseline) / MiB;
          console.log(
            `# 1 GiB local → S3: half copied after ${halfMs} ms; RSS growth ${growth.toFixed(1)} MiB`,
          );
          assert.ok(growth < 64, `RSS grew ${growth.toFixed(1)} MiB`);
          await assert.rejects(s3!.stat('/huge/1g.bin'), /NOT_FOUND|not found/i);
          const uploads = await client!.send(new ListMultipartUploadsCommand({ Bucket: bucket! }));
          assert.deepEqual(uploads.Uploads ?? [], []);
          await local.remove('/huge', { recursive: true });
        },
      );
    });
  });
}
