/**
 * The share policy (docs/api.md, "Share policy") over HTTP on both databases: the admin sets it in
 * the system settings, anyone reads it at /api/public/share-policy, and every door obeys it — paste
 * create and update, the upload form (ShareX's door too), upload-direct, presign + commit,
 * multipart, URL presign and multipart, tus `share`, file share changes, fs/share, fs/create-share
 * on a file and a folder, bundles create and change: defaults applied when a request names none, a
 * later or "never" expiry and too many views refused (400), too large (413), a type not allowed
 * (415), each with a message naming the limit; keys' permanent and unprotected rules (bundles and
 * folder shares too), which bind no admin.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLEAR_SHARE_POLICY, NO_SHARE_POLICY } from '@cubby/shared';
import { streamOf } from './storage/contract.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, s3AdminClient, S3_SKIP } from './support/s3.ts';
import { apiKey, bearer, createTestApp, mountLocalDisk, type TestApp } from './support/test-app.ts';

const EN = { 'X-Cubby-Lang': 'en' };
const HOUR = 3600_000;

/** Asserts a refusal: its status and that its message names `words`. */
function refusedWith(res: { status: number; body: { message: string } }, status: number, words: RegExp) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.body.message, words);
}

/** tus Upload-Metadata: keys and base64 values. */
const metadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

for (const dialect of DIALECTS) {
  describe(`share policy (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let key: Record<string, string>;
    const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();

    const policy = (json: Record<string, unknown>) =>
      t.json('/api/admin/system-settings', { method: 'PUT', headers: admin, json });
    const post = (url: string, json: unknown, headers = admin) =>
      t.json(url, { method: 'POST', headers: { ...EN, ...headers }, json });
    const paste = (json: Record<string, unknown>, headers = admin) => post('/api/paste', json, headers);
    const form = (name: string, bytes: number, fields: Record<string, string> = {}, headers = admin) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      body.append('file', new Blob([new Uint8Array(bytes).fill(97)]), name);
      return t.json('/api/upload', { method: 'POST', headers: { ...EN, ...headers }, body });
    };
    const tus = (name: string, length: number, meta: Record<string, string> = {}) =>
      t.request('/api/tus/', {
        method: 'POST',
        headers: {
          ...EN,
          ...admin,
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(length),
          'Upload-Metadata': metadata({ filename: name, share: '', ...meta }),
        },
      });
    /** Uploads started and not finished (a refused one starts none). */
    const pendingCount = async () =>
      (await t.database.db.kysely.selectFrom('files').select('id').where('status', '=', 'pending').execute())
        .length;
    const refused = refusedWith;

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      key = apiKey(
        (
          await t.createKey({
            name: 'bot',
            text_permission: true,
            file_permission: true,
            mount_permission: true,
          })
        ).key,
      );
      const { configId } = await mountLocalDisk(t, admin, '/m');
      const driver = await t.services.storageConfigs.driver(
        (await t.services.storageConfigs.find(configId))!,
      );
      await driver.write('/docs/small.txt', streamOf('hello'));
      await driver.write('/docs/big.txt', streamOf('x'.repeat(2000)));
      await driver.write('/docs/tool.exe', streamOf('MZ'));
    });
    after(() => t.close());

    it('is absent until set: no limits, and every door answers as before', async () => {
      const open = await t.json('/api/public/share-policy');
      assert.equal(open.status, 200);
      // Every limit null, no types, both key rules allowing: the settings left out mean no policy.
      assert.deepEqual(open.body.data, NO_SHARE_POLICY);
      const made = await paste({ content: 'forever' }, key);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.data.expiresAt, null);
      assert.equal(made.body.data.maxViews, 0);
    });

    it('the admin sets it (listed in its group, types canonical); a default above its maximum is refused', async () => {
      const set = await policy({
        share_default_expiry_hours: 24,
        share_max_expiry_hours: 48,
        share_default_max_views: 5,
        share_max_views: 10,
        share_max_bytes: 1000,
        share_allowed_types: 'TXT, .md',
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const rows = (set.body.data as Array<{ key: string; value: string; group?: string }>).filter(
        (r) => r.group === 'share_policy',
      );
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.key, r.value])), {
        share_default_expiry_hours: '24',
        share_max_expiry_hours: '48',
        share_default_max_views: '5',
        share_max_views: '10',
        share_max_bytes: '1000',
        share_allowed_types: '.txt, .md',
        keys_may_make_permanent: 'true',
        keys_may_make_unprotected: 'true',
      });
      assert.equal((await policy({ share_default_max_views: 11 })).status, 400);
      assert.equal((await policy({ share_allowed_types: 'pdf, not a type!' })).status, 400);
      assert.equal((await policy({ share_max_views: 0 })).status, 400);
      const open = (await t.json('/api/public/share-policy')).body.data;
      assert.equal(open.max_views, 10);
      assert.deepEqual(open.allowed_types, ['.txt', '.md']);
    });

    it('pastes: defaults applied; later, never, unlimited, too many views and too large refused, on update too', async () => {
      const made = await paste({ content: 'hello' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.data.expiresAt, inHours(24));
      assert.equal(made.body.data.maxViews, 5);
      refused(await paste({ content: 'x', expiresAt: inHours(49) }), 400, /48 hours/);
      refused(await paste({ content: 'x', expiresAt: null }), 400, /within 48 hours/);
      refused(await paste({ content: 'x', maxViews: 0 }), 400, /at most 10 views/);
      refused(await paste({ content: 'x', maxViews: 11 }), 400, /at most 10 views/);
      refused(await paste({ content: 'é'.repeat(501) }), 413, /1000 B/);
      const kept = await paste({ content: 'x', expiresAt: inHours(48), maxViews: 10 });
      assert.equal(kept.status, 201, JSON.stringify(kept.body));

      const edit = (json: Record<string, unknown>) =>
        t.json(`/api/user/pastes/${made.body.data.slug}`, {
          method: 'PUT',
          headers: { ...EN, ...admin },
          json,
        });
      refused(await edit({ maxViews: 20 }), 400, /at most 10 views/);
      refused(await edit({ expiresAt: inHours(72) }), 400, /48 hours/);
      refused(await edit({ content: 'y'.repeat(1001) }), 413, /1000 B/);
      const fine = await edit({ remark: 'still within the policy' });
      assert.equal(fine.status, 200, JSON.stringify(fine.body));
    });

    it('uploads through the form (ShareX) and upload-direct: defaults, size cut at the limit, types', async () => {
      const ok = await form('notes.txt', 10);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const info = (await t.json(`/api/public/files/${ok.body.data.slug}`)).body.data;
      assert.equal(info.expires_at, inHours(24));
      assert.equal(info.max_views, 5);
      refused(await form('big.txt', 2000), 413, /1000 B/);
      refused(await form('tool.exe', 10), 415, /tool\.exe.*\.txt, \.md/);
      refused(await form('notes.txt', 10, { expires_in: '0' }), 400, /within 48 hours/);
      refused(await form('notes.txt', 10, { expires_in: '100' }), 400, /48 hours/);
      refused(await form('notes.txt', 10, { max_views: '0' }), 400, /at most 10 views/);

      const direct = (name: string, bytes: number) =>
        t.json(`/api/upload-direct/${name}`, {
          method: 'PUT',
          headers: { ...EN, ...admin },
          body: new Uint8Array(bytes).fill(98),
        });
      refused(await direct('big.md', 5000), 413, /1000 B/);
      refused(await direct('run.sh', 5), 415, /run\.sh/);
      assert.equal((await direct('ok.md', 5)).status, 200);
      // Nothing refused was kept.
      const listed = await t.json('/api/user/files?limit=100', { headers: admin });
      const names = (listed.body.data.files as Array<{ filename: string }>).map((f) => f.filename).sort();
      assert.deepEqual(names, ['notes.txt', 'ok.md']);
    });

    it('tus `share` uploads are refused before a byte: size, type, views', async () => {
      const big = await tus('big.txt', 2000);
      assert.equal(big.status, 413, await big.text());
      const exe = await tus('tool.exe', 10);
      assert.equal(exe.status, 415, await exe.text());
      const views = await tus('ok.txt', 10, { max_views: '50' });
      assert.equal(views.status, 400, await views.text());
      assert.equal((await tus('ok.txt', 10)).status, 201);
    });

    it('presign, multipart and URL uploads are refused from their declared size before a byte; a commit too', async () => {
      const pendingBefore = await pendingCount();
      refused(await post('/api/s3/presign', { filename: 'big.txt', size: 2000 }), 413, /1000 B/);
      refused(await post('/api/s3/presign', { filename: 'tool.exe', size: 10 }), 415, /tool\.exe/);
      refused(await post('/api/s3/presign', { filename: 'a.txt', size: 10, max_views: 50 }), 400, /10 views/);
      refused(
        await post('/api/s3/multipart/init', { filename: 'big.md', size: 6 * 1024 * 1024 }),
        413,
        /1000 B/,
      );
      // A URL upload names its size (metadata, or the server's probe of the URL): refused from it.
      const source = 'http://127.0.0.1:9/files/';
      refused(
        await post('/api/url/presign', {
          url: `${source}big.txt`,
          metadata: { filename: 'big.txt', size: 2000 },
        }),
        413,
        /1000 B/,
      );
      refused(
        await post('/api/url/multipart/init', { url: `${source}run.sh`, filename: 'run.sh', total_size: 10 }),
        415,
        /run\.sh/,
      );
      refused(
        await post('/api/url/presign', { url: `${source}a.txt`, filename: 'a.txt', size: 5, expires_in: 0 }),
        400,
        /within 48 hours/,
      );
      assert.equal(await pendingCount(), pendingBefore, 'no upload was started for a refused one');

      // The bytes are in storage; the commit's fields break the policy: refused, and the upload is
      // still there to commit with fields that keep it.
      const p = (await post('/api/s3/presign', { filename: 'late.txt', size: 5 })).body.data;
      const target = new URL(p.upload_url);
      const put = await t.request(target.pathname + target.search, {
        method: 'PUT',
        body: 'hello',
        headers: p.upload_headers,
      });
      assert.equal(put.status, 200, await put.text());
      refused(await post('/api/s3/commit', { file_id: p.file_id, expires_in: 0 }), 400, /within 48 hours/);
      refused(await post('/api/s3/commit', { file_id: p.file_id, max_views: 11 }), 400, /10 views/);
      const done = await post('/api/s3/commit', { file_id: p.file_id, max_views: 3 });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const info = (await t.json(`/api/public/files/${p.slug}`)).body.data;
      assert.equal(info.max_views, 3);
      assert.equal(info.expires_at, inHours(24));
    });

    it('file share changes: a later or "never" expiry and too many views refused, a remark is fine', async () => {
      const made = (await form('change.txt', 10)).body.data;
      const change = (json: Record<string, unknown>) =>
        t.json(`/api/admin/files/${made.id}`, { method: 'PUT', headers: { ...EN, ...admin }, json });
      refused(await change({ expires_in: 0 }), 400, /within 48 hours/);
      refused(await change({ expires_at: inHours(72) }), 400, /48 hours/);
      refused(await change({ max_views: 0 }), 400, /at most 10 views/);
      const fine = await change({ remark: 'renamed', max_views: 10 });
      assert.equal(fine.status, 200, JSON.stringify(fine.body));
      assert.equal(fine.body.data.max_views, 10);
    });

    it('fs/share and fs/create-share (file and folder): defaults applied, limits refused', async () => {
      const shared = await post('/api/admin/fs/share', { path: '/m/docs/small.txt' });
      assert.equal(shared.status, 201, JSON.stringify(shared.body));
      assert.equal(shared.body.data.max_views, 5);
      assert.equal(shared.body.data.expires_at, inHours(24));
      refused(await post('/api/admin/fs/share', { path: '/m/docs/big.txt' }), 413, /1000 B/);
      refused(await post('/api/fs/create-share', { path: '/m/docs/tool.exe' }), 415, /tool\.exe/);
      refused(await post('/api/admin/fs/share', { path: '/m/docs/small.txt', expires_in: 0 }), 400, /48/);

      const folder = await post('/api/fs/create-share', { path: '/m/docs' });
      assert.equal(folder.status, 201, JSON.stringify(folder.body));
      assert.equal(folder.body.data.max_views, 5);
      assert.equal(folder.body.data.expires_at, inHours(24));
      refused(await post('/api/fs/create-share', { path: '/m/docs', max_views: 0 }), 400, /10 views/);
      const change = await t.json(`/api/folder-shares/${folder.body.data.slug}`, {
        method: 'PUT',
        headers: { ...EN, ...admin },
        json: { expires_in: 0 },
      });
      refused(change, 400, /within 48 hours/);
    });

    it('bundles: the total of their files, their types, their views', async () => {
      const a = (await form('a.txt', 600)).body.data.slug as string;
      const b = (await form('b.txt', 600)).body.data.slug as string;
      refused(
        await post('/api/bundles', {
          items: [
            { type: 'file', value: a },
            { type: 'file', value: b },
          ],
        }),
        413,
        /1000 B/,
      );
      refused(
        await post('/api/bundles', { items: [{ type: 'path', value: '/m/docs/tool.exe' }] }),
        415,
        /tool\.exe/,
      );
      const made = await post('/api/bundles', { items: [{ type: 'file', value: a }] });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const detail = await t.json(`/api/bundles/${made.body.data.slug}`, { headers: admin });
      assert.equal(detail.body.data.max_views, 5);
      refused(
        await t.json(`/api/bundles/${made.body.data.slug}`, {
          method: 'PUT',
          headers: { ...EN, ...admin },
          json: { max_views: 99 },
        }),
        400,
        /10 views/,
      );
    });

    it('keys may be kept from permanent and unprotected shares; the admin is not', async () => {
      await policy({
        ...CLEAR_SHARE_POLICY,
        keys_may_make_permanent: false,
        keys_may_make_unprotected: false,
      });
      refused(await paste({ content: 'x', expiresAt: inHours(1) }, key), 400, /API key must have a password/);
      refused(await paste({ content: 'x', password: 'pw-1' }, key), 400, /API key must expire/);
      const keyed = await paste({ content: 'x', password: 'pw-1', expiresAt: inHours(1) }, key);
      assert.equal(keyed.status, 201, JSON.stringify(keyed.body));
      const edit = await t.json(`/api/user/pastes/${keyed.body.data.slug}`, {
        method: 'PUT',
        headers: { ...EN, ...key },
        json: { clearPassword: true },
      });
      refused(edit, 400, /API key must have a password/);
      refused(await post('/api/user/fs/share', { path: '/m/docs/small.txt' }, key), 400, /API key/);
      refused(
        await post('/api/fs/create-share', { path: '/m/docs', expires_in: 1 }, key),
        400,
        /API key must have a password/,
      );
      refused(await form('k.txt', 5, { expires_in: '1' }, key), 400, /API key must have a password/);
      refused(
        await post('/api/s3/presign', { filename: 'k.txt', size: 5, password: 'pw-1' }, key),
        400,
        /API key must expire/,
      );
      // A bundle has a password, an expiry and views as a share has: the key rules hold for it too.
      const file = (await form('k.txt', 5, { expires_in: '1', password: 'pw-1' }, key)).body.data;
      assert.ok(file?.id, 'a protected, expiring upload by the key is made');
      const items = [{ type: 'file', value: file.slug }];
      refused(await post('/api/bundles', { items, expires_in: 1 }, key), 400, /API key must have a password/);
      refused(await post('/api/bundles', { items, password: 'pw-2' }, key), 400, /API key must expire/);
      const bundle = await post('/api/bundles', { items, password: 'pw-2', expires_in: 1 }, key);
      assert.equal(bundle.status, 201, JSON.stringify(bundle.body));
      const unprotect = (url: string, json: Record<string, unknown>) =>
        t.json(url, { method: 'PUT', headers: { ...EN, ...key }, json });
      refused(await unprotect(`/api/bundles/${bundle.body.data.slug}`, { password: null }), 400, /password/);
      refused(await unprotect(`/api/user/files/${file.id}`, { password: null }), 400, /password/);
      refused(await unprotect(`/api/user/files/${file.id}`, { expires_in: 0 }), 400, /API key must expire/);
      const byAdmin = await paste({ content: 'forever, open' });
      assert.equal(byAdmin.status, 201, JSON.stringify(byAdmin.body));
      assert.equal(byAdmin.body.data.expiresAt, null);
    });
  });

  // Where the bytes go straight from the client to the bucket: presigned, the refusal comes before
  // a byte; a refused commit leaves the object uncompleted and the upload open.
  describe(`share policy on S3 presign and multipart (${dialect}, radosgw)`, { skip: S3_SKIP }, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let s3: ReturnType<typeof s3AdminClient> | undefined;
    let bucket: string | undefined;
    let configId: string;
    const post = (url: string, json: Record<string, unknown>) =>
      t.json(url, {
        method: 'POST',
        headers: { ...EN, ...admin },
        json: { s3_config_id: configId, ...json },
      });

    before(async () => {
      t = await createTestApp(dialect);
      // Presigned URLs are signed with the app's clock; radosgw checks them against real time.
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      s3 = s3AdminClient();
      bucket = await createBucket(s3, 'cubby-policy');
      configId = await insertS3Config(t, bucket, { isPublic: true });
      const set = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: {
          share_default_max_views: 5,
          share_max_views: 10,
          share_max_bytes: 1000,
          share_allowed_types: 'txt',
        },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    });
    after(async () => {
      if (s3 && bucket) await deleteBucket(s3, bucket);
      s3?.destroy();
      await t?.close();
    });

    it('refuses from the declared size and type; a refused commit can be sent again', async () => {
      refusedWith(await post('/api/s3/presign', { filename: 'big.txt', size: 2000 }), 413, /1000 B/);
      refusedWith(
        await post('/api/s3/multipart/init', { filename: 'big.txt', size: 8 * 1024 * 1024 }),
        413,
        /1000 B/,
      );
      refusedWith(await post('/api/s3/multipart/init', { filename: 'a.bin', size: 10 }), 415, /a\.bin/);

      const p = (await post('/api/s3/presign', { filename: 'kept.txt', size: 5 })).body.data;
      const put = await fetch(p.upload_url, { method: 'PUT', body: 'hello', headers: p.upload_headers });
      assert.equal(put.status, 200, await put.text());
      refusedWith(await post('/api/s3/commit', { file_id: p.file_id, max_views: 0 }), 400, /10 views/);
      const done = await post('/api/s3/commit', { file_id: p.file_id, max_views: 2 });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const download = await t.request(`/api/file-download/${p.slug}`);
      assert.equal(await download.text(), 'hello');
    });
  });
}
