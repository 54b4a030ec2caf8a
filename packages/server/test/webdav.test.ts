/**
 * WebDAV at /dav through the app, on SQLite and PostgreSQL, over a mount on local disk and one on
 * radosgw: credentials and limits, each method's statuses and bodies, streaming writes that keep the
 * directory cache and file shares in step, copies across storages, dead properties, and real locks
 * that a second app instance on the same database honours. (litmus and real clients run against the
 * server process in webdav-clients.test.ts.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { ADMIN, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const ADMIN_BASIC = basic(ADMIN.username, ADMIN.password);
/** The path as a client puts it in a URL: each segment percent-encoded. */
const href = (path: string) => `/dav${path.split('/').map(encodeURIComponent).join('/')}`;

const PROPFIND_ALL = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
const lockBody = (scope: 'exclusive' | 'shared') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope>` +
  '<D:locktype><D:write/></D:locktype><D:owner><D:href>mailto:t@example.com</D:href></D:owner></D:lockinfo>';

for (const dialect of DIALECTS) {
  describe(`WebDAV (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let localConfig: string;
    let localRoot: string;
    let bucket: string | undefined;
    const s3 = S3_SKIP ? undefined : s3AdminClient();

    const dav = (
      method: string,
      path: string,
      init: RequestInit = {},
      auth: Record<string, string> = ADMIN_BASIC,
    ) =>
      t.request(path.startsWith('/dav') ? path : href(path), {
        ...init,
        method,
        headers: { ...auth, ...(init.headers as Record<string, string> | undefined) },
      });
    const put = (
      path: string,
      body: string,
      headers: Record<string, string> = {},
      auth: Record<string, string> = ADMIN_BASIC,
    ) => dav('PUT', path, { body, headers }, auth);
    const text = async (path: string, auth: Record<string, string> = ADMIN_BASIC) => {
      const res = await dav('GET', path, {}, auth);
      assert.equal(res.status, 200, `GET ${path}`);
      return res.text();
    };
    /** Runs `test` with WebDAV uploads published as file shares (off by default, as in CloudPaste). */
    const publishingShares = async (test: () => Promise<void>) => {
      const set = (on: boolean) =>
        t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { webdav_upload_share: on },
        });
      assert.equal((await set(true)).status, 200);
      try {
        await test();
      } finally {
        await set(false);
      }
    };
    const propfind = async (path: string, depth: string, body = PROPFIND_ALL) => {
      const res = await dav('PROPFIND', path, { body, headers: { Depth: depth } });
      return { status: res.status, xml: await res.text() };
    };

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      localRoot = `${t.database.dataDir}/dav-${randomUUID()}`;
      const made = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: { name: 'disk', provider_type: 'Local', root_path: localRoot },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      localConfig = made.body.data.id;
      const mounts: Array<[string, string]> = [['/local', localConfig]];
      if (s3) {
        bucket = await createBucket(s3, 'cubby-dav');
        mounts.push(['/s3', await insertS3Config(t, bucket)]);
      }
      for (const [path, id] of mounts) {
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: path.slice(1), mount_path: path, storage_config_id: id, cache_ttl: 300 },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
      }
    });
    after(async () => {
      await t.close();
      if (bucket) await deleteBucket(s3!, bucket);
    });

    describe('who may use it', () => {
      it('asks for credentials with a Basic challenge, and refuses wrong ones', async () => {
        const none = await t.request('/dav/', { method: 'PROPFIND', headers: { Depth: '0' } });
        assert.equal(none.status, 401);
        assert.equal(none.headers.get('WWW-Authenticate'), 'Basic realm="Cubby", charset="UTF-8"');
        const wrong = await dav(
          'PROPFIND',
          '/dav/',
          { headers: { Depth: '0' } },
          basic('admin', 'nope-nope'),
        );
        assert.equal(wrong.status, 401);
        assert.match(wrong.headers.get('WWW-Authenticate') ?? '', /^Basic /);
      });

      it('takes the admin by Basic, Bearer; a key as Basic user and password, or ApiKey', async () => {
        const { key } = await t.createKey({ name: 'dav-all', mount_permission: true, basic_path: '/' });
        for (const auth of [ADMIN_BASIC, admin, basic(key, key), { Authorization: `ApiKey ${key}` }]) {
          const res = await dav('PROPFIND', '/dav/', { headers: { Depth: '1' } }, auth);
          assert.equal(res.status, 207, JSON.stringify(auth));
          assert.match(await res.text(), /<D:href>\/dav\/local\/<\/D:href>/);
        }
      });

      it('needs the mount permission', async () => {
        const { key } = await t.createKey({ name: 'no-mount', text_permission: true, basic_path: '/' });
        const res = await dav('PROPFIND', '/dav/', { headers: { Depth: '0' } }, basic(key, key));
        assert.equal(res.status, 403);
      });

      it('counts wrong Basic passwords in the login limits (429 with Retry-After)', async () => {
        const user = basic('someone-else', 'wrong-password');
        let limited: Response | undefined;
        for (let i = 0; i < 12 && !limited; i++) {
          const res = await dav('PROPFIND', '/dav/', { headers: { Depth: '0' } }, user);
          if (res.status === 429) limited = res;
          else assert.equal(res.status, 401);
        }
        assert.ok(limited, 'never limited');
        assert.ok(Number(limited.headers.get('Retry-After')) > 0);
      });

      it('never refuses the right password sent on many connections at once (one verification per header)', async () => {
        // A client with 16 connections: the first burst, and again once the one-minute memo ran out.
        for (const round of ['first', 'after the memo expired']) {
          const answers = await Promise.all(
            Array.from({ length: 16 }, () => dav('PROPFIND', '/dav/', { headers: { Depth: '0' } })),
          );
          assert.deepEqual(
            answers.map((res) => res.status),
            Array(16).fill(207),
            round,
          );
          t.clock.advance(61_000);
        }
        // Wrong guesses sent in parallel still meet the limit (one guess per distinct password).
        const guesses = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            dav('PROPFIND', '/dav/', { headers: { Depth: '0' } }, basic('parallel-guess', `wrong-${i}`)),
          ),
        );
        assert.ok(
          guesses.some((res) => res.status === 429),
          'parallel wrong guesses were never limited',
        );
        t.clock.advance(16 * 60_000); // past the limits' 15-minute window, for the tests after this one
      });

      it('stops taking a remembered Basic header once the password changed', async () => {
        const ok = await dav('PROPFIND', '/dav/', { headers: { Depth: '0' } });
        assert.equal(ok.status, 207);
        const changed = await t.json('/api/admin/change-password', {
          method: 'POST',
          headers: admin,
          json: { currentPassword: ADMIN.password, newPassword: 'another password 1' },
        });
        assert.equal(changed.status, 200, JSON.stringify(changed.body));
        try {
          const old = await dav('PROPFIND', '/dav/', { headers: { Depth: '0' } });
          assert.equal(old.status, 401);
          const fresh = await dav(
            'PROPFIND',
            '/dav/',
            { headers: { Depth: '0' } },
            basic('admin', 'another password 1'),
          );
          assert.equal(fresh.status, 207);
        } finally {
          const login = await t.json('/api/admin/login', {
            method: 'POST',
            json: { username: 'admin', password: 'another password 1' },
          });
          const back = await t.json('/api/admin/change-password', {
            method: 'POST',
            headers: bearer(login.body.data.token),
            json: { currentPassword: 'another password 1', newPassword: ADMIN.password },
          });
          assert.equal(back.status, 200);
          admin = bearer(await t.adminToken());
        }
      });

      it('keeps a key inside its base path on every method, both ends of COPY and MOVE', async () => {
        await dav('MKCOL', '/local/inside');
        await put('/local/inside/keep.txt', 'keep');
        await put('/local/outside.txt', 'outside');
        const { key } = await t.createKey({
          name: 'inside',
          mount_permission: true,
          basic_path: '/local/inside',
        });
        const k = basic(key, key);
        assert.equal(await text('/local/inside/keep.txt', k), 'keep');
        const refused: Array<[string, string, Record<string, string>?]> = [
          ['GET', '/local/outside.txt'],
          ['PUT', '/local/new.txt'],
          ['DELETE', '/local/outside.txt'],
          ['MKCOL', '/local/newdir'],
          ['PROPPATCH', '/local/outside.txt'],
          ['LOCK', '/local/outside.txt'],
          ['COPY', '/local/outside.txt', { Destination: href('/local/inside/stolen.txt') }],
          ['COPY', '/local/inside/keep.txt', { Destination: href('/local/leaked.txt') }],
          ['MOVE', '/local/inside/keep.txt', { Destination: href('/local/leaked.txt') }],
          ['MOVE', '/local/inside/keep.txt', { Destination: 'http://host/dav/local/inside/../leaked.txt' }],
        ];
        for (const [method, path, headers] of refused) {
          const res = await dav(
            method,
            path,
            { headers: headers ?? {}, body: method === 'PUT' ? 'x' : null },
            k,
          );
          assert.ok([400, 403].includes(res.status), `${method} ${path} → ${res.status}`);
        }
        // On the way to its base path it sees only that way.
        const above = await dav('PROPFIND', '/local', { headers: { Depth: '1' } }, k);
        assert.equal(above.status, 207);
        const xml = await above.text();
        assert.match(xml, /\/dav\/local\/inside\//);
        assert.doesNotMatch(xml, /outside\.txt/);
        assert.equal(await text('/local/outside.txt'), 'outside');
        assert.equal((await dav('GET', '/local/leaked.txt')).status, 404);
      });
    });

    describe('methods', () => {
      it('OPTIONS names the classes and methods', async () => {
        const res = await t.request('/dav/', { method: 'OPTIONS' });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('DAV'), '1, 2');
        assert.equal(res.headers.get('MS-Author-Via'), 'DAV');
        assert.match(res.headers.get('Allow') ?? '', /PROPFIND.*LOCK/);
      });

      it('PROPFIND: a file is a file with its size and type; Depth infinity is refused', async () => {
        await dav('MKCOL', '/local/p');
        assert.equal((await put('/local/p/a.txt', 'hello')).status, 201);
        const file = await propfind('/local/p/a.txt', '0');
        assert.equal(file.status, 207);
        assert.match(file.xml, /<D:getcontentlength>5<\/D:getcontentlength>/);
        assert.match(file.xml, /<D:getcontenttype>text\/plain[^<]*<\/D:getcontenttype>/);
        assert.match(file.xml, /<D:resourcetype\/>/);
        assert.match(file.xml, /<D:getetag>"[^"]+"<\/D:getetag>/);
        const folder = await propfind('/local/p', '1');
        assert.match(folder.xml, /<D:href>\/dav\/local\/p\/<\/D:href>.*<D:collection\/>/);
        assert.match(folder.xml, /<D:href>\/dav\/local\/p\/a.txt<\/D:href>/);
        const deep = await dav('PROPFIND', '/local/p', { headers: { Depth: 'infinity' } });
        assert.equal(deep.status, 403);
        assert.match(await deep.text(), /propfind-finite-depth/);
        assert.equal((await propfind('/local/none', '0')).status, 404);
        const names = await propfind(
          '/local/p/a.txt',
          '0',
          '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>',
        );
        assert.match(names.xml, /<D:getcontentlength\/>/);
        assert.equal((await propfind('/local/p', '0', '<D:propfind xmlns:D="DAV:"><D:prop>')).status, 400);
      });

      it('PROPFIND Depth 1 lists every member of a folder of 1,200 files (past one storage page)', async () => {
        const config = (await t.services.storageConfigs.find(localConfig))!;
        const driver = await t.services.storageConfigs.driver(config);
        for (let i = 0; i < 1200; i += 100) {
          await Promise.all(
            Array.from({ length: 100 }, (_, j) =>
              driver.write(`/many/f${String(i + j).padStart(4, '0')}.txt`, new Blob(['x']).stream()),
            ),
          );
        }
        const { status, xml } = await propfind(
          '/local/many',
          '1',
          '<D:propfind xmlns:D="DAV:"><D:prop><D:getcontentlength/></D:prop></D:propfind>',
        );
        assert.equal(status, 207);
        assert.equal(xml.match(/<D:response>/g)?.length, 1201);
        assert.match(xml, /\/dav\/local\/many\/f1199\.txt/);
      });

      it('names with Unicode, spaces and #?%&+\'" round-trip through PUT, PROPFIND, GET, MOVE', async () => {
        const name = `报告 #1?%&+'" v2.txt`;
        assert.equal((await dav('MKCOL', '/local/names')).status, 201);
        assert.equal((await put(`/local/names/${name}`, 'named')).status, 201);
        const { xml } = await propfind('/local/names', '1');
        const hrefs = [...xml.matchAll(/<D:href>([^<]+)<\/D:href>/g)].map((m) =>
          decodeURIComponent(
            m[1]!
              .replace(/&amp;/g, '&')
              .replace(/&apos;/g, "'")
              .replace(/&quot;/g, '"'),
          ),
        );
        assert.ok(hrefs.includes(`/dav/local/names/${name}`), JSON.stringify(hrefs));
        assert.equal(await text(`/local/names/${name}`), 'named');
        const moved = await dav('MOVE', `/local/names/${name}`, {
          headers: { Destination: href(`/local/names/移动 ${name}`) },
        });
        assert.equal(moved.status, 201);
        assert.equal(await text(`/local/names/移动 ${name}`), 'named');
      });

      it('PUT: 201 new, 204 replaced, parent missing 409, folder 405, If-Match / If-None-Match', async () => {
        assert.equal((await put('/local/w/x.txt', 'one')).status, 409);
        assert.equal((await dav('MKCOL', '/local/w')).status, 201);
        const created = await put('/local/w/x.txt', 'one');
        assert.equal(created.status, 201);
        const etag = created.headers.get('ETag')!;
        assert.ok(etag);
        assert.equal((await put('/local/w/x.txt', 'two', { 'If-None-Match': '*' })).status, 412);
        assert.equal((await put('/local/w/x.txt', 'two', { 'If-Match': '"other"' })).status, 412);
        assert.equal((await put('/local/w/x.txt', 'two', { 'If-Match': etag })).status, 204);
        assert.equal(await text('/local/w/x.txt'), 'two');
        assert.equal((await put('/local/w', 'x')).status, 405);
        assert.equal((await put('/local/w/', 'x')).status, 405);
        assert.equal((await put('/local/w/empty.txt', '')).status, 201);
        assert.equal(await text('/local/w/empty.txt'), '');
      });

      it('PUT keeps the directory cache and the file share in step (one share per file)', () =>
        publishingShares(async () => {
          await dav('MKCOL', '/local/c');
          const listed = async () =>
            (await t.json('/api/admin/fs/list?path=/local/c', { headers: admin })).body.data.items.map(
              (i: { name: string; size: number }) => `${i.name}:${i.size}`,
            );
          assert.deepEqual(await listed(), []);
          await put('/local/c/s.txt', 'abc');
          assert.deepEqual(await listed(), ['s.txt:3']);
          await put('/local/c/s.txt', 'abcdef');
          assert.deepEqual(await listed(), ['s.txt:6']);
          const files = await t.json('/api/admin/files?search=s.txt&limit=100', { headers: admin });
          const mine = files.body.data.files.filter((f: { filename: string }) => f.filename === 's.txt');
          assert.equal(mine.length, 1, JSON.stringify(files.body.data));
          assert.equal(mine[0].size, 6);
          assert.equal((await dav('DELETE', '/local/c/s.txt')).status, 204);
          assert.deepEqual(await listed(), []);
          const after = await t.json('/api/admin/files?search=s.txt&limit=100', { headers: admin });
          assert.equal(
            after.body.data.files.filter((f: { filename: string }) => f.filename === 's.txt').length,
            0,
          );
        }));

      it(
        'PUT into a bucket in each WebDAV upload mode (proxy: through a presigned URL)',
        { skip: S3_SKIP },
        () =>
          publishingShares(async () => {
            try {
              for (const mode of ['direct', 'multipart', 'proxy', 'auto']) {
                const set = await t.json('/api/admin/system-settings', {
                  method: 'PUT',
                  headers: admin,
                  json: { webdav_upload_mode: mode },
                });
                assert.equal(set.status, 200, JSON.stringify(set.body));
                const body = `${mode} `.repeat(1000);
                const res = await put(`/s3/mode-${mode}.txt`, body);
                assert.equal(res.status, 201, `${mode}: ${await res.text()}`);
                assert.equal(await text(`/s3/mode-${mode}.txt`), body, mode);
                const files = await t.json(`/api/admin/files?search=mode-${mode}&limit=10`, {
                  headers: admin,
                });
                assert.equal(files.body.data.files.length, 1, `${mode}: one share recorded`);
                assert.equal(files.body.data.files[0].size, body.length);
              }
            } finally {
              await t.json('/api/admin/system-settings', {
                method: 'PUT',
                headers: admin,
                json: { webdav_upload_mode: 'auto' },
              });
            }
          }),
      );

      it('refuses a PUT over the upload size limit and stores nothing', async () => {
        await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { max_upload_size: 1, max_upload_size_unit: 'KB' },
        });
        try {
          const res = await put('/local/big.bin', 'x'.repeat(4096));
          assert.equal(res.status, 413);
          assert.equal((await dav('GET', '/local/big.bin')).status, 404);
        } finally {
          await t.json('/api/admin/system-settings', {
            method: 'PUT',
            headers: admin,
            json: { max_upload_size: 100, max_upload_size_unit: 'MB' },
          });
        }
      });

      it('takes what Windows and macOS send: Translate: f, an empty PUT first, ._ and .DS_Store files', async () => {
        await dav('MKCOL', '/local/mac');
        assert.equal((await put('/local/mac/doc.txt', '')).status, 201);
        const locked = await dav('LOCK', '/local/mac/doc.txt', {
          body: lockBody('exclusive'),
          headers: { Timeout: 'Second-60' },
        });
        const token = locked.headers.get('Lock-Token')!;
        assert.equal((await put('/local/mac/doc.txt', 'the real body', { If: `(${token})` })).status, 204);
        await dav('UNLOCK', '/local/mac/doc.txt', { headers: { 'Lock-Token': token } });
        const res = await dav('GET', '/local/mac/doc.txt', { headers: { Translate: 'f' } });
        assert.equal(await res.text(), 'the real body');
        assert.equal((await put('/local/mac/._doc.txt', 'resource fork')).status, 201);
        assert.equal((await put('/local/mac/.DS_Store', 'finder')).status, 201);
        const { xml } = await propfind('/local/mac', '1');
        assert.match(xml, /\/dav\/local\/mac\/\._doc\.txt</);
        assert.match(xml, /\/dav\/local\/mac\/\.DS_Store</);
      });

      it('MKCOL: 201, 405 when it exists, 409 without a parent, 415 with a body', async () => {
        assert.equal((await dav('MKCOL', '/local/mk')).status, 201);
        assert.equal((await dav('MKCOL', '/local/mk')).status, 405);
        assert.equal((await dav('MKCOL', '/local/no/such/dir')).status, 409);
        assert.equal((await dav('MKCOL', '/local/mk2', { body: '<x/>' })).status, 415);
      });

      it('DELETE removes a folder with everything in it', async () => {
        await dav('MKCOL', '/local/del');
        await dav('MKCOL', '/local/del/sub');
        for (let i = 0; i < 5; i++) await put(`/local/del/sub/f${i}.txt`, 'x');
        assert.equal((await dav('DELETE', '/local/del')).status, 204);
        assert.equal((await propfind('/local/del', '0')).status, 404);
        assert.equal((await dav('DELETE', '/local/del')).status, 404);
      });

      it(
        'COPY and MOVE: Overwrite, Depth 0, into itself, and across storages',
        { skip: S3_SKIP },
        async () => {
          await dav('MKCOL', '/local/src');
          await dav('MKCOL', '/local/src/in');
          await put('/local/src/a.txt', 'A');
          await put('/local/src/in/b.txt', 'B');
          const copy = await dav('COPY', '/local/src', { headers: { Destination: href('/s3/copied') } });
          assert.equal(copy.status, 201);
          assert.equal(await text('/s3/copied/in/b.txt'), 'B');
          const again = await dav('COPY', '/local/src', {
            headers: { Destination: `http://example.test${href('/s3/copied')}`, Overwrite: 'F' },
          });
          assert.equal(again.status, 412);
          const over = await dav('COPY', '/local/src/a.txt', {
            headers: { Destination: href('/s3/copied/in/b.txt') },
          });
          assert.equal(over.status, 204);
          assert.equal(await text('/s3/copied/in/b.txt'), 'A');
          const shallow = await dav('COPY', '/local/src', {
            headers: { Destination: href('/s3/shallow'), Depth: '0' },
          });
          assert.equal(shallow.status, 201);
          assert.match((await propfind('/s3/shallow', '1')).xml.replace(/\s/g, ''), /^(?!.*a\.txt)/);
          assert.equal(
            (await dav('COPY', '/local/src', { headers: { Destination: href('/local/src/in/x') } })).status,
            403,
          );
          assert.equal(
            (await dav('COPY', '/local/src', { headers: { Destination: href('/local/none/x') } })).status,
            409,
          );
          const move = await dav('MOVE', '/s3/copied', { headers: { Destination: href('/local/moved') } });
          assert.equal(move.status, 201);
          assert.equal(await text('/local/moved/a.txt'), 'A');
          assert.equal((await propfind('/s3/copied', '0')).status, 404);
          assert.equal(
            (await dav('MOVE', '/local/moved', { headers: { Destination: href('/local/moved') } })).status,
            403,
          );
        },
      );

      it('a MOVE inside a mount takes the file share along', () =>
        publishingShares(async () => {
          await dav('MKCOL', '/local/mv');
          await put('/local/mv/share.txt', 'shared');
          await dav('MOVE', '/local/mv/share.txt', {
            headers: { Destination: href('/local/mv/renamed.txt') },
          });
          const files = await t.json('/api/admin/files?search=share&limit=100', { headers: admin });
          assert.equal(
            files.body.data.files.filter((f: { filename: string }) => f.filename === 'share.txt').length,
            1,
          );
          const row = await t.database.db.kysely
            .selectFrom('files')
            .select('storage_path')
            .where('filename', '=', 'share.txt')
            .executeTakeFirst();
          assert.equal(row?.storage_path, '/mv/renamed.txt');
        }));

      it(
        'a MOVE to another mount (another storage) takes the file share along',
        { skip: S3_SKIP },
        async () => {
          await put('/local/across.txt', 'moving on');
          const made = await t.json('/api/admin/fs/share', {
            method: 'POST',
            headers: admin,
            json: { path: '/local/across.txt' },
          });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          const moved = await dav('MOVE', '/local/across.txt', {
            headers: { Destination: href('/s3/across.txt') },
          });
          assert.equal(moved.status, 201);
          const res = await t.request(`/api/file-download/${made.body.data.slug}`);
          assert.equal(res.status, 200);
          assert.equal(await res.text(), 'moving on');
          await dav('DELETE', '/s3/across.txt');
        },
      );

      it('PROPPATCH: dead properties set, read, removed, moved along; live ones protected', async () => {
        await put('/local/props.txt', 'p');
        const set = await dav('PROPPATCH', '/local/props.txt', {
          body:
            '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>' +
            '<Z:colour>blue <Z:b xmlns:Q="urn:q"><Q:c/></Z:b></Z:colour><Z:empty/></D:prop></D:set></D:propertyupdate>',
        });
        assert.equal(set.status, 207);
        assert.match(await set.text(), /HTTP\/1.1 200 OK/);
        const got = await propfind(
          '/local/props.txt',
          '0',
          '<D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop><Z:colour/><Z:missing/></D:prop></D:propfind>',
        );
        assert.match(
          got.xml,
          /<P:colour xmlns:P="urn:z">blue <Z:b xmlns:Z="urn:z" xmlns:Q="urn:q"><Q:c\/><\/Z:b><\/P:colour>|<P:colour xmlns:P="urn:z">blue <Z:b xmlns:Q="urn:q" xmlns:Z="urn:z"><Q:c\/><\/Z:b><\/P:colour>/,
        );
        assert.match(got.xml, /<P:missing xmlns:P="urn:z"\/><\/D:prop><D:status>HTTP\/1.1 404/);
        const live = await dav('PROPPATCH', '/local/props.txt', {
          body:
            '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><D:getetag>x</D:getetag>' +
            '<Z:other>1</Z:other></D:prop></D:set></D:propertyupdate>',
        });
        const liveXml = await live.text();
        assert.match(liveXml, /HTTP\/1.1 403/);
        assert.match(liveXml, /HTTP\/1.1 424/);
        assert.doesNotMatch((await propfind('/local/props.txt', '0')).xml, /other/);
        await dav('MOVE', '/local/props.txt', { headers: { Destination: href('/local/props2.txt') } });
        assert.match((await propfind('/local/props2.txt', '0')).xml, /colour/);
        await dav('PROPPATCH', '/local/props2.txt', {
          body: '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:remove><D:prop><Z:colour/></D:prop></D:remove></D:propertyupdate>',
        });
        assert.doesNotMatch((await propfind('/local/props2.txt', '0')).xml, /colour/);
      });
    });

    describe('bounds on dead properties', () => {
      const patch = (path: string, props: string[]) =>
        dav('PROPPATCH', path, {
          body:
            '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>' +
            props.join('') +
            '</D:prop></D:set></D:propertyupdate>',
        });

      it('refuses a PROPPATCH of 30,000 properties (413) and stores none of them', async () => {
        await put('/local/flood.txt', 'x');
        const flood = Array.from({ length: 30_000 }, (_, i) => `<Z:p${i}>v</Z:p${i}>`);
        const res = await patch('/local/flood.txt', flood);
        assert.equal(res.status, 413);
        assert.match(await res.text(), /100/);
        assert.doesNotMatch((await propfind('/local/flood.txt', '0')).xml, /urn:z/);
      });

      it('a resource holds at most 200 properties and 256 KiB of them; past that the set ones are 507', async () => {
        await put('/local/full.txt', 'x');
        for (const round of [0, 1]) {
          const props = Array.from({ length: 100 }, (_, i) => `<Z:r${round}p${i}>v</Z:r${round}p${i}>`);
          assert.equal((await patch('/local/full.txt', props)).status, 207);
        }
        const over = await patch('/local/full.txt', ['<Z:one-more>v</Z:one-more>']);
        assert.equal(over.status, 207);
        const xml = await over.text();
        assert.match(xml, /HTTP\/1.1 507/);
        assert.match(xml, /<D:responsedescription>[^<]*200/);
        const held = (await propfind('/local/full.txt', '0')).xml;
        assert.equal(held.match(/xmlns:P="urn:z"/g)?.length, 200);
        assert.doesNotMatch(held, /one-more/);

        await put('/local/big-values.txt', 'x');
        const big = 'v'.repeat(60 * 1024);
        for (let i = 0; i < 4; i++)
          assert.match(
            await (await patch('/local/big-values.txt', [`<Z:b${i}>${big}</Z:b${i}>`])).text(),
            /HTTP\/1.1 200/,
          );
        assert.match(
          await (await patch('/local/big-values.txt', [`<Z:b4>${big}</Z:b4>`])).text(),
          /HTTP\/1.1 507/,
        );
      });

      it('lists a folder whose files hold 150,000 properties, streaming the answer a batch at a time', async () => {
        // Properties stored before the bounds existed: 500 files with 300 each, written straight in.
        const dir = `${localRoot}/many-props`;
        fs.mkdirSync(dir, { recursive: true });
        const rows: Array<{ path: string; ns: string; name: string; value: string }> = [];
        for (let f = 0; f < 500; f++) {
          fs.writeFileSync(`${dir}/f${f}.txt`, 'x');
          for (let p = 0; p < 300; p++)
            rows.push({
              path: `/local/many-props/f${f}.txt`,
              ns: 'urn:z',
              name: `p${p}`,
              value: 'v'.repeat(60),
            });
        }
        for (let i = 0; i < rows.length; i += 2000)
          await t.database.db.kysely
            .insertInto('dav_properties')
            .values(rows.slice(i, i + 2000))
            .execute();

        const res = await dav('PROPFIND', '/local/many-props/', {
          body: PROPFIND_ALL,
          headers: { Depth: '1' },
        });
        assert.equal(res.status, 207);
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        let xml = '';
        let chunks = 0;
        let largest = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks++;
          largest = Math.max(largest, value.byteLength);
          xml += decoder.decode(value, { stream: true });
        }
        assert.equal(xml.match(/<D:response>/g)?.length, 501);
        assert.equal(xml.match(/<P:p299 xmlns:P="urn:z">/g)?.length, 500);
        assert.ok(xml.length > 12_000_000, `${xml.length}`);
        assert.ok(chunks > 5 && largest < 4 * 1024 * 1024, `${chunks} chunks, the largest ${largest} bytes`);
        await t.database.db.kysely
          .deleteFrom('dav_properties')
          .where('ns', '=', 'urn:z')
          .where('name', 'like', 'p%')
          .execute();
      });
    });

    describe('locks', () => {
      const lock = async (
        path: string,
        scope: 'exclusive' | 'shared',
        headers: Record<string, string> = {},
        auth = ADMIN_BASIC,
      ) => {
        const res = await dav(
          'LOCK',
          path,
          { body: lockBody(scope), headers: { Timeout: 'Second-600', ...headers } },
          auth,
        );
        return {
          status: res.status,
          token: res.headers.get('Lock-Token')?.slice(1, -1),
          xml: await res.text(),
        };
      };

      it('an exclusive lock: writes need its token, and only from whoever took it', async () => {
        await put('/local/l1.txt', 'v1');
        const held = await lock('/local/l1.txt', 'exclusive');
        assert.equal(held.status, 200);
        assert.match(held.token!, /^opaquelocktoken:/);
        assert.match(held.xml, /<D:lockroot><D:href>\/dav\/local\/l1.txt<\/D:href>/);
        assert.equal((await put('/local/l1.txt', 'v2')).status, 423);
        assert.equal((await dav('DELETE', '/local/l1.txt')).status, 423);
        const { key } = await t.createKey({ name: 'other', mount_permission: true, basic_path: '/' });
        const withToken = { If: `(<${held.token}>)` };
        assert.equal((await put('/local/l1.txt', 'v2', withToken, basic(key, key))).status, 423);
        assert.equal((await put('/local/l1.txt', 'v2', withToken)).status, 204);
        assert.equal((await put('/local/l1.txt', 'v3', { If: '(<opaquelocktoken:nope>)' })).status, 412);
        assert.equal((await lock('/local/l1.txt', 'exclusive')).status, 423);
        assert.equal((await lock('/local/l1.txt', 'shared')).status, 423);
        assert.match((await propfind('/local/l1.txt', '0')).xml, new RegExp(held.token!));
        const unlock = await dav('UNLOCK', '/local/l1.txt', { headers: { 'Lock-Token': `<${held.token}>` } });
        assert.equal(unlock.status, 204);
        assert.equal((await put('/local/l1.txt', 'v4')).status, 204);
      });

      it('a lock on a folder covers what is in it; a LOCK on nothing makes an empty file', async () => {
        await dav('MKCOL', '/local/lc');
        const held = await lock('/local/lc', 'exclusive', { Depth: 'infinity' });
        assert.equal(held.status, 200);
        assert.equal((await put('/local/lc/new.txt', 'x')).status, 423);
        assert.equal(
          (await put('/local/lc/new.txt', 'x', { If: `<http://h${href('/local/lc')}> (<${held.token}>)` }))
            .status,
          201,
        );
        const made = await lock('/local/made.txt', 'exclusive');
        assert.equal(made.status, 201);
        assert.equal(await text('/local/made.txt'), '');
      });

      it('shared locks live side by side; a lock expires with its timeout', async () => {
        await put('/local/sh.txt', 's');
        const a = await lock('/local/sh.txt', 'shared', { Timeout: 'Second-5' });
        const b = await lock('/local/sh.txt', 'shared');
        assert.equal(a.status, 200);
        assert.equal(b.status, 200);
        assert.notEqual(a.token, b.token);
        assert.equal((await put('/local/sh.txt', 's2')).status, 423);
        // Either holder may write with its own token; nobody else with it.
        assert.equal((await put('/local/sh.txt', 's2', { If: `(<${a.token}>)` })).status, 204);
        const { key } = await t.createKey({ name: 'shared-other', mount_permission: true, basic_path: '/' });
        assert.equal(
          (await put('/local/sh.txt', 's2', { If: `(<${b.token}>)` }, basic(key, key))).status,
          423,
        );
        await dav('UNLOCK', '/local/sh.txt', { headers: { 'Lock-Token': `<${b.token}>` } });
        t.clock.advance(6000);
        assert.equal((await put('/local/sh.txt', 's3')).status, 204);
      });

      it('of many exclusive LOCKs of one new name at once, on two instances, exactly one wins', async () => {
        const second = createApp({
          config: t.config,
          db: t.database.db,
          clock: t.clock,
          logger: createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
          secretKey: 'test-secret-key-0123456789abcdef0123456789',
        });
        try {
          for (let round = 0; round < 5; round++) {
            const target = href(`/local/race-${round}.txt`);
            const init = () => ({
              method: 'LOCK',
              body: lockBody('exclusive'),
              headers: { ...ADMIN_BASIC, Timeout: 'Second-600' },
            });
            const answers = await Promise.all(
              Array.from({ length: 10 }, (_, i) =>
                i % 2 ? second.app.request(target, init()) : t.request(target, init()),
              ),
            );
            const statuses = answers.map((res) => res.status).sort();
            assert.deepEqual(statuses, [201, ...Array(9).fill(423)], `round ${round}`);
            // The winner's lock is the only one, and the empty file it made exists.
            const held = await dav('PROPFIND', target, {
              body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>',
              headers: { Depth: '0' },
            });
            assert.equal(held.status, 207);
            assert.equal((await held.text()).match(/<D:activelock>/g)?.length, 1);
          }
        } finally {
          await second.services.cacheBus.close();
          await second.services.storageConfigs.close();
        }
      });

      it('a WebDAV lock binds the fs API, uploads and tasks too (423 until it is released)', async () => {
        await dav('MKCOL', '/local/bound');
        await put('/local/bound/locked.txt', 'mine');
        const held = await lock('/local/bound/locked.txt', 'exclusive');
        assert.equal(held.status, 200);
        const { key } = await t.createKey({
          name: 'bound-key',
          mount_permission: true,
          file_permission: true,
          basic_path: '/',
        });
        const fsPost = (route: string, json: unknown, headers = admin) =>
          t.json(`/api/${headers === admin ? 'admin' : 'user'}/fs/${route}`, {
            method: 'POST',
            headers: { ...headers, 'X-Cubby-Lang': 'en' },
            json,
          });
        const keyHeaders = { Authorization: `ApiKey ${key}` };
        for (const headers of [admin, keyHeaders]) {
          const renamed = await fsPost(
            'rename',
            { oldPath: '/local/bound/locked.txt', newPath: '/local/bound/renamed.txt' },
            headers,
          );
          assert.equal(renamed.status, 423, JSON.stringify(renamed.body));
          assert.match(renamed.body.message, /locked by a WebDAV client/);
          assert.equal(
            (await fsPost('update', { path: '/local/bound/locked.txt', content: 'theirs' }, headers)).status,
            423,
          );
          const removed = await t.json(
            `/api/${headers === admin ? 'admin' : 'user'}/fs/remove?path=${encodeURIComponent('/local/bound/locked.txt')}`,
            { method: 'DELETE', headers },
          );
          assert.equal(removed.status, 423);
          const moved = await fsPost(
            'tasks',
            {
              kind: 'move',
              items: [{ sourcePath: '/local/bound/locked.txt', targetPath: '/local/elsewhere.txt' }],
            },
            headers,
          );
          assert.equal(moved.status, 423, JSON.stringify(moved.body));
        }
        // A depth-infinity lock on a folder binds new files in it, share uploads included.
        await dav('MKCOL', '/local/boundfolder');
        const folderLock = await lock('/local/boundfolder', 'exclusive', { Depth: 'infinity' });
        assert.equal(folderLock.status, 200);
        assert.equal((await fsPost('mkdir', { path: '/local/boundfolder/sub/' })).status, 423);
        const form = new FormData();
        form.append('s3_config_id', localConfig);
        form.append('path', '/boundfolder');
        form.append('file', new Blob(['x']), 'x.txt');
        const shared = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
        assert.equal(shared.status, 423, JSON.stringify(shared.body));

        assert.equal(await text('/local/bound/locked.txt'), 'mine', 'nothing changed the locked file');
        // Released, the same calls go through.
        await dav('UNLOCK', '/local/bound/locked.txt', { headers: { 'Lock-Token': `<${held.token}>` } });
        await dav('UNLOCK', '/local/boundfolder', { headers: { 'Lock-Token': `<${folderLock.token}>` } });
        assert.equal(
          (
            await fsPost('rename', {
              oldPath: '/local/bound/locked.txt',
              newPath: '/local/bound/renamed.txt',
            })
          ).status,
          200,
        );
        assert.equal((await fsPost('mkdir', { path: '/local/boundfolder/sub/' })).status, 200);
      });

      it('a lock taken through one instance is honoured by another on the same database', async () => {
        await put('/local/shared-db.txt', 'x');
        const held = await lock('/local/shared-db.txt', 'exclusive');
        const second = createApp({
          config: t.config,
          db: t.database.db,
          clock: t.clock,
          logger: createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
          secretKey: 'test-secret-key-0123456789abcdef0123456789',
        });
        const res = await second.app.request(href('/local/shared-db.txt'), {
          method: 'PUT',
          body: 'y',
          headers: ADMIN_BASIC,
        });
        assert.equal(res.status, 423);
        const ok = await second.app.request(href('/local/shared-db.txt'), {
          method: 'PUT',
          body: 'y',
          headers: { ...ADMIN_BASIC, If: `(<${held.token}>)` },
        });
        assert.equal(ok.status, 204);
        await second.services.cacheBus.close();
        await second.services.storageConfigs.close();
      });
    });
  });
}
