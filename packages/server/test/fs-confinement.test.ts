/**
 * The shared traversal corpus through every fs route and WebDAV method, for an API key whose base path is `/team`, on a
 * mount at `/` (so any escape would land in storage), both databases, local disk and radosgw. Every
 * storage call is recorded by a spy on the config's driver: not one may name a path outside `/team`,
 * no answer may be a 5xx, and afterwards nothing is stored outside `/team`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isNormalizedPathWithin } from '@cubby/shared';
import { CORPUS_BASE, TRAVERSAL_FILENAMES, TRAVERSAL_PATHS } from '../../shared/src/traversal-corpus.ts';
import type { StorageDriver } from '../src/storage/driver.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { apiKey, basic, bearer, createTestApp, type TestApp } from './support/test-app.ts';

type Send = (p: string) => { url: string; init: RequestInit & { json?: unknown } };

/** Percent-encodes as a client would; a lone surrogate goes as its three (invalid UTF-8) bytes. */
const enc = (text: string): string =>
  [...text]
    .map((ch) => {
      const c = ch.charCodeAt(0);
      if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) {
        return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
      return encodeURIComponent(ch);
    })
    .join('');
const post = (url: string, json: unknown) => ({ url, init: { method: 'POST', json } });
const fsRoutes = (tree: string): Record<string, Send> => ({
  list: (p) => ({ url: `/api/${tree}/fs/list?path=${enc(p)}`, init: {} }),
  'list (raw URL)': (p) => ({ url: `/api/${tree}/fs/list?path=${p.replace(/[#&?\s]/g, enc)}`, init: {} }),
  get: (p) => ({ url: `/api/${tree}/fs/get?path=${enc(p)}`, init: {} }),
  download: (p) => ({ url: `/api/${tree}/fs/download?path=${enc(p)}`, init: {} }),
  'download (raw URL)': (p) => ({
    url: `/api/${tree}/fs/download?path=${p.replace(/[#&?\s]/g, enc)}`,
    init: {},
  }),
  'file-link': (p) => ({ url: `/api/${tree}/fs/file-link?path=${enc(p)}`, init: {} }),
  'download-zip': (p) => ({ url: `/api/${tree}/fs/download-zip?path=${enc(p)}`, init: {} }),
  'download-zip (raw URL)': (p) => ({
    url: `/api/${tree}/fs/download-zip?path=${p.replace(/[#&?\s]/g, enc)}`,
    init: {},
  }),
  'download-zip (selection)': (p) => ({
    url: `/api/${tree}/fs/download-zip?paths=${enc('/team/seed.txt')}&paths=${enc(p)}`,
    init: {},
  }),
  'zip-link': (p) => post(`/api/${tree}/fs/zip-link`, { paths: [p] }),
  mkdir: (p) => post(`/api/${tree}/fs/mkdir`, { path: p }),
  upload: (p) => {
    const form = new FormData();
    form.append('path', p);
    form.append('file', new Blob(['x']), 'x.txt');
    return { url: `/api/${tree}/fs/upload`, init: { method: 'POST', body: form } };
  },
  remove: (p) => ({ url: `/api/${tree}/fs/remove?path=${enc(p)}`, init: { method: 'DELETE' } }),
  'batch-remove': (p) => post(`/api/${tree}/fs/batch-remove`, { paths: ['/team/keep/none.txt', p] }),
  'rename (target)': (p) => post(`/api/${tree}/fs/rename`, { oldPath: '/team/seed.txt', newPath: p }),
  'rename (source)': (p) => post(`/api/${tree}/fs/rename`, { oldPath: p, newPath: '/team/moved.txt' }),
  update: (p) => post(`/api/${tree}/fs/update`, { path: p, content: 'x' }),
  'multipart/init': (p) => post(`/api/${tree}/fs/multipart/init`, { path: p, filename: 'x.bin' }),
  'multipart/part': (p) => ({
    url: `/api/${tree}/fs/multipart/part?key=${enc(p)}&uploadId=u&partNumber=1`,
    init: { method: 'POST', body: 'x', headers: { 'Content-Length': '1' } },
  }),
  'multipart/parts': (p) => ({ url: `/api/${tree}/fs/multipart/parts?key=${enc(p)}&uploadId=u`, init: {} }),
  'multipart/complete': (p) =>
    post(`/api/${tree}/fs/multipart/complete`, {
      key: p,
      uploadId: 'u',
      parts: [{ partNumber: 1, etag: 'e' }],
    }),
  'multipart/abort': (p) => post(`/api/${tree}/fs/multipart/abort`, { key: p, uploadId: 'u' }),
  presign: (p) => post(`/api/${tree}/fs/presign`, { path: p, fileName: 'x.txt', fileSize: 1 }),
  'presign/commit': (p) => post(`/api/${tree}/fs/presign/commit`, { targetPath: p, uploadId: 'u' }),
  'tasks (source)': (p) =>
    post(`/api/${tree}/fs/tasks`, { items: [{ sourcePath: p, targetPath: '/team/copied/' }] }),
  'tasks (target)': (p) =>
    post(`/api/${tree}/fs/tasks`, { kind: 'move', items: [{ sourcePath: '/team/seed.txt', targetPath: p }] }),
  'batch-copy (source)': (p) =>
    post(`/api/${tree}/fs/batch-copy`, { items: [{ sourcePath: p, targetPath: '/team/copied/' }] }),
  'batch-copy (target)': (p) =>
    post(`/api/${tree}/fs/batch-copy`, { items: [{ sourcePath: '/team/seed.txt', targetPath: p }] }),
  'batch-copy-commit': (p) =>
    post(`/api/${tree}/fs/batch-copy-commit`, { targetMountId: 'x', files: [{ targetPath: p, s3Path: p }] }),
});
/** Every WebDAV method, the corpus path in the URL (encoded per segment, or raw) or in Destination. */
const davUrl = (p: string) => `/dav${p.split('/').map(enc).join('/')}`;
const dav = (method: string, url: string, headers: Record<string, string> = {}, body?: string) => ({
  url,
  init: { method, headers, ...(body === undefined ? {} : { body }) },
});
const LOCK_BODY =
  '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
const PROPPATCH_BODY =
  '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>';
const davRoutes: Record<string, Send> = {
  PROPFIND: (p) => dav('PROPFIND', davUrl(p), { Depth: '1' }),
  'PROPFIND (raw URL)': (p) => dav('PROPFIND', `/dav${p.replace(/[#?\s]/g, enc)}`, { Depth: '1' }),
  GET: (p) => dav('GET', davUrl(p)),
  'GET (raw URL)': (p) => dav('GET', `/dav${p.replace(/[#?\s]/g, enc)}`),
  HEAD: (p) => dav('HEAD', davUrl(p)),
  PUT: (p) => dav('PUT', davUrl(p), {}, 'x'),
  'PUT (raw URL)': (p) => dav('PUT', `/dav${p.replace(/[#?\s]/g, enc)}`, {}, 'x'),
  DELETE: (p) => dav('DELETE', davUrl(p)),
  MKCOL: (p) => dav('MKCOL', davUrl(p)),
  PROPPATCH: (p) => dav('PROPPATCH', davUrl(p), {}, PROPPATCH_BODY),
  LOCK: (p) => dav('LOCK', davUrl(p), {}, LOCK_BODY),
  UNLOCK: (p) => dav('UNLOCK', davUrl(p), { 'Lock-Token': '<opaquelocktoken:x>' }),
  'COPY (source)': (p) => dav('COPY', davUrl(p), { Destination: davUrl('/team/copied') }),
  'COPY (destination)': (p) => dav('COPY', davUrl('/team/seed.txt'), { Destination: davUrl(p) }),
  'COPY (raw destination)': (p) =>
    dav('COPY', davUrl('/team/seed.txt'), {
      // A header carries bytes: only what is not printable ASCII is encoded.
      Destination: `http://h/dav${p.replace(/[#?\s]|[^\x21-\x7e]/gu, enc)}`,
    }),
  'MOVE (source)': (p) => dav('MOVE', davUrl(p), { Destination: davUrl('/team/moved') }),
  'MOVE (destination)': (p) => dav('MOVE', davUrl('/team/seed.txt'), { Destination: davUrl(p) }),
};

/** Routes that take a file name inside a folder the key owns. */
const nameRoutes = (tree: string): Record<string, Send> => ({
  upload: (name) => {
    const form = new FormData();
    form.append('path', CORPUS_BASE);
    form.append('file', new Blob(['x']), name);
    return { url: `/api/${tree}/fs/upload`, init: { method: 'POST', body: form } };
  },
  'multipart/init': (name) => post(`/api/${tree}/fs/multipart/init`, { path: CORPUS_BASE, filename: name }),
  presign: (name) => post(`/api/${tree}/fs/presign`, { path: CORPUS_BASE, fileName: name, fileSize: 1 }),
});

const DRIVER_CALLS = [
  'stat',
  'list',
  'read',
  'write',
  'mkdir',
  'remove',
  'presignGet',
  'presignPut',
  'presignPart',
] as const;
const MULTIPART_CALLS = ['init', 'uploadPart', 'complete', 'abort', 'listParts'] as const;

/** Records the path arguments of every call on `driver` (in place: the vfs holds the same instance). */
function spy(driver: StorageDriver, seen: string[]): void {
  const record = (target: Record<string, unknown>, names: readonly string[], paths: number) => {
    for (const name of names) {
      const original = target[name];
      if (typeof original !== 'function') continue;
      target[name] = (...args: unknown[]) => {
        for (const arg of args.slice(0, paths)) if (typeof arg === 'string') seen.push(arg);
        return (original as (...a: unknown[]) => unknown).apply(target, args);
      };
    }
  };
  record(driver as unknown as Record<string, unknown>, ['copy', 'move'], 2);
  record(driver as unknown as Record<string, unknown>, DRIVER_CALLS, 1);
  record(driver.multipart as unknown as Record<string, unknown>, MULTIPART_CALLS, 1);
}

/**
 * Who is confined: an API key (on both storages), and on local disk a member whose home folder is
 * the base (docs/accounts.md) and an app password of theirs (WebDAV only: the REST API refuses it).
 * One rule in the vfs confines them all; these runs show each way in meets it.
 */
const CASES = [
  { who: 'key', kind: 'local' },
  { who: 'key', kind: 's3' },
  { who: 'member', kind: 'local' },
  { who: 'app password', kind: 'local' },
] as const;

for (const dialect of DIALECTS) {
  for (const { who, kind } of CASES) {
    describe(
      `fs routes keep ${{ key: 'a key', member: 'a member', 'app password': 'an app password' }[who]} inside ${CORPUS_BASE} (${dialect}, ${kind})`,
      { skip: kind === 's3' ? S3_SKIP : false },
      () => {
        let t: TestApp;
        let key: Record<string, string>;
        let driver: StorageDriver;
        let bucket: string | undefined;
        const s3 = kind === 's3' ? s3AdminClient() : undefined;
        const seen: string[] = [];

        before(async () => {
          t = await createTestApp(dialect);
          t.clock.followRealTime();
          const admin = bearer(await t.adminToken());
          let configId: string;
          if (kind === 's3') {
            bucket = await createBucket(s3!, 'cubby-fsc');
            configId = await insertS3Config(t, bucket);
          } else {
            const res = await t.json('/api/s3-configs', {
              method: 'POST',
              headers: admin,
              json: {
                name: 'c',
                provider_type: 'Local',
                root_path: `${t.database.dataDir}/c-${randomUUID()}`,
              },
            });
            configId = res.body.data.id;
          }
          const mount = await t.json('/api/admin/mounts', {
            method: 'POST',
            headers: admin,
            json: { name: 'root', mount_path: '/', storage_config_id: configId },
          });
          assert.equal(mount.status, 201, JSON.stringify(mount.body));
          key = await credential(t, admin);
          const config = (await t.services.storageConfigs.find(configId))!;
          driver = await t.services.storageConfigs.driver(config);
          // Things for the routes to find inside and outside the base path.
          await driver.write('/team/seed.txt', new Blob(['seed']).stream());
          await driver.write('/other/secret.txt', new Blob(['secret']).stream());
          spy(driver, seen);
        });
        after(async () => {
          await t.close();
          if (bucket) await deleteBucket(s3!, bucket);
        });

        /** The headers of the confined principal. */
        const credential = async (t: TestApp, admin: Record<string, string>) => {
          if (who === 'key') {
            return apiKey(
              (await t.createKey({ name: 'team', basic_path: CORPUS_BASE, mount_permission: true })).key,
            );
          }
          const made = await t.json('/api/admin/users', {
            method: 'POST',
            headers: admin,
            json: { username: 'teamer', password: 'teamer password', home_path: CORPUS_BASE },
          });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          const login = await t.json('/api/admin/login', {
            method: 'POST',
            json: { username: 'teamer', password: 'teamer password' },
          });
          const session = bearer(login.body.data.token);
          if (who === 'member') return session;
          const app = await t.json('/api/auth/app-passwords', {
            method: 'POST',
            headers: session,
            json: { name: 'dav' },
          });
          return basic('teamer', app.body.data.password);
        };

        const send = async (label: string, { url, init }: ReturnType<Send>) => {
          seen.length = 0;
          const headers = { ...key, ...(init.headers as Record<string, string> | undefined) };
          const res = await t.request(url, { ...init, headers });
          assert.ok(res.status < 500, `${label} → ${res.status} ${await res.clone().text()}`);
          await res.body?.cancel();
          const outside = seen.filter((p) => !isNormalizedPathWithin(CORPUS_BASE, p));
          assert.deepEqual(outside, [], `${label} touched storage outside ${CORPUS_BASE}`);
          if (
            await driver.stat('/team/seed.txt').then(
              () => false,
              () => true,
            )
          ) {
            await driver.write('/team/seed.txt', new Blob(['seed']).stream());
          }
          seen.length = 0;
        };

        it('the spy sees the storage calls of a request inside the base path', async () => {
          seen.length = 0;
          const res =
            who === 'app password'
              ? await t.request('/dav/team/spied.txt', { method: 'PUT', headers: key, body: 'x' })
              : await t.request('/api/user/fs/update', {
                  method: 'POST',
                  headers: key,
                  json: { path: '/team/spied.txt', content: 'x' },
                });
          assert.ok(res.status === 200 || res.status === 201, String(res.status));
          assert.ok(seen.includes('/team/spied.txt'), JSON.stringify(seen));
        });

        // An app password is no credential for these routes (401 before any path is read).
        for (const tree of who === 'app password' ? [] : (['user', 'admin'] as const)) {
          it(`every corpus path through every /api/${tree}/fs route`, async () => {
            for (const [route, build] of Object.entries(fsRoutes(tree))) {
              for (const p of TRAVERSAL_PATHS) {
                const label = `${tree} ${route} ${JSON.stringify(p)}`;
                await send(label, build(p)).catch((error: unknown) => {
                  throw error instanceof assert.AssertionError
                    ? error
                    : new Error(`${label}: ${String(error)}`);
                });
              }
            }
          });

          it(`every corpus file name through /api/${tree}/fs routes that take one`, async () => {
            for (const [route, build] of Object.entries(nameRoutes(tree))) {
              for (const name of TRAVERSAL_FILENAMES)
                await send(`${tree} ${route} ${JSON.stringify(name)}`, build(name));
            }
          });
        }

        it('every corpus path through every WebDAV method (URL and Destination)', async () => {
          for (const [method, build] of Object.entries(davRoutes)) {
            for (const p of TRAVERSAL_PATHS) {
              const request = build(p);
              // Dot segments that climb out of /dav are resolved by the client's URL parser: such a
              // request never reaches WebDAV (it is the web app's), so it is not WebDAV's to answer.
              if (!/^\/dav(\/|$)/.test(new URL(request.url, 'http://h').pathname)) continue;
              await send(`dav ${method} ${JSON.stringify(p)}`, request);
            }
          }
        });

        it('left nothing outside the base path, and the outside file untouched', async () => {
          // Copy tasks run on after their answer: wait until they have all ended.
          const admin = { type: 'admin' as const, id: 'a', username: 'admin' };
          const busy = async () =>
            (await t.services.fsTasks.list(admin)).some((task) =>
              ['pending', 'running'].includes(task.status),
            );
          while (await busy()) await new Promise((resolve) => setTimeout(resolve, 20));
          assert.deepEqual(
            seen.filter((p) => !isNormalizedPathWithin(CORPUS_BASE, p)),
            [],
            'a copy task touched storage outside the base path',
          );
          const walk = async (dir: string): Promise<string[]> => {
            const out: string[] = [];
            for (const e of (await driver.list(dir)).entries) {
              out.push(e.path);
              if (e.isDirectory) out.push(...(await walk(e.path)));
            }
            return out;
          };
          const all = await walk('/');
          const outside = all.filter(
            (p) => !isNormalizedPathWithin(CORPUS_BASE, p) && p !== '/other' && p !== '/other/secret.txt',
          );
          assert.deepEqual(outside, []);
          const secret = await driver.read('/other/secret.txt');
          assert.equal(await new Response(secret.body).text(), 'secret');
        });
      },
    );
  }
}
