/**
 * A storage config's quota holds on every door into storage (vfs/quota.ts; docs/architecture.md
 * "Quota"), on both databases, over a mount on local disk and one on radosgw: fs uploads (form),
 * WebDAV PUT (with and without a length), relay uploads (declared or not, unfinished parts
 * counting), presigned uploads, copy tasks and share uploads into the same storage — each refused
 * with 507 when it does not fit, leaving nothing behind; deletes give the room back; parallel writes
 * never pass the quota together; bytes put into the storage behind the server's back are counted.
 * (Before, a quota held only for share uploads: 64 MiB went through a mount past a 20 MiB quota.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, s3AdminClient, s3ConfigBody, S3_SKIP } from './support/s3.ts';
import { ADMIN, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const KiB = 1024;
const QUOTA = 200 * KiB;
const ADMIN_BASIC = {
  Authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
};
const bytes = (n: number, fill = 'q') => Buffer.alloc(n, fill);

for (const dialect of DIALECTS) {
  describe(`the storage quota holds on every door (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    const s3 = S3_SKIP ? undefined : s3AdminClient();
    let bucket: string | undefined;
    const storages: Array<{ name: string; mount: string; config: string }> = [];

    const setQuota = async (config: string, total: number | null) => {
      const res = await t.json(`/api/s3-configs/${config}`, {
        method: 'PUT',
        headers: admin,
        json: { total_storage_bytes: total },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const usage = async (config: string) => {
      const record = await t.services.storageConfigs.find(config);
      return t.services.quota.usage(record!);
    };
    const upload = async (folder: string, name: string, size: number) => {
      const form = new FormData();
      form.append('path', folder);
      form.append('file', new Blob([bytes(size)]), name);
      return t.json('/api/admin/fs/upload', { method: 'POST', headers: admin, body: form });
    };
    const names = async (folder: string) => {
      const res = await t.json(`/api/admin/fs/list?path=${encodeURIComponent(folder)}&refresh=true`, {
        headers: admin,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.data.items as Array<{ name: string }>).map((item) => item.name).sort();
    };
    const remove = async (path: string) => {
      const res = await t.json(`/api/admin/fs/remove?path=${encodeURIComponent(path)}`, {
        method: 'DELETE',
        headers: admin,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const davPut = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      t.request(`/dav${path}`, {
        method: 'PUT',
        body,
        headers: { ...ADMIN_BASIC, ...headers },
        duplex: 'half',
      } as RequestInit);
    const post = (path: string, json: unknown) => t.json(path, { method: 'POST', headers: admin, json });
    /** A fresh folder in a storage whose quota is QUOTA and holds nothing yet. */
    const freshStorage = async (storage: { mount: string; config: string }) => {
      const folder = `${storage.mount}/${randomUUID().slice(0, 8)}`;
      for (const name of await names(storage.mount)) await remove(`${storage.mount}/${name}`);
      await setQuota(storage.config, QUOTA);
      assert.equal((await post('/api/admin/fs/mkdir', { path: folder })).status, 200);
      return folder;
    };

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      const made = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'disk',
          provider_type: 'Local',
          root_path: `${t.database.dataDir}/quota-${randomUUID()}`,
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      storages.push({ name: 'local disk', mount: '/local', config: made.body.data.id });
      if (s3) {
        bucket = await createBucket(s3, 'cubby-quota');
        const config = await t.json('/api/s3-configs', {
          method: 'POST',
          headers: admin,
          json: s3ConfigBody('bucket', bucket),
        });
        assert.equal(config.status, 201, JSON.stringify(config.body));
        storages.push({ name: 'radosgw', mount: '/s3', config: config.body.data.id });
      }
      for (const { mount, config } of storages) {
        const res = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: mount.slice(1), mount_path: mount, storage_config_id: config, cache_ttl: 300 },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    });
    after(async () => {
      await t.close();
      if (bucket) await deleteBucket(s3!, bucket);
    });

    for (const index of [0, 1]) {
      const storage = () => storages[index]!;
      const label = index === 0 ? 'local disk' : 'radosgw';
      const skip = index === 1 && S3_SKIP;

      it(
        `${label}: fs uploads, WebDAV PUTs and copies stop at the quota; deletes give room back`,
        { skip },
        async () => {
          const { config, mount } = storage();
          const folder = await freshStorage(storage());
          assert.equal((await upload(folder, 'big.bin', 150 * KiB)).status, 200);
          assert.equal((await usage(config)).usedBytes, 150 * KiB);

          const over = await upload(folder, 'over.bin', 100 * KiB);
          assert.equal(over.status, 507, JSON.stringify(over.body));
          assert.equal(over.body.error, 'STORAGE_FULL');
          const sized = await davPut(`${folder}/dav.bin`, bytes(100 * KiB));
          assert.equal(sized.status, 507);
          // No length: refused as its bytes pass the quota, never written past it.
          const chunked = await davPut(`${folder}/chunked.bin`, new Blob([bytes(100 * KiB)]).stream());
          assert.equal(chunked.status, 507);
          const copy = await post('/api/admin/fs/tasks', {
            kind: 'copy',
            items: [{ sourcePath: `${folder}/big.bin`, targetPath: `${folder}/copy.bin` }],
          });
          assert.equal(copy.status, 202, JSON.stringify(copy.body));
          let task;
          for (;;) {
            task = (await t.json(`/api/admin/fs/tasks/${copy.body.data.id}`, { headers: admin })).body.data;
            if (task.status !== 'pending' && task.status !== 'running') break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          assert.equal(task.status, 'failed', JSON.stringify(task));
          assert.equal(task.items[0].status, 'failed', JSON.stringify(task));
          assert.match(
            task.items[0].error,
            /存储空间不足.*150(\.0)? KB/,
            'the message says it, with its numbers',
          );
          assert.deepEqual(await names(folder), ['big.bin']);
          assert.equal((await usage(config)).usedBytes, 150 * KiB);
          assert.deepEqual(await usage(config), { usedBytes: 150 * KiB, reservedBytes: 0 });

          // What fits still goes in, by every door.
          assert.equal((await upload(folder, 'small.bin', 20 * KiB)).status, 200);
          assert.equal((await davPut(`${folder}/dav-small.bin`, bytes(20 * KiB))).status, 201);
          assert.equal((await usage(config)).usedBytes, 190 * KiB);
          // Replacing a file counts the difference only.
          assert.equal((await davPut(`${folder}/dav-small.bin`, bytes(25 * KiB))).status, 204);
          assert.equal((await usage(config)).usedBytes, 195 * KiB);

          await remove(`${folder}/big.bin`);
          assert.equal((await usage(config)).usedBytes, 45 * KiB);
          assert.equal((await upload(folder, 'again.bin', 150 * KiB)).status, 200);
          // A folder deleted with everything in it is counted again from the storage.
          await remove(folder);
          assert.equal((await usage(config)).usedBytes, 0);
          assert.ok((await names(mount)).every((name) => name !== folder.split('/').pop()));
        },
      );

      it(
        `${label}: unfinished relay and presigned uploads hold their room until they end`,
        { skip },
        async () => {
          const { config } = storage();
          const folder = await freshStorage(storage());
          const init = (filename: string, fileSize?: number) =>
            post('/api/admin/fs/multipart/init', {
              path: folder,
              filename,
              ...(fileSize ? { fileSize } : {}),
            });
          const first = await init('a.bin', 120 * KiB);
          assert.equal(first.status, 200, JSON.stringify(first.body));
          // 120 KiB are promised to the first: the second does not fit until it ends.
          const second = await init('b.bin', 100 * KiB);
          assert.equal(second.status, 507, JSON.stringify(second.body));
          const presign = await post('/api/admin/fs/presign', {
            path: folder,
            fileName: 'p.bin',
            fileSize: 100 * KiB,
          });
          assert.equal(presign.status, 507, JSON.stringify(presign.body));
          assert.equal((await usage(config)).reservedBytes, 120 * KiB);
          const aborted = await post('/api/admin/fs/multipart/abort', {
            key: first.body.data.key,
            uploadId: first.body.data.uploadId,
          });
          assert.equal(aborted.status, 200, JSON.stringify(aborted.body));
          assert.equal((await usage(config)).reservedBytes, 0);

          // Without a declared size, its parts are counted as they arrive.
          const open = await init('c.bin');
          assert.equal(open.status, 200);
          const part = (n: number, size: number) =>
            t.request(
              `/api/admin/fs/multipart/part?${new URLSearchParams({
                key: open.body.data.key,
                uploadId: open.body.data.uploadId,
                partNumber: String(n),
              })}`,
              { method: 'POST', headers: { ...admin, 'Content-Length': String(size) }, body: bytes(size) },
            );
          assert.equal((await part(1, 150 * KiB)).status, 200);
          const refused = await part(2, 100 * KiB);
          assert.equal(refused.status, 507);
          const fitting = await post('/api/admin/fs/presign', {
            path: folder,
            fileName: 'p.bin',
            fileSize: 40 * KiB,
          });
          assert.equal(fitting.status, 200, JSON.stringify(fitting.body));
          assert.equal((await usage(config)).reservedBytes, 190 * KiB);
          assert.equal(
            (
              await post('/api/admin/fs/multipart/abort', {
                key: open.body.data.key,
                uploadId: open.body.data.uploadId,
              })
            ).status,
            200,
          );
          // The presigned one sent and committed: counted as stored, no longer reserved.
          const url = new URL(fitting.body.data.presignedUrl);
          const putInit = {
            method: 'PUT',
            headers: { 'Content-Type': fitting.body.data.contentType },
            body: bytes(40 * KiB),
          };
          const sent = url.pathname.startsWith('/api/')
            ? await t.request(url.pathname + url.search, putInit)
            : await fetch(url, putInit);
          assert.ok(sent.status < 300, `PUT ${sent.status}`);
          const committed = await post('/api/admin/fs/presign/commit', {
            targetPath: fitting.body.data.targetPath,
            uploadId: fitting.body.data.uploadId,
          });
          assert.equal(committed.status, 200, JSON.stringify(committed.body));
          assert.deepEqual(await usage(config), { usedBytes: 40 * KiB, reservedBytes: 0 });
        },
      );

      it(`${label}: parallel uploads never pass the quota together`, { skip }, async () => {
        const { config } = storage();
        const folder = await freshStorage(storage());
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => upload(folder, `p${i}.bin`, 60 * KiB)),
        );
        const statuses = results.map((r) => r.status);
        assert.ok(
          statuses.every((s) => s === 200 || s === 507),
          JSON.stringify(statuses),
        );
        const accepted = statuses.filter((s) => s === 200).length;
        assert.ok(accepted >= 1 && accepted <= 3, JSON.stringify(statuses));
        assert.equal((await names(folder)).length, accepted);
        assert.equal((await usage(config)).usedBytes, accepted * 60 * KiB);
      });
    }

    it('local disk: bytes put into the storage behind the server are counted before the first write', async () => {
      const root = `${t.database.dataDir}/quota-outside-${randomUUID()}`;
      await fs.mkdir(`${root}/old`, { recursive: true });
      await fs.writeFile(`${root}/old/a.bin`, bytes(120 * KiB));
      await fs.writeFile(`${root}/b.bin`, bytes(50 * KiB));
      const made = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: { name: 'outside', provider_type: 'Local', root_path: root, total_storage_bytes: QUOTA },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const mount = await t.json('/api/admin/mounts', {
        method: 'POST',
        headers: admin,
        json: { name: 'outside', mount_path: '/outside', storage_config_id: made.body.data.id },
      });
      assert.equal(mount.status, 201, JSON.stringify(mount.body));
      const over = await upload('/outside', 'c.bin', 40 * KiB);
      assert.equal(over.status, 507, JSON.stringify(over.body));
      assert.deepEqual([over.body.data.free_bytes, over.body.data.total_bytes], [30 * KiB, QUOTA]);
      assert.equal((await upload('/outside', 'c.bin', 30 * KiB)).status, 200);
    });

    it('the periodic recount corrects drift: bytes changed behind the server, on a config without a quota too', async () => {
      const root = `${t.database.dataDir}/quota-drift-${randomUUID()}`;
      await fs.mkdir(root, { recursive: true });
      const made = await t.json('/api/storage', {
        method: 'POST',
        headers: admin,
        json: { name: 'drift', storage_type: 'LOCAL', root_path: root },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = made.body.data.id;
      await fs.writeFile(`${root}/a.bin`, bytes(10 * KiB));
      const config = (await t.services.storageConfigs.find(id))!;
      assert.equal((await t.services.quota.usage(config)).usedBytes, 10 * KiB);
      // Behind the server's back: one file grows, another appears; the count does not know yet.
      await fs.writeFile(`${root}/a.bin`, bytes(30 * KiB));
      await fs.writeFile(`${root}/b.bin`, bytes(5 * KiB));
      assert.equal((await t.services.quota.usage(config)).usedBytes, 10 * KiB);
      const failed: string[] = [];
      const counted = await t.services.quota.recountAll(
        [config, { id: 'no-such-config', total_storage_bytes: null }],
        (configId) => failed.push(configId),
      );
      assert.equal(counted, 1);
      assert.deepEqual(
        failed,
        ['no-such-config'],
        'a config that cannot be counted is reported, the rest go on',
      );
      assert.equal((await t.services.quota.usage(config)).usedBytes, 35 * KiB);
      const stats = await t.json('/api/admin/dashboard/stats', { headers: admin });
      const row = stats.body.data.s3Buckets.find((b: { id: string }) => b.id === id);
      assert.deepEqual([row.usedStorage, typeof row.totalStorage], [35 * KiB, 'number']);
    });

    it('share uploads and mount writes count against one quota', async () => {
      const { config, mount } = storages[0]!;
      const folder = await freshStorage(storages[0]!);
      assert.equal((await upload(folder, 'mount.bin', 150 * KiB)).status, 200);
      const form = new FormData();
      form.append('s3_config_id', config);
      form.append('file', new Blob([bytes(100 * KiB)]), 'share.bin');
      const share = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(share.status, 507, JSON.stringify(share.body));
      const small = new FormData();
      small.append('s3_config_id', config);
      small.append('file', new Blob([bytes(30 * KiB)]), 'share.bin');
      const smallAnswer = await t.json('/api/upload', { method: 'POST', headers: admin, body: small });
      assert.equal(smallAnswer.status, 200, JSON.stringify(smallAnswer.body));
      // The share's 30 KiB now count for the mount too.
      assert.equal((await upload(folder, 'more.bin', 30 * KiB)).status, 507);
      assert.equal((await usage(config)).usedBytes, 180 * KiB);
      // The dashboard shows the number the quota is judged by.
      const stats = await t.json('/api/admin/dashboard/stats', { headers: admin });
      const bucket = (stats.body.data.s3Buckets as Array<Record<string, unknown>>).find(
        (b) => b.id === config,
      );
      assert.deepEqual(
        [bucket?.usedStorage, bucket?.quotaBytes, bucket?.quotaPercent],
        [180 * KiB, QUOTA, 90],
      );
      await setQuota(config, null);
      assert.equal((await upload(folder, 'more.bin', 30 * KiB)).status, 200);
      assert.ok((await names(mount)).length > 0);
    });
  });
}
