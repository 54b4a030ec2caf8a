/**
 * Upload requests (issue 24, docs/api.md "Upload requests") over HTTP on both databases, into a
 * mount on local disk and one on S3: who may create one (a folder they may write), uploads streamed
 * into the folder with safe names confined to it, never overwriting, the type and size rules, the
 * limits exact under 200 concurrent uploads, the password under its rate limit, expiry and revoke
 * (410 at once, files kept), and what uploaders see of earlier uploads. Requests into a new bundle:
 * form and tus uploads become file shares listed by the bundle byte for byte, max_files exact under
 * 50 concurrent uploads (the bundle holds exactly the files accepted), a revoked bundle 410.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sanitiseName } from '../src/modules/upload-requests/upload-requests.service.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, s3AdminClient, s3ConfigBody, S3_SKIP } from './support/s3.ts';
import {
  apiKey,
  bearer,
  createTestApp,
  mountLocalDisk,
  type TestApp,
  tusMetadata,
} from './support/test-app.ts';

const CONCURRENT = 200;
const ACCESS = 'X-Upload-Request-Token';

for (const dialect of DIALECTS) {
  describe(`upload requests (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let bucket: string | undefined;
    const s3 = S3_SKIP ? undefined : s3AdminClient();

    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      await mountLocalDisk(t, admin, '/local');
      if (s3) {
        bucket = await createBucket(s3, 'cubby-requests');
        const config = await t.json('/api/s3-configs', {
          method: 'POST',
          headers: admin,
          json: s3ConfigBody('requests-s3', bucket),
        });
        assert.equal(config.status, 201, JSON.stringify(config.body));
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: 's3', mount_path: '/s3', storage_config_id: config.body.data.id },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
      }
    });
    after(async () => {
      await t.close();
      if (bucket) await deleteBucket(s3!, bucket);
      s3?.destroy();
    });

    const post = (path: string, json: unknown, headers = admin) =>
      t.json(path, { method: 'POST', headers, json });
    const mkdir = async (path: string) => {
      const res = await post('/api/admin/fs/mkdir', { path });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const names = async (path: string): Promise<string[]> => {
      const res = await t.json(`/api/admin/fs/list?path=${encodeURIComponent(path)}&refresh=true`, {
        headers: admin,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.data.items as { name: string }[]).map((item) => item.name).sort();
    };
    const content = async (path: string) => {
      const res = await t.request(`/api/admin/fs/download?path=${encodeURIComponent(path)}`, {
        headers: admin,
      });
      assert.equal(res.status, 200, path);
      return res.text();
    };
    const create = async (json: Record<string, unknown>, headers = admin) => {
      const res = await post('/api/upload-requests', json, headers);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data as { id: string; token: string; url: string };
    };
    /** One file through the uploader's form; `size` sent before the file when given. */
    const upload = (
      token: string,
      name: string,
      body: string,
      extra: { size?: number; batch?: string; headers?: Record<string, string> } = {},
    ) => {
      const form = new FormData();
      if (extra.size !== undefined) form.append('size', String(extra.size));
      if (extra.batch !== undefined) form.append('batch', extra.batch);
      form.append('file', new Blob([body]), name);
      return t.json(`/api/public/upload-requests/${token}/files`, {
        method: 'POST',
        headers: { 'X-Cubby-Lang': 'en', ...extra.headers },
        body: form,
      });
    };
    const counts = async (token: string) => {
      const res = await t.json(`/api/upload-requests/${token}`, { headers: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data as { files_count: number; bytes_total: number; uploads: { name: string }[] };
    };

    it('is created only for a folder its creator may write', async () => {
      await mkdir('/local/team');
      await mkdir('/local/other');
      const key = await t.createKey({ name: 'team', basic_path: '/local/team', mount_permission: true });
      const textOnly = await t.createKey({ name: 'text-only', text_permission: true });
      const ok = await create({ target_path: '/local/team' }, apiKey(key.key));
      assert.match(ok.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(new URL(ok.url).pathname, `/r/${ok.token}`);
      // The token is not stored: only its HMAC is.
      const row = await t.database.db.kysely
        .selectFrom('upload_requests')
        .selectAll()
        .where('id', '=', ok.id)
        .executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(row).includes(ok.token));

      const outside = await post('/api/upload-requests', { target_path: '/local/other' }, apiKey(key.key));
      assert.equal(outside.status, 403, JSON.stringify(outside.body));
      const noMount = await post(
        '/api/upload-requests',
        { target_path: '/local/team' },
        apiKey(textOnly.key),
      );
      assert.equal(noMount.status, 403);
      const anonymous = await t.json('/api/upload-requests', {
        method: 'POST',
        json: { target_path: '/local' },
      });
      assert.equal(anonymous.status, 401);
      const missing = await post('/api/upload-requests', { target_path: '/local/none' });
      assert.equal(missing.status, 400);
      const both = await post('/api/upload-requests', { bundle: true, target_path: '/local/team' });
      assert.equal(both.status, 400);
      assert.match(both.body.message, /target_path/);
      // A bundle request wants the file permission, not the mount one.
      const bundleByMountKey = await post('/api/upload-requests', { bundle: true }, apiKey(key.key));
      assert.equal(bundleByMountKey.status, 403, JSON.stringify(bundleByMountKey.body));
      const badType = await post('/api/upload-requests', {
        target_path: '/local/team',
        allowed_types: ['a b'],
      });
      assert.equal(badType.status, 400);

      // The key sees its own request, not the admin's; the admin sees both.
      const mine = await create({ target_path: '/local/other' });
      const keyList = await t.json('/api/upload-requests', { headers: apiKey(key.key) });
      assert.deepEqual(
        (keyList.body.data.items as { id: string }[]).map((r) => r.id),
        [ok.id],
      );
      assert.equal(
        (await t.json(`/api/upload-requests/${mine.token}`, { headers: apiKey(key.key) })).status,
        404,
      );
      const adminList = await t.json('/api/upload-requests', { headers: admin });
      const ids = (adminList.body.data.items as { id: string }[]).map((r) => r.id);
      assert.ok(ids.includes(ok.id) && ids.includes(mine.id));
    });

    for (const storage of ['local', 's3'] as const) {
      describe(`into ${storage}`, { skip: storage === 's3' ? S3_SKIP : false }, () => {
        const root = `/${storage}`;

        it('streams files into the folder under safe, confined names, never overwriting', async () => {
          const inbox = `${root}/inbox`;
          await mkdir(inbox);
          // A file already there keeps its bytes.
          const existing = new FormData();
          existing.append('path', inbox);
          existing.append('file', new Blob(['original']), 'same.txt');
          const put = await t.json('/api/admin/fs/upload', {
            method: 'POST',
            headers: admin,
            body: existing,
          });
          assert.equal(put.status, 200, JSON.stringify(put.body));

          const { token } = await create({ target_path: inbox });
          const long = `${'n'.repeat(300)}.txt`;
          const sent: [string, string][] = [
            ['hello.txt', 'hello'],
            ['../../escape.txt', 'up'],
            ['a/b/slash.txt', 'slash'],
            ['tab\tname.txt', 'tab'],
            ['..', 'dots'],
            [long, 'long'],
            ['same.txt', 'first copy'],
            ['same.txt', 'second copy'],
          ];
          const answers: string[] = [];
          for (const [name, body] of sent) {
            const res = await upload(token, name, body);
            assert.equal(res.status, 201, `${name}: ${JSON.stringify(res.body)}`);
            answers.push(res.body.data.name as string);
          }
          const longKept = answers[5]!;
          assert.ok(Buffer.byteLength(longKept) <= 255 && longKept.endsWith('.txt'), longKept);
          assert.deepEqual(answers, [
            'hello.txt',
            'escape.txt',
            'slash.txt',
            'tabname.txt',
            'file',
            longKept,
            'same (1).txt',
            'same (2).txt',
          ]);
          // NUL cannot even travel in a form's part header: the form is refused, nothing is kept.
          assert.equal((await upload(token, 'nul\u0000name.txt', 'nul')).status, 400);
          assert.equal(sanitiseName('a\u0000b\u0007.txt'), 'ab.txt');
          assert.deepEqual(await names(inbox), [...answers, 'same.txt'].sort());
          assert.equal(await content(`${inbox}/same.txt`), 'original');
          assert.equal(await content(`${inbox}/same (2).txt`), 'second copy');
          assert.equal(await content(`${inbox}/escape.txt`), 'up');
          // Nothing landed above the folder.
          assert.ok(!(await names(root)).includes('escape.txt'));
          const owner = await counts(token);
          assert.equal(owner.files_count, sent.length);
          assert.equal(
            owner.bytes_total,
            sent.reduce((sum, [, body]) => sum + body.length, 0),
          );
          assert.equal(owner.uploads.length, sent.length);
        });

        it('checks types before the bytes and sizes as they stream (413, nothing kept)', async () => {
          const folder = `${root}/typed`;
          await mkdir(folder);
          const { token } = await create({
            target_path: folder,
            allowed_types: ['PDF', 'image/*'],
            max_file_size: 10,
          });
          assert.equal((await upload(token, 'a.pdf', 'pdf')).status, 201);
          assert.equal((await upload(token, 'b.png', 'png')).status, 201);
          const txt = await upload(token, 'c.txt', 'text');
          assert.equal(txt.status, 415);
          assert.equal(
            txt.body.message,
            'Files of this type are not accepted: c.txt (accepted: .pdf, image/*)',
          );
          const declared = await upload(token, 'big.pdf', '12345678901', { size: 11 });
          assert.equal(declared.status, 413);
          const streamed = await upload(token, 'big2.pdf', '12345678901');
          assert.equal(streamed.status, 413);
          assert.equal(streamed.body.message, 'The file is too large (limit 10 B per file)');
          assert.deepEqual(await names(folder), ['a.pdf', 'b.png']);
          const owner = await counts(token);
          assert.deepEqual([owner.files_count, owner.bytes_total], [2, 6]);
        });

        // The counting is the database's: 200 racing uploads on local disk, a smaller race on S3.
        const racing = storage === 'local' ? CONCURRENT : 20;
        it(`holds max_files and max_total_size exactly under ${racing} concurrent uploads`, async () => {
          const byFiles = `${root}/by-files`;
          const byBytes = `${root}/by-bytes`;
          await mkdir(byFiles);
          await mkdir(byBytes);
          const files = await create({ target_path: byFiles, max_files: 7 });
          const bytes = await create({ target_path: byBytes, max_total_size: 95 });
          const race = (token: string, declare: boolean) =>
            Promise.all(
              Array.from({ length: racing }, (_, i) =>
                upload(token, `f${i}.bin`, '0123456789', declare ? { size: 10 } : {}),
              ),
            );
          const [fileAnswers, byteAnswers] = await Promise.all([
            race(files.token, true),
            race(bytes.token, false),
          ]);
          const tally = (answers: { status: number }[]) =>
            answers.reduce<Record<number, number>>(
              (acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }),
              {},
            );
          assert.deepEqual(tally(fileAnswers), { 201: 7, 409: racing - 7 });
          // 95 bytes take nine files of ten (streamed, reserved as they arrive); the tenth never fits.
          assert.deepEqual(tally(byteAnswers), { 201: 9, 413: racing - 9 });
          assert.equal((await names(byFiles)).length, 7);
          assert.equal((await names(byBytes)).length, 9);
          const f = await counts(files.token);
          assert.deepEqual([f.files_count, f.bytes_total], [7, 70]);
          const b = await counts(bytes.token);
          assert.deepEqual([b.files_count, b.bytes_total], [9, 90]);
          const full = fileAnswers.find((a) => a.status === 409)!;
          assert.equal(full.body.message, 'This upload link has received all the 7 files it takes');
        });

        it('keeps one upload’s files in its own subfolder', async () => {
          const folder = `${root}/batches`;
          await mkdir(folder);
          const { token } = await create({ target_path: folder, subfolder_per_upload: true });
          const first = await upload(token, 'one.txt', '1');
          assert.equal(first.status, 201);
          const batch = first.body.data.batch as string;
          assert.match(batch, /^\d{4}-\d{2}-\d{2} \d{6} [a-z0-9]{6}$/);
          const second = await upload(token, 'two.txt', '2', { batch });
          assert.equal(second.body.data.batch, batch);
          const other = await upload(token, 'three.txt', '3', { batch: '../escape' });
          assert.notEqual(other.body.data.batch, batch);
          assert.deepEqual(await names(`${folder}/${batch}`), ['one.txt', 'two.txt']);
          assert.equal((await names(folder)).length, 2);
        });
      });
    }

    it('asks for the password under the share rate limit', async () => {
      await mkdir('/local/secret');
      const { token } = await create({
        target_path: '/local/secret',
        password: 'open sesame',
        message: 'Only for the team',
        show_uploads: true,
      });
      const info = await t.json(`/api/public/upload-requests/${token}`);
      assert.equal(info.status, 200);
      assert.equal(info.body.data.requires_password, true);
      assert.equal(info.body.data.message, null);
      assert.equal(info.body.data.uploads, undefined);
      const refused = await upload(token, 'a.txt', 'a');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.message, 'This upload link needs a password');

      const verify = (password: string, ip: string) =>
        t.json(`/api/public/upload-requests/${token}/verify`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': ip },
          json: { password },
        });
      const wrong = await verify('nope', '198.51.100.1');
      assert.equal(wrong.status, 401);
      const right = await verify('open sesame', '198.51.100.1');
      assert.equal(right.status, 200, JSON.stringify(right.body));
      const access = { [ACCESS]: right.body.data.access_token as string };
      const sent = await upload(token, 'a.txt', 'a', { headers: access });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      const opened = await t.json(`/api/public/upload-requests/${token}`, { headers: access });
      assert.equal(opened.body.data.message, 'Only for the team');
      assert.deepEqual(
        (opened.body.data.uploads as { name: string }[]).map((u) => u.name),
        ['a.txt'],
      );
      // A web app served from another origin may send the access token too.
      const preflight = await t.request(`/api/public/upload-requests/${token}/files`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://other.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'x-upload-request-token',
        },
      });
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Upload-Request-Token/);
      // A forged token opens nothing.
      const forged = await upload(token, 'b.txt', 'b', { headers: { [ACCESS]: 'v1.e30.AAAA' } });
      assert.equal(forged.status, 401);

      // Guesses are limited (the share-password limits: counted per request and address).
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await verify(`guess ${i}`, '198.51.100.2')).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
      assert.equal((await verify('open sesame', '198.51.100.2')).status, 429);
      // A new password ends the access tokens of the old one.
      const changed = await t.json(`/api/upload-requests/${token}`, {
        method: 'PUT',
        headers: admin,
        json: { password: 'another one' },
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal((await upload(token, 'c.txt', 'c', { headers: access })).status, 401);
    });

    it('answers 410 once expired or revoked, and keeps what was uploaded', async () => {
      await mkdir('/local/late');
      const expiring = await create({ target_path: '/local/late', expires_in: 1 });
      const revoked = await create({ target_path: '/local/late' });
      assert.equal((await upload(revoked.token, 'kept.txt', 'kept')).status, 201);

      const revoke = await t.json(`/api/upload-requests/${revoked.token}`, {
        method: 'DELETE',
        headers: admin,
      });
      assert.equal(revoke.status, 200);
      assert.equal(revoke.body.data.state, 'revoked');
      const afterRevoke = await upload(revoked.token, 'more.txt', 'more');
      assert.equal(afterRevoke.status, 410);
      assert.equal(afterRevoke.body.message, 'This upload link has been revoked');
      assert.equal((await t.json(`/api/public/upload-requests/${revoked.token}`)).status, 410);
      assert.deepEqual(await names('/local/late'), ['kept.txt']);

      assert.equal((await t.json(`/api/public/upload-requests/${expiring.token}`)).status, 200);
      t.clock.advance(61 * 60 * 1000);
      const expired = await upload(expiring.token, 'late.txt', 'late');
      assert.equal(expired.status, 410);
      assert.equal(expired.body.message, 'This upload link has expired');
      const unknown = await t.json(`/api/public/upload-requests/${'x'.repeat(43)}`);
      assert.equal(unknown.status, 404);
    });

    it('shows uploaders what was sent only when the request says so', async () => {
      await mkdir('/local/shown');
      const shown = await create({ target_path: '/local/shown', show_uploads: true, max_files: 3 });
      const hidden = await create({ target_path: '/local/shown', show_uploads: false, message: 'hi' });
      assert.equal((await upload(shown.token, 'x.txt', 'x')).status, 201);
      assert.equal((await upload(hidden.token, 'y.txt', 'y')).status, 201);
      const a = await t.json(`/api/public/upload-requests/${shown.token}`);
      assert.deepEqual(
        (a.body.data.uploads as { name: string; size: number }[]).map((u) => [u.name, u.size]),
        [['x.txt', 1]],
      );
      assert.equal(a.body.data.remaining_files, 2);
      const b = await t.json(`/api/public/upload-requests/${hidden.token}`);
      assert.equal(b.body.data.uploads, undefined);
      assert.equal(b.body.data.message, 'hi');
      assert.equal(b.body.data.remaining_files, null);
      // The uploader never learns where the files go.
      assert.ok(!JSON.stringify(a.body).includes('/local'));
    });

    describe('into a new bundle', () => {
      type Bundle = { items: { name: string; size: number; download_url: string }[] };
      const bundleOf = async (slug: string) => {
        const res = await t.json(`/api/public/bundles/${slug}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data as Bundle;
      };
      const bytesAt = async (url: string) => {
        const u = new URL(url);
        const res = await t.request(u.pathname + u.search);
        assert.equal(res.status, 200, url);
        return res.text();
      };
      /** One file by tus with creation-with-upload (the whole body in the POST). */
      const tusUpload = (token: string, name: string, body: string) =>
        t.request('/api/tus/', {
          method: 'POST',
          headers: {
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(Buffer.byteLength(body)),
            'Upload-Metadata': tusMetadata({ filename: name, upload_request: token }),
            'Content-Type': 'application/offset+octet-stream',
          },
          body,
        });

      it('takes files by form and by tus as file shares of its owner, listed by the bundle', async () => {
        const fileKey = await t.createKey({ name: 'bundler', file_permission: true });
        const { token, ...made } = await create(
          { bundle: true, message: 'Holiday photos', show_uploads: true },
          apiKey(fileKey.key),
        );
        const info = made as unknown as { bundle_slug: string; bundle_url: string; target_path: null };
        assert.equal(info.target_path, null);
        assert.equal(new URL(info.bundle_url).pathname, `/bundle/${info.bundle_slug}`);
        // An empty bundle of the key's, titled by the request's message.
        const owned = await t.json(`/api/bundles/${info.bundle_slug}`, { headers: apiKey(fileKey.key) });
        assert.equal(owned.status, 200, JSON.stringify(owned.body));
        assert.equal(owned.body.data.title, 'Holiday photos');
        assert.equal(owned.body.data.item_count, 0);

        const sent: [string, string][] = [
          ['one.txt', 'first file'],
          ['two.txt', 'second file'],
          ['../three.txt', 'third file'],
        ];
        for (const [name, body] of sent) {
          const res = await upload(token, name, body);
          assert.equal(res.status, 201, `${name}: ${JSON.stringify(res.body)}`);
        }
        const tus = await tusUpload(token, 'four.txt', 'fourth, by tus');
        assert.equal(tus.status, 201, await tus.text());
        assert.equal(tus.headers.get('upload-offset'), String(Buffer.byteLength('fourth, by tus')));

        const bundle = await bundleOf(info.bundle_slug);
        assert.deepEqual(
          bundle.items.map((i) => [i.name, i.size]),
          [
            ['one.txt', 10],
            ['two.txt', 11],
            ['three.txt', 10],
            ['four.txt', 14],
          ],
        );
        assert.equal(await bytesAt(bundle.items[1]!.download_url), 'second file');
        assert.equal(await bytesAt(bundle.items[3]!.download_url), 'fourth, by tus');
        // Each upload is a file share of the request's owner (the key).
        const shares = await t.json('/api/user/files?limit=100', { headers: apiKey(fileKey.key) });
        assert.equal(shares.status, 200, JSON.stringify(shares.body));
        const names = (shares.body.data.files as { filename: string }[]).map((f) => f.filename).sort();
        assert.deepEqual(names, ['four.txt', 'one.txt', 'three.txt', 'two.txt']);

        const got = await t.json(`/api/upload-requests/${token}`, { headers: apiKey(fileKey.key) });
        assert.equal(got.body.data.bundle_slug, info.bundle_slug);
        assert.equal(got.body.data.files_count, 4);
        assert.deepEqual(
          (got.body.data.uploads as { name: string; path: string | null }[]).map((u) => u.path),
          [null, null, null, null],
        );
        assert.deepEqual((got.body.data.uploads as { name: string }[]).map((u) => u.name).sort(), [
          'four.txt',
          'one.txt',
          'three.txt',
          'two.txt',
        ]);
        const shown = await t.json(`/api/public/upload-requests/${token}`);
        assert.equal(shown.body.data.bundle_url, info.bundle_url);
        assert.equal((shown.body.data.uploads as unknown[]).length, 4);
      });

      it('holds max_files exactly under 50 concurrent uploads; a revoked bundle takes no more (410)', async () => {
        const max = 7;
        const { token, ...made } = await create({ bundle: true, max_files: max });
        const slug = (made as unknown as { bundle_slug: string }).bundle_slug;
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => upload(token, `f${i}.txt`, `body ${i}`)),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 201).length, max, JSON.stringify(statuses));
        assert.equal(statuses.filter((s) => s === 409).length, 50 - max, JSON.stringify(statuses));
        const accepted = answers.filter((a) => a.status === 201).map((a) => a.body.data.name as string);
        const bundle = await bundleOf(slug);
        assert.deepEqual(bundle.items.map((i) => i.name).sort(), accepted.sort());
        assert.equal((await counts(token)).files_count, max);

        // The bundle's own limit (1,000 items) holds as exactly: 995 items there, 20 racing uploads.
        const { token: nearlyFull, ...near } = await create({ bundle: true });
        const bundleId = (
          await t.database.db.kysely
            .selectFrom('bundles')
            .select('id')
            .where('slug', '=', (near as unknown as { bundle_slug: string }).bundle_slug)
            .executeTakeFirstOrThrow()
        ).id;
        await t.database.db.kysely
          .insertInto('bundle_items')
          .values(
            Array.from({ length: 995 }, (_, position) => ({
              bundle_id: bundleId,
              position,
              kind: 'mount' as const,
              ref: `/local/x${position}`,
              name: `x${position}`,
            })),
          )
          .execute();
        const racing = await Promise.all(
          Array.from({ length: 20 }, (_, i) => upload(nearlyFull, `full-${i}.txt`, 'x')),
        );
        const raced = racing.map((a) => a.status);
        assert.equal(raced.filter((s) => s === 201).length, 5, JSON.stringify(raced));
        assert.deepEqual(
          [...new Set(racing.filter((a) => a.status !== 201).map((a) => a.body.message))],
          ['This bundle is full (at most 1000 items)'],
        );
        const items = await t.database.db.kysely
          .selectFrom('bundle_items')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('bundle_id', '=', bundleId)
          .executeTakeFirstOrThrow();
        assert.equal(Number(items.n), 1000);
        // The refused uploads left no file share and gave their place in the request back.
        const shares = await t.database.db.kysely
          .selectFrom('files')
          .select('filename')
          .where('filename', 'like', 'full-%')
          .execute();
        assert.equal(shares.length, 5);
        assert.equal((await counts(nearlyFull)).files_count, 5);

        const other = await create({ bundle: true });
        const otherSlug = (other as unknown as { bundle_slug: string }).bundle_slug;
        assert.equal((await upload(other.token, 'before.txt', 'x')).status, 201);
        const revoked = await t.json(`/api/bundles/${otherSlug}`, { method: 'DELETE', headers: admin });
        assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
        const late = await upload(other.token, 'after.txt', 'y');
        assert.equal(late.status, 410, JSON.stringify(late.body));
        assert.equal((await tusUpload(other.token, 'after.txt', 'y')).status, 410);
        assert.equal((await t.json(`/api/public/upload-requests/${other.token}`)).status, 410);
        assert.equal((await counts(other.token)).files_count, 1);
      });
    });
  });
}
