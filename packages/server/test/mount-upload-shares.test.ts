/**
 * Whether an upload into a mount publishes a file share (issue 21), on both databases: the two
 * settings (`fs_upload_share`, on by default as in CloudPaste; `webdav_upload_share`, off by default
 * as in CloudPaste), every door that stores a file — the fs form upload, the relay (multipart), the
 * presigned upload and WebDAV PUT — with each setting on and off, the answers' CloudPaste share
 * fields (null when nothing was published), shares already on a file following its new bytes, and
 * file management listing shares by source.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import {
  ADMIN,
  apiKey,
  bearer,
  createTestApp,
  fileRow,
  type TestApp,
  mountLocalDisk,
} from './support/test-app.ts';

const BASIC = {
  Authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
};

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read freely
  body: any;
}

for (const dialect of DIALECTS) {
  describe(`upload shares (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let key: Record<string, string>;
    let keyId: string;
    let configId: string;

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      ({ configId } = await mountLocalDisk(t, admin, '/m'));
      const created = await t.createKey({
        name: 'uploader',
        mount_permission: true,
        file_permission: true,
        basic_path: '/m',
      });
      key = apiKey(created.key);
      keyId = created.id;
    });
    after(() => t.close());

    // Each test starts from the defaults.
    beforeEach(async () => {
      await t.database.db.kysely
        .deleteFrom('settings')
        .where('key', 'in', ['fs_upload_share', 'webdav_upload_share'])
        .execute();
    });

    const post = (path: string, json: unknown, headers = admin) =>
      t.json(path, { method: 'POST', headers, json });
    const settings = (json: Record<string, unknown>) =>
      t.json('/api/admin/system-settings', { method: 'PUT', headers: admin, json });
    /** The shares of the file at `subPath` of the mount's storage. */
    const sharesOf = (subPath: string) =>
      t.database.db.kysely
        .selectFrom('files')
        .selectAll()
        .where('storage_config_id', '=', configId)
        .where('storage_path', '=', subPath)
        .execute();

    const formUpload = (dir: string, name: string, content: string, headers = admin, tree = 'admin') => {
      const form = new FormData();
      form.append('path', dir);
      form.append('file', new Blob([content]), name);
      return t.json(`/api/${tree}/fs/upload`, { method: 'POST', headers, body: form });
    };
    const relayUpload = async (dir: string, name: string, content: string): Promise<Answer> => {
      const init = await post('/api/admin/fs/multipart/init', { path: dir, filename: name });
      assert.equal(init.status, 200, JSON.stringify(init.body));
      const { uploadId, key: target } = init.body.data;
      const bytes = new TextEncoder().encode(content);
      const part = await t.json(
        `/api/admin/fs/multipart/part?uploadId=${encodeURIComponent(uploadId)}&partNumber=1&key=${encodeURIComponent(target)}`,
        {
          method: 'POST',
          headers: {
            ...admin,
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(bytes.length),
          },
          body: bytes,
        },
      );
      assert.equal(part.status, 200, JSON.stringify(part.body));
      return post('/api/admin/fs/multipart/complete', {
        path: dir,
        uploadId,
        key: target,
        parts: [part.body.data],
      });
    };
    const presignedUpload = async (dir: string, name: string, content: string): Promise<Answer> => {
      const p = await post('/api/admin/fs/presign', { path: dir, fileName: name, fileSize: content.length });
      assert.equal(p.status, 200, JSON.stringify(p.body));
      const url = new URL(p.body.data.presignedUrl);
      const put = await t.request(url.pathname + url.search, {
        method: 'PUT',
        headers: p.body.data.upload_headers,
        body: content,
      });
      assert.equal(put.status, 200, await put.text());
      return post('/api/admin/fs/presign/commit', { ...p.body.data, etag: put.headers.get('ETag') });
    };
    const davPut = (path: string, content: string) =>
      t.request(`/dav${path}`, { method: 'PUT', headers: BASIC, body: content });

    const doors = [
      ['form upload', formUpload],
      ['relay upload', relayUpload],
      ['presigned upload', presignedUpload],
    ] as const;

    it('settings: fs uploads publish by default, WebDAV uploads do not; both are saved, answered and checked', async () => {
      const value = (rows: Array<{ key: string; value: string }>, name: string) =>
        rows.find((row) => row.key === name)?.value;
      const listed = await t.json('/api/admin/system-settings', { headers: admin });
      assert.equal(value(listed.body.data, 'fs_upload_share'), 'true');
      assert.equal(value(listed.body.data, 'webdav_upload_share'), 'false');
      const announced = await t.json('/api/system/max-upload-size');
      assert.equal(announced.body.data.fs_upload_share, true);
      assert.equal(announced.body.data.webdav_upload_share, false);

      const bad = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: { ...admin, 'X-Cubby-Lang': 'en' },
        json: { fs_upload_share: 'yes' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.message, /fs_upload_share must be true or false/);
      assert.equal(
        (await t.json('/api/admin/system-settings', { method: 'PUT', json: { webdav_upload_share: true } }))
          .status,
        401,
      );

      const saved = await settings({ fs_upload_share: false, webdav_upload_share: true });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(value(saved.body.data, 'fs_upload_share'), 'false');
      assert.equal(value(saved.body.data, 'webdav_upload_share'), 'true');
      const now = await t.json('/api/system/max-upload-size');
      assert.deepEqual([now.body.data.fs_upload_share, now.body.data.webdav_upload_share], [false, true]);
    });

    for (const [door, upload] of doors) {
      it(`${door}: publishes a share by default, with CloudPaste's share fields`, async () => {
        const name = `${door.split(' ')[0]}-on.txt`;
        const res = await upload('/m/on', name, 'published');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const [share] = await sharesOf(`/on/${name}`);
        assert.ok(share, 'one share of the upload');
        assert.equal(share.source, 'mount_upload');
        assert.equal(share.keep_object, 1, 'the file belongs to the mount');
        assert.equal(res.body.data.fileId, share.id);
        assert.equal(res.body.data.slug, share.slug);
        const page = await t.json(`/api/public/files/${share.slug}`);
        assert.equal(page.status, 200);
        assert.equal(page.body.data.filename, name);
        assert.equal(page.body.data.size, 'published'.length);
      });

      it(`${door}: with fs_upload_share off, stores the file, publishes nothing and answers null share fields`, async () => {
        assert.equal((await settings({ fs_upload_share: false })).status, 200);
        const name = `${door.split(' ')[0]}-off.txt`;
        const res = await upload('/m/off', name, 'kept private');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.success, true);
        assert.ok(
          'fileId' in res.body.data && 'slug' in res.body.data,
          'the fields stay, as CloudPaste answers them',
        );
        assert.equal(res.body.data.fileId, null);
        assert.equal(res.body.data.slug, null);
        assert.equal(res.body.data.path, `/m/off/${name}`);
        assert.equal(res.body.data.size, 'kept private'.length);
        assert.deepEqual(await sharesOf(`/off/${name}`), []);
        const stored = await t.request(
          `/api/admin/fs/download?path=${encodeURIComponent(`/m/off/${name}`)}`,
          {
            headers: admin,
          },
        );
        assert.equal(await stored.text(), 'kept private');
      });
    }

    it("a key's upload is published as its own share, and not at all with the setting off", async () => {
      const mine = await formUpload('/m/keys', 'mine.txt', 'by key', key, 'user');
      assert.equal(mine.status, 200, JSON.stringify(mine.body));
      const [share] = await sharesOf('/keys/mine.txt');
      assert.equal(share?.created_by, `apikey:${keyId}`);
      const own = await t.json('/api/user/files?source=mount_upload', { headers: key });
      assert.deepEqual(
        own.body.data.files.map((f: { id: string }) => f.id),
        [share!.id],
      );

      assert.equal((await settings({ fs_upload_share: false })).status, 200);
      const quiet = await formUpload('/m/keys', 'quiet.txt', 'by key', key, 'user');
      assert.equal(quiet.status, 200, JSON.stringify(quiet.body));
      assert.equal(quiet.body.data.slug, null);
      assert.deepEqual(await sharesOf('/keys/quiet.txt'), []);
    });

    it('WebDAV PUT publishes nothing by default; turned on, a new file gets one share that follows rewrites', async () => {
      assert.equal((await t.request('/dav/m/dav', { method: 'MKCOL', headers: BASIC })).status, 201);
      assert.equal((await davPut('/m/dav/quiet.txt', 'unshared')).status, 201);
      assert.deepEqual(await sharesOf('/dav/quiet.txt'), []);

      assert.equal((await settings({ webdav_upload_share: true })).status, 200);
      assert.equal((await davPut('/m/dav/loud.txt', 'shared')).status, 201);
      const [first] = await sharesOf('/dav/loud.txt');
      assert.equal(first?.source, 'mount_upload');
      assert.equal((await davPut('/m/dav/loud.txt', 'shared again')).status, 204);
      const after = await sharesOf('/dav/loud.txt');
      assert.deepEqual(
        after.map((row) => [row.id, Number(row.size)]),
        [[first!.id, 'shared again'.length]],
      );
      // The fs setting does not decide for WebDAV, nor WebDAV's for fs.
      assert.equal((await settings({ fs_upload_share: false, webdav_upload_share: true })).status, 200);
      assert.equal((await davPut('/m/dav/third.txt', '3')).status, 201);
      assert.equal((await sharesOf('/dav/third.txt')).length, 1);
    });

    it('an upload over a file that has shares brings them up to date, published or not', async () => {
      assert.equal((await formUpload('/m/again', 'a.txt', 'one')).status, 200);
      const shared = await post('/api/admin/fs/share', { path: '/m/again/a.txt', slug: `again-${dialect}` });
      assert.equal(shared.status, 201, JSON.stringify(shared.body));
      assert.equal((await settings({ fs_upload_share: false })).status, 200);
      assert.equal((await formUpload('/m/again', 'a.txt', 'three')).status, 200);
      const rows = await sharesOf('/again/a.txt');
      assert.equal(rows.length, 2, "the first upload's share and the explorer share; no new one");
      assert.deepEqual(
        rows.map((row) => Number(row.size)),
        [5, 5],
      );
      const page = await t.json(`/api/public/files/again-${dialect}`);
      assert.equal(page.body.data.size, 5);
    });

    it("deleting a mount upload's share in file management leaves the file in its mount", async () => {
      const up = await formUpload('/m/kept', 'k.txt', 'mine to keep');
      assert.equal(up.status, 200, JSON.stringify(up.body));
      const deleted = await t.json(`/api/admin/files/${up.body.data.fileId}`, {
        method: 'DELETE',
        headers: admin,
      });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.deepEqual(await sharesOf('/kept/k.txt'), []);
      const still = await t.request('/api/admin/fs/download?path=/m/kept/k.txt', { headers: admin });
      assert.equal(await still.text(), 'mine to keep');
    });

    it('file management lists every share, or those of one source; another source is refused', async () => {
      const kysely = t.database.db.kysely;
      const tag = randomUUID().slice(0, 8);
      const pageShare = fileRow({ storage_config_id: configId, filename: `page-${tag}.txt` });
      const mountShare = fileRow({
        storage_config_id: configId,
        filename: `mount-${tag}.txt`,
        source: 'mount_upload',
      });
      await kysely.insertInto('files').values([pageShare, mountShare]).execute();
      const ids = async (query: string) => {
        const res = await t.json(`/api/admin/files?search=${tag}${query}`, { headers: admin });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.files.map((f: { id: string; source: string }) => `${f.id}:${f.source}`).sort();
      };
      const page = `${pageShare.id}:share`;
      const mount = `${mountShare.id}:mount_upload`;
      assert.deepEqual(await ids(''), [page, mount].sort());
      assert.deepEqual(await ids('&source=share'), [page]);
      assert.deepEqual(await ids('&source=mount_upload'), [mount]);
      const bad = await t.json('/api/admin/files?source=webdav', {
        headers: { ...admin, 'X-Cubby-Lang': 'en' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.message, /source must be share or mount_upload/);
    });
  });
}
