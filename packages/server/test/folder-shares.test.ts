/**
 * Folder shares (docs/api.md "Folder shares") over HTTP, on both databases and both drivers (local
 * disk and radosgw): POST /api/fs/create-share on a folder and on a file; the public details, list,
 * download (Range) and zip below the folder; escape attempts (`..`, `%2e%2e`, absolute paths, a
 * symlink planted on local disk) that never leave the folder; password, its rate limit and tokens;
 * expiry, revoke and the deleted folder (410); the link following a move; exactly `max_views` visits
 * out of 200 concurrent ones; keys without the mount permission or outside their base path refused.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StorageDriver } from '../src/storage/driver.ts';
import { streamOf } from './storage/contract.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'cubby-folder-share-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const q = (p: string) => encodeURIComponent(p);

/** The names in a zip, as Debian's unzip lists them (after testing every entry's CRC). */
function zipNames(bytes: Buffer): string[] {
  const file = path.join(tmp, `${randomUUID()}.zip`);
  writeFileSync(file, bytes);
  execFileSync('unzip', ['-tq', file]);
  return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
}

for (const dialect of DIALECTS) {
  for (const kind of ['local', 's3'] as const) {
    describe(`folder shares (${dialect}, ${kind})`, { skip: kind === 's3' ? S3_SKIP : false }, () => {
      let t: TestApp;
      let admin: Record<string, string>;
      let key: Record<string, string>;
      let driver: StorageDriver;
      let root = '';
      let bucket: string | undefined;
      const s3 = kind === 's3' ? s3AdminClient() : undefined;
      const binary = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251));

      const post = (url: string, json: unknown, headers = admin) =>
        t.json(url, { method: 'POST', headers, json });
      /** Makes a folder share of `folder` as the admin; answers its slug. */
      const share = async (folder: string, settings: Record<string, unknown> = {}) => {
        const made = await post('/api/fs/create-share', { path: folder, ...settings });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        return made.body.data.slug as string;
      };
      const info = (slug: string, query = '') => t.json(`/api/public/folders/${slug}${query}`);
      /** A visit: the info's token. */
      const visit = async (slug: string) => {
        const res = await info(slug);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.token as string;
      };
      const list = (slug: string, rel: string, token: string) =>
        t.json(`/api/public/folders/${slug}/list?path=${q(rel)}&token=${q(token)}`);
      const download = (slug: string, rel: string, token: string, init: RequestInit = {}) =>
        t.request(`/api/public/folders/${slug}/download?path=${q(rel)}&token=${q(token)}`, init);

      before(async () => {
        t = await createTestApp(dialect);
        if (kind === 's3') t.clock.followRealTime();
        admin = bearer(await t.adminToken());
        let configId: string;
        if (kind === 's3') {
          bucket = await createBucket(s3!, 'cubby-fshare');
          configId = await insertS3Config(t, bucket);
        } else {
          root = `${t.database.dataDir}/fs-${randomUUID()}`;
          const res = await post('/api/s3-configs', { name: 'f', provider_type: 'Local', root_path: root });
          configId = res.body.data.id;
        }
        const mount = await post('/api/admin/mounts', {
          name: 'm',
          mount_path: '/m',
          storage_config_id: configId,
          cache_ttl: 300,
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
        key = apiKey(
          (await t.createKey({ name: 'team', basic_path: '/m/team', mount_permission: true })).key,
        );
        driver = await t.services.storageConfigs.driver((await t.services.storageConfigs.find(configId))!);
        await driver.write('/team/docs/a.txt', streamOf('hello'));
        await driver.write('/team/docs/sub/b.bin', streamOf(binary));
        await driver.write('/team/docs/sub/deep/c.txt', streamOf('deep'));
        await driver.write('/team/secret.txt', streamOf('the secret next door'));
        await driver.write('/team/docs-b/x.txt', streamOf('a neighbour'));
      });
      after(async () => {
        await t.close();
        if (bucket) await deleteBucket(s3!, bucket);
      });

      it('create-share: a folder makes a folder share, a file a file share as …/fs/share does', async () => {
        const folder = await post('/api/fs/create-share', { path: '/m/team/docs', title: 'Docs' }, key);
        assert.equal(folder.status, 201, JSON.stringify(folder.body));
        assert.match(folder.body.data.url, new RegExp(`/folder/${folder.body.data.slug}$`));
        assert.equal(folder.body.data.path, '/m/team/docs');
        assert.equal(folder.body.data.title, 'Docs');

        const file = await post('/api/fs/create-share', { path: '/m/team/docs/a.txt', max_views: 3 }, key);
        assert.equal(file.status, 201, JSON.stringify(file.body));
        assert.equal(file.body.data.filename, 'a.txt');
        assert.equal(file.body.data.max_views, 3);
        const publicFile = await t.json(`/api/public/files/${file.body.data.slug}`);
        assert.equal(publicFile.status, 200);
        assert.equal(publicFile.body.data.filename, 'a.txt');

        // Listed for its maker, not for another key; the admin sees every one.
        const mine = await t.json('/api/folder-shares', { headers: key });
        assert.deepEqual(
          mine.body.data.map((s: { slug: string }) => s.slug),
          [folder.body.data.slug],
        );
        const other = apiKey(
          (await t.createKey({ name: 'other', basic_path: '/m/team', mount_permission: true })).key,
        );
        assert.deepEqual((await t.json('/api/folder-shares', { headers: other })).body.data, []);
        assert.equal(
          (await t.json(`/api/folder-shares/${folder.body.data.slug}`, { method: 'DELETE', headers: other }))
            .status,
          404,
        );
        const all = await t.json('/api/folder-shares', { headers: admin });
        assert.ok(all.body.data.some((s: { slug: string }) => s.slug === folder.body.data.slug));
      });

      it('refuses keys without the mount permission and paths outside a key’s base path', async () => {
        const noMount = apiKey(
          (
            await t.createKey({
              name: 'text',
              basic_path: '/m/team',
              mount_permission: false,
              text_permission: true,
            })
          ).key,
        );
        assert.equal((await post('/api/fs/create-share', { path: '/m/team/docs' }, noMount)).status, 403);
        const narrow = apiKey(
          (await t.createKey({ name: 'narrow', basic_path: '/m/team/docs', mount_permission: true })).key,
        );
        assert.equal((await post('/api/fs/create-share', { path: '/m/team' }, narrow)).status, 403);
        assert.equal((await post('/api/fs/create-share', { path: '/m/team/missing' })).status, 404);
        assert.equal(
          (await t.json('/api/fs/create-share', { method: 'POST', json: { path: '/m' } })).status,
          401,
        );
      });

      it('lists, downloads (Range) and zips below the folder, with the visit token', async () => {
        const slug = await share('/m/team/docs');
        const details = await info(slug);
        assert.equal(details.status, 200);
        assert.equal(details.body.data.name, 'docs');
        assert.equal(details.body.data.requires_password, false);
        assert.equal(details.body.data.views, 1);
        const token = details.body.data.token as string;

        const top = await list(slug, '/', token);
        assert.equal(top.status, 200, JSON.stringify(top.body));
        assert.equal(top.body.data.path, '/');
        assert.deepEqual(
          top.body.data.items.map((i: { name: string; path: string; isDirectory: boolean }) => [
            i.name,
            i.path,
            i.isDirectory,
          ]),
          [
            ['sub', '/sub', true],
            ['a.txt', '/a.txt', false],
          ],
        );
        const sub = await list(slug, '/sub', token);
        assert.deepEqual(
          sub.body.data.items.map((i: { path: string; isDirectory: boolean }) => [i.path, i.isDirectory]),
          [
            ['/sub/deep', true],
            ['/sub/b.bin', false],
          ],
        );
        assert.equal(sub.body.data.items[1].size, binary.length);
        assert.equal(sub.body.data.path, '/sub');

        const whole = await download(slug, '/sub/b.bin', token);
        assert.equal(whole.status, 200);
        assert.match(whole.headers.get('content-disposition') ?? '', /^attachment/);
        assert.equal(whole.headers.get('x-content-type-options'), 'nosniff');
        assert.deepEqual(Buffer.from(await whole.arrayBuffer()), binary);
        const part = await download(slug, '/sub/b.bin', token, { headers: { Range: 'bytes=10-19' } });
        assert.equal(part.status, 206);
        assert.deepEqual(Buffer.from(await part.arrayBuffer()), binary.subarray(10, 20));
        const shown = await t.request(
          `/api/public/folders/${slug}/download?path=${q('/sub/deep/c.txt')}&token=${q(token)}&inline=1`,
        );
        assert.equal(shown.headers.get('content-type'), 'text/plain; charset=utf-8');
        assert.match(shown.headers.get('content-disposition') ?? '', /^inline/);
        assert.equal(await shown.text(), 'deep');
        assert.equal((await download(slug, '/sub', token)).status, 400);

        const zip = await t.request(`/api/public/folders/${slug}/zip?path=/&token=${q(token)}`);
        assert.equal(zip.status, 200);
        assert.match(zip.headers.get('content-disposition') ?? '', /filename="docs\.zip"/);
        assert.deepEqual(zipNames(Buffer.from(await zip.arrayBuffer())), [
          'a.txt',
          'sub/',
          'sub/b.bin',
          'sub/deep/',
          'sub/deep/c.txt',
        ]);
        const subZip = await t.request(
          `/api/public/folders/${slug}/zip?path=${q('/sub/deep')}&token=${q(token)}`,
        );
        assert.deepEqual(zipNames(Buffer.from(await subZip.arrayBuffer())), ['c.txt']);

        // One visit, however many requests its token made.
        assert.equal((await info(slug)).body.data.views, 2);
      });

      it('never leaves the folder: `..`, %2e%2e, absolute paths, a neighbour with the same prefix', async () => {
        const slug = await share('/m/team/docs');
        const token = await visit(slug);
        for (const rel of ['../secret.txt', '/../secret.txt', 'sub/../../secret.txt', '..\\secret.txt']) {
          const res = await download(slug, rel, token);
          assert.equal(res.status, 400, `${rel}: ${res.status}`);
          assert.doesNotMatch(await res.text(), /the secret next door/);
          assert.equal((await list(slug, rel.replace('secret.txt', ''), token)).status, 400, rel);
        }
        // Decoded once by the URL: %2e%2e is `..` (400); %252e%252e is a name `%2e%2e` (not there).
        const raw = (query: string) =>
          t.request(`/api/public/folders/${slug}/download?${query}&token=${q(token)}`);
        assert.equal((await raw('path=%2e%2e/secret.txt')).status, 400);
        assert.equal((await raw('path=%252e%252e/secret.txt')).status, 404);
        assert.equal((await raw('path=%2e%2e%2fsecret.txt')).status, 400);
        // Absolute and neighbouring paths are names below the folder, which it does not have.
        for (const rel of ['/m/team/secret.txt', '/team/secret.txt', '-b/x.txt', '/secret.txt']) {
          const res = await download(slug, rel, token);
          assert.equal(res.status, 404, `${rel}: ${res.status}`);
          assert.doesNotMatch(await res.text(), /the secret next door|a neighbour/);
        }
        const zip = await t.request(`/api/public/folders/${slug}/zip?path=${q('../')}&token=${q(token)}`);
        assert.equal(zip.status, 400);
      });

      it('a symlink planted on local disk leads nowhere', { skip: kind !== 'local' }, async () => {
        mkdirSync(`${root}/outside`, { recursive: true });
        writeFileSync(`${root}/outside/loot.txt`, 'loot');
        mkdirSync(`${root}/team/linked`, { recursive: true });
        symlinkSync(`${root}/outside`, `${root}/team/linked/dir`);
        symlinkSync(`${root}/outside/loot.txt`, `${root}/team/linked/file.txt`);
        symlinkSync('/etc/passwd', `${root}/team/linked/passwd`);
        const slug = await share('/m/team/linked');
        const token = await visit(slug);
        for (const rel of ['/dir/loot.txt', '/file.txt', '/passwd']) {
          const res = await download(slug, rel, token);
          assert.ok(res.status >= 400, `${rel}: ${res.status}`);
          assert.doesNotMatch(await res.text(), /loot|root:/);
        }
        const listed = await list(slug, '/dir', token);
        assert.ok(listed.status >= 400 || listed.body.data.items.length === 0, JSON.stringify(listed.body));
        const zip = await t.request(`/api/public/folders/${slug}/zip?path=/&token=${q(token)}`);
        if (zip.status === 200) {
          const bytes = Buffer.from(await zip.arrayBuffer());
          assert.ok(!bytes.includes(Buffer.from('loot')) && !bytes.includes(Buffer.from('root:')));
        }
      });

      it('a password: asked for, checked under the rate limit, and a new one retires tokens', async () => {
        const slug = await share('/m/team/docs', { password: 'open sesame' });
        const closed = await info(slug);
        assert.equal(closed.status, 200);
        assert.equal(closed.body.data.requires_password, true);
        assert.equal(closed.body.data.token, undefined);
        assert.equal(closed.body.data.views, 0);
        assert.equal((await t.json(`/api/public/folders/${slug}/list?path=/`)).status, 401);
        assert.equal((await list(slug, '/', 'v1.forged.token')).status, 403);

        const right = await post(`/api/public/folders/${slug}/verify`, { password: 'open sesame' }, {});
        assert.equal(right.status, 200, JSON.stringify(right.body));
        assert.equal(right.body.data.views, 1);
        const token = right.body.data.token as string;
        assert.equal((await list(slug, '/', token)).status, 200);
        // The password in the query is a visit of its own.
        const withPassword = await t.request(
          `/api/public/folders/${slug}/download?path=/a.txt&password=${q('open sesame')}`,
        );
        assert.equal(await withPassword.text(), 'hello');

        // A new password: the old token no longer opens anything.
        const changed = await t.json(`/api/folder-shares/${slug}`, {
          method: 'PUT',
          headers: admin,
          json: { password: 'another one' },
        });
        assert.equal(changed.status, 200, JSON.stringify(changed.body));
        assert.equal((await list(slug, '/', token)).status, 403);
        // Wrong guesses (the forged and the retired token above were two): 403 until the limit of
        // 5, then 429 — even for the right password.
        const wrong = [];
        for (let i = 0; i < 5; i++) {
          wrong.push((await post(`/api/public/folders/${slug}/verify`, { password: `nope${i}` }, {})).status);
        }
        assert.deepEqual(wrong, [403, 403, 403, 429, 429]);
        assert.equal(
          (await post(`/api/public/folders/${slug}/verify`, { password: 'open sesame' }, {})).status,
          429,
        );
      });

      it('expiry and revoke answer 410 at once, tokens included', async () => {
        const expiring = await share('/m/team/docs', { expires_in: 1 });
        const token = await visit(expiring);
        t.clock.advance(3600_000 + 1000);
        assert.equal((await info(expiring)).status, 410);
        const gone = await list(expiring, '/', token);
        assert.equal(gone.status, 410);
        assert.match(gone.body.message, /过期/);

        const revoked = await share('/m/team/docs');
        const live = await visit(revoked);
        assert.equal((await list(revoked, '/', live)).status, 200);
        const del = await t.json(`/api/folder-shares/${revoked}`, { method: 'DELETE', headers: admin });
        assert.equal(del.status, 200);
        assert.equal(del.body.data.state, 'revoked');
        assert.equal((await list(revoked, '/', live)).status, 410);
        assert.equal((await download(revoked, '/a.txt', live)).status, 410);
        const answer = await t.json(`/api/public/folders/${revoked}`, { headers: { 'X-Cubby-Lang': 'en' } });
        assert.equal(answer.status, 410);
        assert.equal(answer.body.message, 'This folder share has been revoked');
        assert.equal((await info('no-such-share')).status, 404);
      });

      it('follows its folder when it moves, and says so when it is deleted', async () => {
        await driver.write('/team/moving/inner/m.txt', streamOf('moving'));
        const slug = await share('/m/team/moving/inner');
        const token = await visit(slug);
        const moved = await post('/api/admin/fs/rename', {
          oldPath: '/m/team/moving',
          newPath: '/m/team/moved',
        });
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        const after = await download(slug, '/m.txt', token);
        assert.equal(after.status, 200);
        assert.equal(await after.text(), 'moving');
        const detail = (await t.json('/api/folder-shares', { headers: admin })).body.data.find(
          (s: { slug: string }) => s.slug === slug,
        );
        assert.equal(detail.state, 'active');

        const removed = await t.json(`/api/admin/fs/remove?path=${q('/m/team/moved')}`, {
          method: 'DELETE',
          headers: admin,
        });
        assert.equal(removed.status, 200);
        // Made again under the same name: still not shown by the old link.
        await driver.write('/team/moved/inner/new.txt', streamOf('new'));
        const gone = await t.json(`/api/public/folders/${slug}`, { headers: { 'X-Cubby-Lang': 'en' } });
        assert.equal(gone.status, 410);
        assert.equal(gone.body.message, 'The shared folder has been deleted or is no longer available');
      });

      it('stops when its maker may no longer read the folder, and opens again when they may', async () => {
        const made = await t.createKey({ name: 'narrowed', basic_path: '/m/team', mount_permission: true });
        const res = await post('/api/fs/create-share', { path: '/m/team/docs' }, apiKey(made.key));
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const slug = res.body.data.slug as string;
        await visit(slug);
        const narrow = (basic_path: string) =>
          t.json(`/api/admin/api-keys/${made.id}`, { method: 'PUT', headers: admin, json: { basic_path } });
        assert.equal((await narrow('/m/team/docs-b')).status, 200);
        assert.equal((await info(slug)).status, 410);
        assert.equal((await narrow('/m/team')).status, 200);
        await visit(slug);
        const unmounted = await t.json(`/api/admin/api-keys/${made.id}`, {
          method: 'PUT',
          headers: admin,
          json: { mount_permission: false },
        });
        assert.equal(unmounted.status, 200, JSON.stringify(unmounted.body));
        assert.equal((await info(slug)).status, 410);
      });

      it('counts exactly max_views visits out of 200 at once', async () => {
        const slug = await share('/m/team/docs', { max_views: 37 });
        const answers = await Promise.all(
          Array.from({ length: 200 }, () => t.request(`/api/public/folders/${slug}`).then((r) => r.status)),
        );
        assert.equal(answers.filter((s) => s === 200).length, 37);
        assert.equal(answers.filter((s) => s === 410).length, 163);
        const detail = (await t.json('/api/folder-shares', { headers: admin })).body.data.find(
          (s: { slug: string }) => s.slug === slug,
        );
        assert.equal(detail.views, 37);
        assert.equal(detail.state, 'used_up');
      });
    });
  }
}
