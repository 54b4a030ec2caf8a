/**
 * Name limits hold on every door that creates a name: a file or folder name of more than 255 bytes
 * of UTF-8 (what local file systems take) is refused with 400 and a message saying so — through the
 * fs API (mkdir, form upload, update, rename, relay multipart, presign) and WebDAV (PUT, MKCOL,
 * MOVE) — on local disk and S3, and a name of exactly 255 bytes works.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { bearer, createTestApp, type TestApp } from './support/test-app.ts';

const LONG = 'n'.repeat(252) + '.txt'; // 256 bytes
const LONGEST = 'n'.repeat(251) + '.txt'; // 255 bytes
const LONG_CHINESE = '文'.repeat(86); // 258 bytes in 86 characters

for (const dialect of DIALECTS) {
  for (const driver of ['local', 's3'] as const) {
    describe(`name limits (${dialect}, ${driver})`, { skip: driver === 's3' ? S3_SKIP : false }, () => {
      let t: TestApp;
      let admin: Record<string, string>;
      let bucket: string | undefined;
      const s3 = driver === 's3' ? s3AdminClient() : undefined;

      before(async () => {
        t = await createTestApp(dialect);
        t.clock.followRealTime();
        admin = bearer(await t.adminToken());
        let configId: string;
        if (driver === 's3') {
          bucket = await createBucket(s3!, 'cubby-names');
          configId = await insertS3Config(t, bucket);
        } else {
          const made = await t.json('/api/s3-configs', {
            method: 'POST',
            headers: admin,
            json: {
              name: 'names',
              provider_type: 'Local',
              root_path: `${t.database.dataDir}/names-${randomUUID()}`,
            },
          });
          configId = made.body.data.id;
        }
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: 'm', mount_path: '/m', storage_config_id: configId },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
      });
      after(async () => {
        await t.close();
        if (bucket) await deleteBucket(s3!, bucket);
      });

      const post = (path: string, json: unknown) =>
        t.json(`/api/admin/fs/${path}`, {
          method: 'POST',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          json,
        });
      const form = (folder: string, name: string) => {
        const body = new FormData();
        body.append('path', folder);
        body.append('file', new Blob(['x']), name);
        return t.json('/api/admin/fs/upload', {
          method: 'POST',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          body,
        });
      };
      const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
        t.request(`/dav${path.split('/').map(encodeURIComponent).join('/')}`, {
          method,
          headers: { ...admin, ...headers },
          ...(body === undefined ? {} : { body }),
        });

      it('the fs API refuses a name over 255 bytes on every write, and takes one of 255', async () => {
        for (const name of [LONG, LONG_CHINESE]) {
          const answers = [
            await post('mkdir', { path: `/m/${name}/` }),
            await form('/m', name),
            await post('update', { path: `/m/${name}`, content: 'x' }),
            await post('multipart/init', { path: '/m', filename: name, fileSize: 6 * 1024 * 1024 }),
            await post('presign', { path: '/m', fileName: name, fileSize: 1 }),
            await post('mkdir', { path: `/m/ok/${name}/deeper/` }),
          ];
          for (const res of answers) {
            assert.equal(res.status, 400, JSON.stringify(res.body));
            assert.match(res.body.message, /at most 255 bytes/);
          }
        }
        assert.equal((await post('update', { path: `/m/${LONGEST}`, content: 'x' })).status, 200);
        const renamed = await post('rename', { oldPath: `/m/${LONGEST}`, newPath: `/m/${LONG}` });
        assert.equal(renamed.status, 400);
        const listed = await t.json('/api/admin/fs/list?path=/m', { headers: admin });
        assert.deepEqual(
          listed.body.data.items.map((i: { name: string }) => i.name),
          [LONGEST],
        );
      });

      it('WebDAV refuses a name over 255 bytes on PUT, MKCOL and MOVE', async () => {
        assert.equal((await dav('PUT', `/m/${LONG}`, {}, 'x')).status, 400);
        assert.equal((await dav('MKCOL', `/m/${LONG_CHINESE}`)).status, 400);
        assert.equal((await dav('PUT', '/m/short.txt', {}, 'x')).status, 201);
        const destination = `/dav/m/${encodeURIComponent(LONG)}`;
        assert.equal((await dav('MOVE', '/m/short.txt', { Destination: destination })).status, 400);
      });
    });
  }
}
