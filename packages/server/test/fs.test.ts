/**
 * The fs routes (/api/{admin|user}/fs/*, cache routes) on both databases and both drivers (local disk
 * and radosgw): list, get, download, mkdir, upload (path before or after the file), remove,
 * batch-remove, rename (folders of 1,200 objects), update, file-link, the multipart relay (resumable,
 * ETags checked against the storage), presign + commit (single-use), the file shares uploads record,
 * Unicode and punctuation in names, and the directory cache seen through the API after each write.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const MiB = 1024 * 1024;
const DRIVERS = ['local', 's3'] as const;
/** Unicode, spaces and the characters URLs and forms treat specially. */
const ODD_NAME = `报告 #1 ?%&+'"; a=b.txt`;

for (const dialect of DIALECTS) {
  for (const driver of DRIVERS) {
    describe(`fs routes (${dialect}, ${driver})`, { skip: driver === 's3' ? S3_SKIP : false }, () => {
      let t: TestApp;
      let admin: Record<string, string>;
      let key: Record<string, string>;
      let mountId: string;
      let configId: string;
      let bucket: string | undefined;
      let localRoot: string | undefined;
      const s3 = driver === 's3' ? s3AdminClient() : undefined;

      before(async () => {
        t = await createTestApp(dialect);
        t.clock.followRealTime();
        admin = bearer(await t.adminToken());
        if (driver === 's3') {
          bucket = await createBucket(s3!, 'cubby-fs', { cors: true });
          configId = await insertS3Config(t, bucket);
        } else {
          localRoot = `${t.database.dataDir}/fs-${randomUUID()}`;
          const created = await t.json('/api/s3-configs', {
            method: 'POST',
            headers: admin,
            json: { name: 'fs-local', provider_type: 'Local', root_path: localRoot },
          });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          configId = created.body.data.id;
        }
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: 'm', mount_path: '/m', storage_config_id: configId, cache_ttl: 300 },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
        mountId = mount.body.data.id;
        const created = await t.createKey({ name: 'team', basic_path: '/m/team', mount_permission: true });
        key = apiKey(created.key);
      });
      after(async () => {
        await t.close();
        if (bucket) await deleteBucket(s3!, bucket);
      });

      const get = (path: string, headers = admin) => t.json(path, { headers });
      const post = (path: string, json: unknown, headers = admin) =>
        t.json(path, { method: 'POST', headers, json });
      const list = async (path: string, headers = admin, tree = 'admin') => {
        const res = await get(`/api/${tree}/fs/list?path=${encodeURIComponent(path)}`, headers);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.items as Array<{
          name: string;
          path: string;
          isDirectory: boolean;
          size: number;
        }>;
      };
      const names = async (path: string) => (await list(path)).map((i) => i.name);
      const formUpload = (
        dir: string,
        name: string,
        content: string | Blob,
        pathFirst: boolean,
        headers = admin,
        tree = 'admin',
      ) => {
        const form = new FormData();
        const file = typeof content === 'string' ? new Blob([content]) : content;
        if (pathFirst) form.append('path', dir);
        form.append('file', file, name);
        if (!pathFirst) form.append('path', dir);
        return t.json(`/api/${tree}/fs/upload`, { method: 'POST', headers, body: form });
      };
      const download = (path: string, headers: Record<string, string> = admin) =>
        t.request(`/api/admin/fs/download?path=${encodeURIComponent(path)}`, { headers });
      /** A URL the app handed out, fetched as a browser would (this app for local disk, radosgw for S3). */
      const open = (url: string, init: RequestInit = {}) => {
        const u = new URL(url);
        return u.pathname.startsWith('/api/') ? t.request(u.pathname + u.search, init) : fetch(u, init);
      };

      it('mkdir, upload with the path before or after the file, list, get, download', async () => {
        assert.equal((await post('/api/admin/fs/mkdir', { path: '/m/docs' })).status, 200);
        const again = await post('/api/admin/fs/mkdir', { path: '/m/docs' });
        assert.equal(again.status, 409);
        assert.equal(again.body.message, '目录已存在');

        const first = await formUpload('/m/docs', 'a.txt', 'hello', true);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.data.path, '/m/docs/a.txt');
        assert.equal(first.body.data.size, 5);
        // CloudPaste's client sends the file before the path: spooled, then stored the same way.
        const second = await formUpload('/m/docs', ODD_NAME, 'odd name', false);
        assert.equal(second.status, 200, JSON.stringify(second.body));
        assert.equal(second.body.data.name, ODD_NAME);

        assert.deepEqual((await names('/m/docs')).sort(), [ODD_NAME, 'a.txt'].sort());
        const info = await get(`/api/admin/fs/get?path=${encodeURIComponent(`/m/docs/${ODD_NAME}`)}`);
        assert.equal(info.status, 200, JSON.stringify(info.body));
        assert.equal(info.body.data.name, ODD_NAME);
        assert.equal(info.body.data.size, 8);
        assert.equal(info.body.data.isDirectory, false);
        const viaLink = await open(info.body.data.download_url);
        assert.equal(viaLink.status, 200);
        assert.equal(await viaLink.text(), 'odd name');

        const whole = await download(`/m/docs/${ODD_NAME}`);
        assert.equal(whole.status, 200);
        assert.equal(await whole.text(), 'odd name');
        assert.match(whole.headers.get('Content-Disposition') ?? '', /^attachment/);
        const etag = whole.headers.get('ETag')!;
        const part = await download(`/m/docs/${ODD_NAME}`, { ...admin, Range: 'bytes=4-' });
        assert.equal(part.status, 206);
        assert.equal(await part.text(), 'name');
        const same = await download(`/m/docs/${ODD_NAME}`, { ...admin, 'If-None-Match': etag });
        assert.equal(same.status, 304);
        assert.equal((await download('/m/docs/none.txt')).status, 404);

        // Both uploads are file shares now, as in the reference.
        const shares = await get('/api/admin/files?limit=100');
        const filenames = shares.body.data.files.map((f: { filename: string }) => f.filename);
        assert.ok(filenames.includes('a.txt') && filenames.includes(ODD_NAME), JSON.stringify(filenames));

        const dir = await get('/api/admin/fs/get?path=/m/docs/');
        assert.equal(dir.body.data.isDirectory, true);
        assert.equal(dir.body.data.contentType, 'application/x-directory');
      });

      it('refuses names with .., control characters or a slash, ', async () => {
        for (const bad of ['..', 'a\u0001b.txt', 'a/b.txt']) {
          const res = await formUpload('/m/docs', bad, 'x', true);
          assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(res.body)}`);
        }
        const res = await post('/api/admin/fs/update', { path: '/m/docs/../../etc/passwd', content: 'x' });
        assert.equal(res.status, 400);
      });

      it('names with Unicode, spaces and #?%&+\'" survive rename and copy', async () => {
        const other = `副本 #2 ?%&+'"; x=y.txt`;
        await post('/api/admin/fs/update', { path: `/m/odd/${ODD_NAME}`, content: 'odd' });
        const renamed = await post('/api/admin/fs/rename', {
          oldPath: `/m/odd/${ODD_NAME}`,
          newPath: `/m/odd/${other}`,
        });
        assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
        const copied = await post('/api/admin/fs/batch-copy', {
          items: [{ sourcePath: `/m/odd/${other}`, targetPath: `/m/odd/dir #1/` }],
        });
        assert.equal(copied.body.data.success, 1, JSON.stringify(copied.body));
        assert.deepEqual(await names('/m/odd'), ['dir #1', other]);
        assert.deepEqual(await names('/m/odd/dir #1'), [other]);
        const res = await download(`/m/odd/dir #1/${other}`);
        assert.equal(await res.text(), 'odd');
        assert.match(res.headers.get('Content-Disposition') ?? '', /filename\*=UTF-8''/);
      });

      it('update creates then updates; rename moves files and folders with their shares; remove and batch-remove', async () => {
        const created = await post('/api/admin/fs/update', { path: '/m/notes/n.md', content: '# one' });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        assert.equal(created.body.data.isNewFile, true);
        assert.equal(created.body.message, '文件创建成功');
        const updated = await post('/api/admin/fs/update', { path: '/m/notes/n.md', content: '# two' });
        assert.equal(updated.body.data.isNewFile, false);
        assert.equal(await (await download('/m/notes/n.md')).text(), '# two');
        assert.equal((await post('/api/admin/fs/update', { path: '/m/notes/', content: 'x' })).status, 400);
        // The editor sends the ETag it opened: a file changed since is not overwritten.
        const stale = created.body.data.etag as string;
        const conflict = await post('/api/admin/fs/update', {
          path: '/m/notes/n.md',
          content: '# mine',
          etag: stale,
        });
        assert.equal(conflict.status, 412, JSON.stringify(conflict.body));
        assert.equal(conflict.body.error, 'PRECONDITION_FAILED');
        assert.equal(await (await download('/m/notes/n.md')).text(), '# two');
        const fresh = updated.body.data.etag as string;
        const saved = await post('/api/admin/fs/update', {
          path: '/m/notes/n.md',
          content: '# three',
          etag: fresh,
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        assert.equal(await (await download('/m/notes/n.md')).text(), '# three');

        const up = await formUpload('/m/notes', 'shared.txt', 'share me', true);
        const slug = up.body.data.slug as string;
        const renamed = await post('/api/admin/fs/rename', { oldPath: '/m/notes/', newPath: '/m/renamed/' });
        assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
        assert.deepEqual(await names('/m/renamed'), ['n.md', 'shared.txt']);
        assert.equal((await get('/api/admin/fs/get?path=/m/notes/')).status, 404);
        // The share followed its file.
        const viaShare = await t.request(`/api/file-download/${slug}`);
        assert.equal(viaShare.status, 200);
        assert.equal(await viaShare.text(), 'share me');
        const kind = await post('/api/admin/fs/rename', {
          oldPath: '/m/renamed/n.md',
          newPath: '/m/renamed/x/',
        });
        assert.equal(kind.status, 400);
        const taken = await post('/api/admin/fs/rename', {
          oldPath: '/m/renamed/n.md',
          newPath: '/m/renamed/shared.txt',
        });
        assert.equal(taken.status, 409);

        const removed = await t.json('/api/admin/fs/remove?path=/m/renamed/shared.txt', {
          method: 'DELETE',
          headers: admin,
        });
        assert.equal(removed.status, 200);
        assert.equal((await t.request(`/api/file-download/${slug}`)).status, 404);
        await post('/api/admin/fs/update', { path: '/m/b/1.txt', content: '1' });
        await post('/api/admin/fs/update', { path: '/m/b/2.txt', content: '2' });
        const batch = await post('/api/admin/fs/batch-remove', {
          paths: ['/m/b/1.txt', '/m/b/2.txt', '/m/b/none.txt'],
        });
        assert.equal(batch.status, 200);
        assert.equal(batch.body.data.success + batch.body.data.failed.length, 3);
        assert.deepEqual(await names('/m/b'), []);
      });

      it('renames a folder of 1,200 objects (every page moved)', async () => {
        const at = await t.services.vfs.resolveWritable(
          { type: 'admin', id: 'a', username: 'admin' },
          '/m/big/x',
        );
        const driver = await t.services.storageConfigs.driver(at.config.id);
        const started = Date.now();
        const writes: Promise<unknown>[] = [];
        for (let i = 0; i < 1200; i++) {
          writes.push(
            driver.write(`/big/f${String(i).padStart(4, '0')}.txt`, new Blob([String(i)]).stream()),
          );
          if (writes.length === 50) await Promise.all(writes.splice(0));
        }
        await Promise.all(writes);
        const wrote = Date.now() - started;
        assert.equal((await list('/m/big')).length, 1200);
        const t0 = Date.now();
        const res = await post('/api/admin/fs/rename', { oldPath: '/m/big/', newPath: '/m/big2/' });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const moved = Date.now() - t0;
        const items = await list('/m/big2');
        assert.equal(items.length, 1200);
        assert.equal(items[1199]!.name, 'f1199.txt');
        assert.equal((await get('/api/admin/fs/list?path=/m/big')).status, 404);
        console.log(`# ${driver}: wrote 1,200 objects in ${wrote} ms, renamed the folder in ${moved} ms`);
        await t.json('/api/admin/fs/remove?path=/m/big2/', { method: 'DELETE', headers: admin });
      });

      it('relay upload: init, parts, resume listing, complete with ETags checked against the storage, abort', async () => {
        const init = await post('/api/admin/fs/multipart/init', {
          path: '/m/relay',
          filename: '大文件.bin',
          fileSize: 6 * MiB,
        });
        assert.equal(init.status, 200, JSON.stringify(init.body));
        const { uploadId, key: k } = init.body.data;
        assert.equal(k, '/m/relay/大文件.bin');
        const partUrl = (n: number) =>
          `/api/admin/fs/multipart/part?path=${encodeURIComponent('/m/relay')}&uploadId=${encodeURIComponent(uploadId)}&partNumber=${n}&key=${encodeURIComponent(k)}`;
        const one = new Uint8Array(5 * MiB).fill(1);
        const two = new Uint8Array(MiB).fill(2);
        const p1 = await t.json(partUrl(1), {
          method: 'POST',
          headers: {
            ...admin,
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(one.length),
          },
          body: one,
        });
        assert.equal(p1.status, 200, JSON.stringify(p1.body));
        const p2 = await t.json(partUrl(2), {
          method: 'POST',
          headers: {
            ...admin,
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(two.length),
          },
          body: two,
        });
        assert.equal(p2.status, 200, JSON.stringify(p2.body));
        const held = await get(
          `/api/admin/fs/multipart/parts?key=${encodeURIComponent(k)}&uploadId=${encodeURIComponent(uploadId)}`,
        );
        assert.deepEqual(
          held.body.data.parts.map((p: { partNumber: number }) => p.partNumber),
          [1, 2],
        );
        const parts = [p1.body.data, p2.body.data];
        const lied = await post('/api/admin/fs/multipart/complete', {
          path: '/m/relay',
          uploadId,
          key: k,
          parts: [parts[0], { partNumber: 2, etag: '"0123"' }],
        });
        assert.equal(lied.status, 400);
        const done = await post('/api/admin/fs/multipart/complete', {
          path: '/m/relay',
          uploadId,
          key: k,
          parts,
          fileSize: 1,
        });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        // The size comes from the storage, not from the client's fileSize.
        assert.equal(done.body.data.size, 6 * MiB);
        const stat = await get(`/api/admin/fs/get?path=${encodeURIComponent(k)}`);
        assert.equal(stat.body.data.size, 6 * MiB);
        const twice = await post('/api/admin/fs/multipart/complete', {
          path: '/m/relay',
          uploadId,
          key: k,
          parts,
        });
        assert.equal(twice.status, 404);

        const other = await post('/api/admin/fs/multipart/init', { path: '/m/relay', filename: 'b.bin' });
        const aborted = await post('/api/admin/fs/multipart/abort', {
          path: '/m/relay',
          uploadId: other.body.data.uploadId,
          key: other.body.data.key,
        });
        assert.equal(aborted.status, 200);
        assert.deepEqual(await names('/m/relay'), ['大文件.bin']);
      });

      it('presign + PUT + commit: the file appears on commit, the URL is dead after it', async () => {
        const body = 'presigned bytes';
        const p = await post('/api/admin/fs/presign', {
          path: '/m/pre',
          fileName: 'p.txt',
          fileSize: body.length,
        });
        assert.equal(p.status, 200, JSON.stringify(p.body));
        const put = await open(p.body.data.presignedUrl, {
          method: 'PUT',
          headers: p.body.data.upload_headers,
          body,
        });
        assert.equal(put.status, 200, await put.clone().text());
        assert.equal((await get('/api/admin/fs/get?path=/m/pre/p.txt')).status, 404);
        const commit = await post('/api/admin/fs/presign/commit', {
          ...p.body.data,
          etag: put.headers.get('ETag'),
          fileSize: 999,
        });
        assert.equal(commit.status, 200, JSON.stringify(commit.body));
        assert.equal(commit.body.data.size, body.length);
        assert.equal(await (await download('/m/pre/p.txt')).text(), body);
        const again = await open(p.body.data.presignedUrl, {
          method: 'PUT',
          headers: p.body.data.upload_headers,
          body: 'x'.repeat(body.length),
        });
        assert.notEqual(again.status, 200);
        assert.equal(await (await download('/m/pre/p.txt')).text(), body);
      });

      it('file-link: a working direct link with its expiry, inline or forced download', async () => {
        await post('/api/admin/fs/update', { path: '/m/link/l.txt', content: 'linked' });
        const res = await get('/api/admin/fs/file-link?path=/m/link/l.txt&expires_in=60&force_download=true');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.expiresIn, 60);
        assert.equal(res.body.data.forceDownload, true);
        const fetched = await open(res.body.data.presignedUrl);
        assert.equal(fetched.status, 200, await fetched.clone().text());
        assert.equal(await fetched.text(), 'linked');
        assert.match(fetched.headers.get('Content-Disposition') ?? '', /attachment/);
        assert.equal((await get('/api/admin/fs/file-link?path=/m/link/')).status, 400);
      });

      it('share: a mount file gets its own link, password and view limit; the file outlives the share', async () => {
        await post('/api/admin/fs/update', { path: '/m/shared/s.txt', content: 'shared text' });
        const guarded = await post('/api/admin/fs/share', {
          path: '/m/shared/s.txt',
          password: 'pass word',
          expires_in: 24,
          remark: 'for the team',
        });
        assert.equal(guarded.status, 201, JSON.stringify(guarded.body));
        assert.equal(guarded.body.data.filename, 's.txt');
        assert.equal(guarded.body.data.has_password, true);
        assert.equal(guarded.body.data.keeps_file, true, 'management is told the file stays');
        assert.ok(guarded.body.data.expires_at, 'an expiry was set');
        assert.ok(!JSON.stringify(guarded.body).includes('pass word'), 'the password is never answered');
        const locked = await t.json(`/api/public/files/${guarded.body.data.slug}`);
        assert.equal(locked.status, 200);
        assert.equal(locked.body.data.downloadUrl ?? null, null, 'no link before the password');
        const verified = await t.json(`/api/public/files/${guarded.body.data.slug}/verify`, {
          method: 'POST',
          json: { password: 'pass word' },
        });
        assert.equal(verified.status, 200, JSON.stringify(verified.body));
        const viaShare = await open(verified.body.data.downloadUrl);
        assert.equal(await viaShare.text(), 'shared text');

        const once = await post('/api/admin/fs/share', {
          path: '/m/shared/s.txt',
          max_views: 1,
          slug: 'mount-once',
        });
        assert.equal(once.status, 201, JSON.stringify(once.body));
        assert.equal(once.body.data.slug, 'mount-once');
        assert.equal(
          (await post('/api/admin/fs/share', { path: '/m/shared/s.txt', slug: 'mount-once' })).status,
          409,
        );
        const first = await t.request('/api/file-download/mount-once');
        assert.equal(first.status, 200);
        assert.equal(await first.text(), 'shared text');
        assert.equal((await t.request('/api/file-download/mount-once')).status, 410);
        await t.services.files.purge();
        // Used up and purged, then the other share deleted: the mount still has the file.
        assert.equal((await t.json('/api/public/files/mount-once')).status, 404);
        const removed = await t.json(`/api/admin/files/${guarded.body.data.id}`, {
          method: 'DELETE',
          headers: admin,
        });
        assert.equal(removed.status, 200, JSON.stringify(removed.body));
        assert.equal(await (await download('/m/shared/s.txt')).text(), 'shared text');

        assert.equal((await post('/api/admin/fs/share', { path: '/m/shared/' })).status, 400);
        assert.equal((await post('/api/admin/fs/share', { path: '/m/shared/missing.txt' })).status, 404);
        assert.equal(
          (await post('/api/admin/fs/share', { path: '/m/shared/s.txt', max_views: -1 })).status,
          400,
        );
        // A key shares inside its base path only.
        await formUpload('/m/team', 'mine.txt', 'key file', true, key, 'user');
        const mine = await post('/api/user/fs/share', { path: '/m/team/mine.txt' }, key);
        assert.equal(mine.status, 201, JSON.stringify(mine.body));
        assert.equal((await post('/api/user/fs/share', { path: '/m/shared/s.txt' }, key)).status, 403);
      });

      it('a key works inside its base path and nowhere else', async () => {
        const up = await formUpload('/m/team', 'k.txt', 'key file', true, key, 'user');
        assert.equal(up.status, 200, JSON.stringify(up.body));
        const out = await formUpload('/m', 'k.txt', 'x', true, key, 'user');
        assert.equal(out.status, 403);
        // On the way to its base path it sees only that way.
        const above = await list('/m', key, 'user');
        assert.deepEqual(
          above.map((i) => i.name),
          ['team'],
        );
        assert.equal((await get('/api/user/fs/get?path=/m/docs/a.txt', key)).status, 403);
        const rename = await post(
          '/api/user/fs/rename',
          { oldPath: '/m/team/k.txt', newPath: '/m/k.txt' },
          key,
        );
        assert.equal(rename.status, 403);
        const batch = await post(
          '/api/user/fs/batch-remove',
          { paths: ['/m/team/k.txt', '/m/docs/a.txt'] },
          key,
        );
        assert.equal(batch.status, 403);
        assert.equal((await download('/m/team/k.txt')).status, 200);
        // Admin routes stay admin-only.
        assert.equal((await get('/api/admin/fs/list?path=/m/team', key)).status, 403);
      });

      it('the directory cache: hits after a list, every write seen at once, stats and clear', async () => {
        await post('/api/admin/fs/update', { path: '/m/cache/a.txt', content: 'a' });
        // A cached answer is the same bytes as the one that filled the cache.
        const listText = async () =>
          (await t.request('/api/admin/fs/list?path=/m/cache', { headers: admin })).text();
        const fresh = await listText();
        assert.equal(await listText(), fresh);
        assert.equal(JSON.parse(fresh).data.items[0].name, 'a.txt');
        const before = (await get('/api/admin/cache/stats')).body.data.cache.directory;
        await list('/m/cache');
        const statsAfter = (await get('/api/admin/cache/stats')).body.data.cache;
        const afterHit = statsAfter.directory;
        assert.equal(afterHit.hits, before.hits + 1);
        const mine = statsAfter.mounts.find((m: { mount_id: string }) => m.mount_id === mountId);
        assert.ok(mine.hits >= 1 && mine.misses >= 1 && mine.entries >= 1, JSON.stringify(mine));
        await post('/api/admin/fs/update', { path: '/m/cache/b.txt', content: 'b' });
        assert.deepEqual(await names('/m/cache'), ['a.txt', 'b.txt']);
        await t.json('/api/admin/fs/remove?path=/m/cache/a.txt', { method: 'DELETE', headers: admin });
        assert.deepEqual(await names('/m/cache'), ['b.txt']);
        await formUpload('/m/cache', 'c.txt', 'c', false);
        assert.deepEqual(await names('/m/cache'), ['b.txt', 'c.txt']);
        // A share upload into the mounted storage is seen too.
        const cleared = await post('/api/admin/cache/clear', { mountId });
        assert.equal(cleared.status, 200);
        assert.ok(cleared.body.data.clearedCount >= 1);
        const user = await post('/api/user/cache/clear', {}, key);
        assert.equal(user.status, 200);
      });

      it('a folder made deep below cached folders shows in every listing above it (cache time 300 s)', async () => {
        assert.equal((await post('/api/admin/fs/mkdir', { path: '/m/nest' })).status, 200);
        // Every folder on the way is listed, and so cached, before each write.
        assert.ok(!(await names('/m')).includes('made'));
        assert.deepEqual(await names('/m/nest'), []);
        assert.equal((await post('/api/admin/fs/mkdir', { path: '/m/made/a/b' })).status, 200);
        assert.ok((await names('/m')).includes('made'), 'mkdir of a nested path: its top folder is listed');
        assert.deepEqual(await names('/m/made'), ['a']);
        assert.deepEqual(await names('/m/made/a'), ['b']);

        // An upload into folders that do not exist yet, form and text alike.
        const up = await formUpload('/m/nest/new/deeper', 'f.txt', 'f', true);
        assert.equal(up.status, 200, JSON.stringify(up.body));
        assert.deepEqual(await names('/m/nest'), ['new']);
        assert.deepEqual(await names('/m/nest/new'), ['deeper']);
        await post('/api/admin/fs/update', { path: '/m/nest/new/other/g.txt', content: 'g' });
        assert.deepEqual(await names('/m/nest/new'), ['deeper', 'other']);

        // An API key's upload into a new folder of its base path.
        const keyNames = async () => (await list('/m/team', key, 'user')).map((i) => i.name);
        assert.ok(!(await keyNames()).includes('reports'));
        const keyUp = await formUpload('/m/team/reports/2026', 'r.txt', 'r', true, key, 'user');
        assert.equal(keyUp.status, 200, JSON.stringify(keyUp.body));
        assert.ok((await keyNames()).includes('reports'));

        // A share upload into the mounted storage config lands in folders of its own (path/year/month).
        const form = new FormData();
        form.append('s3_config_id', configId);
        form.append('path', 'inbox');
        form.append('file', new Blob(['s']), 'shared.txt');
        const shared = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
        assert.equal(shared.status, 200, JSON.stringify(shared.body));
        assert.ok((await names('/m')).includes('inbox'), 'the share upload folder is listed');
      });

      it('refresh=true reads the folder from the storage and caches what it read', async () => {
        await post('/api/admin/fs/update', { path: '/m/team/behind/seen.txt', content: 's' });
        assert.deepEqual(await names('/m/team/behind'), ['seen.txt']);
        // A file written straight to the storage, behind the server's back.
        if (s3) {
          await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'team/behind/outside.txt', Body: 'o' }));
        } else {
          await mkdir(path.join(localRoot!, 'team', 'behind'), { recursive: true });
          await writeFile(path.join(localRoot!, 'team', 'behind', 'outside.txt'), 'o');
        }
        assert.deepEqual(await names('/m/team/behind'), ['seen.txt'], 'the cached listing is answered');
        const refreshed = await get('/api/admin/fs/list?path=/m/team/behind&refresh=true');
        assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
        assert.deepEqual(
          refreshed.body.data.items.map((i: { name: string }) => i.name),
          ['outside.txt', 'seen.txt'],
        );
        const stats = async () => (await get('/api/admin/cache/stats')).body.data.cache.directory;
        const before = await stats();
        assert.deepEqual(await names('/m/team/behind'), ['outside.txt', 'seen.txt']);
        assert.equal((await stats()).hits, before.hits + 1, 'the refreshed listing was cached');

        // The same for an API key on the user tree.
        if (s3) {
          await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'team/behind/key.txt', Body: 'k' }));
        } else {
          await writeFile(path.join(localRoot!, 'team', 'behind', 'key.txt'), 'k');
        }
        const keyList = async (query: string) =>
          (await get(`/api/user/fs/list?path=/m/team/behind${query}`, key)).body.data.items.map(
            (i: { name: string }) => i.name,
          );
        assert.ok(!(await keyList('')).includes('key.txt'));
        assert.ok((await keyList('&refresh=1')).includes('key.txt'));
        assert.equal((await get('/api/user/fs/list?path=/m/team&refresh=yes', key)).status, 400);
      });
    });
  }
}
