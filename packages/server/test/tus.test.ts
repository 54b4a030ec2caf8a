/**
 * The tus 1.0 endpoint at /api/tus/ (docs/api.md, "Resumable uploads (tus)"), on SQLite and
 * PostgreSQL, into local disk and S3 (radosgw):
 * - protocol conformance: OPTIONS, POST / HEAD / PATCH / DELETE, a wrong offset (409), a checksum
 *   mismatch (460, the bytes discarded), expiry (410, then 404 once the janitor ended it), a wrong
 *   Tus-Resumable (412), past the length or the upload limit (413), credentials (401/403) and the
 *   confinement of `path` to the caller's folder;
 * - the file appears at its target only when complete (a mount path, or a new file share with its
 *   password), byte for byte;
 * - interop with the official tus-js-client in Node: several PATCHes and S3 parts (12 MiB in 5 MiB
 *   chunks), and an upload aborted mid-way resumed at its URL.
 * - a real server process killed (SIGKILL) mid-PATCH and started again on the same database and
 *   data: the client resumes at the offset the database and the temp file of the part under way
 *   kept, and the file is byte-identical (into S3 when there is one, else local disk);
 * - memory: a 256 MiB upload grows that process's RSS by less than 64 MiB (once, on SQLite: the
 *   bytes' path does not depend on the database).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from 'tus-js-client';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import nodePath from 'node:path';
import { Readable } from 'node:stream';
import { serveApp } from '../src/http/node-server.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from './support/databases.ts';
import { freePort, type RunningProcess, serverEnv, startServer, waitFor } from './support/server-process.ts';
import { createBucket, deleteBucket, mountBucket, s3AdminClient, s3ConfigBody, s3Env } from './support/s3.ts';
import {
  ADMIN,
  apiKey,
  bearer,
  createTestApp,
  mountLocalDisk,
  type TestApp,
  tusMetadata as metadata,
} from './support/test-app.ts';

const MiB = 1024 * 1024;
const TUS = { 'Tus-Resumable': '1.0.0' };
const OFFSET_TYPE = { 'Content-Type': 'application/offset+octet-stream' };

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('base64');

for (const dialect of DIALECTS) {
  describe(`tus 1.0 at /api/tus/ (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let server: Server;
    let origin: string;
    let s3: S3Client | undefined;
    let bucket: string | undefined;

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      await mountLocalDisk(t, admin, '/disk');
      if (s3Env.endpoint) {
        s3 = s3AdminClient();
        bucket = await createBucket(s3, 'cubby-tus');
        await mountBucket(t, admin, bucket, '/bucket');
      }
      server = serveApp({ fetch: t.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise((resolve) => server.once('listening', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await t.close();
      if (s3 && bucket) await deleteBucket(s3, bucket);
      s3?.destroy();
    });

    /** POST /api/tus/: the answer, and the upload's path from its Location. */
    const create = async (
      auth: Record<string, string>,
      length: number,
      meta: Record<string, string>,
      extra: { headers?: Record<string, string>; body?: Buffer } = {},
    ) => {
      const res = await t.request('/api/tus/', {
        method: 'POST',
        headers: {
          ...TUS,
          ...auth,
          'Upload-Length': String(length),
          'Upload-Metadata': metadata(meta),
          ...extra.headers,
        },
        ...(extra.body ? { body: new Uint8Array(extra.body) } : {}),
      });
      const location = res.headers.get('location');
      return { res, at: location ? new URL(location).pathname : '' };
    };
    const head = (at: string, auth: Record<string, string> = admin) =>
      t.request(at, { method: 'HEAD', headers: { ...TUS, ...auth } });
    const patch = (at: string, offset: number, body: Buffer, headers: Record<string, string> = {}) =>
      t.request(at, {
        method: 'PATCH',
        headers: { ...TUS, ...admin, ...OFFSET_TYPE, 'Upload-Offset': String(offset), ...headers },
        body: new Uint8Array(body),
      });
    /** The bytes of a mount file, or the status when there is none. */
    const download = async (path: string): Promise<Buffer | number> => {
      const res = await t.request(`/api/admin/fs/download?path=${encodeURIComponent(path)}`, {
        headers: admin,
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        return res.status;
      }
      return Buffer.from(await res.arrayBuffer());
    };

    it('OPTIONS tells the version, extensions, checksums and the upload limit', async () => {
      const res = await t.request('/api/tus/', { method: 'OPTIONS' });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('tus-resumable'), '1.0.0');
      assert.equal(res.headers.get('tus-version'), '1.0.0');
      assert.deepEqual(res.headers.get('tus-extension')!.split(',').sort(), [
        'checksum',
        'creation',
        'creation-with-upload',
        'expiration',
        'termination',
      ]);
      assert.deepEqual(res.headers.get('tus-checksum-algorithm')!.split(','), ['sha1', 'md5', 'sha256']);
      assert.equal(res.headers.get('tus-max-size'), String(100 * MiB));
    });

    it('a wrong or missing Tus-Resumable is 412 with the version spoken', async () => {
      for (const version of ['0.2.2', undefined]) {
        const res = await t.request('/api/tus/', {
          method: 'POST',
          headers: {
            ...admin,
            ...(version ? { 'Tus-Resumable': version } : {}),
            'Upload-Length': '1',
            'Upload-Metadata': metadata({ filename: 'a.txt', path: '/disk/' }),
          },
        });
        assert.equal(res.status, 412);
        assert.equal(res.headers.get('tus-version'), '1.0.0');
      }
    });

    it('creates, answers the offset, takes PATCHes in order and puts the file in place only when complete', async () => {
      const bytes = randomBytes(3000);
      const { res, at } = await create(admin, bytes.length, { filename: 'report.bin', path: '/disk/docs/' });
      assert.equal(res.status, 201);
      assert.match(at, /^\/api\/tus\/[0-9a-f]{32}$/);
      assert.ok(Date.parse(res.headers.get('upload-expires')!) > Date.now());

      let info = await head(at);
      assert.equal(info.status, 200);
      assert.equal(info.headers.get('upload-offset'), '0');
      assert.equal(info.headers.get('upload-length'), '3000');
      assert.equal(info.headers.get('cache-control'), 'no-store');
      assert.equal(info.headers.get('tus-resumable'), '1.0.0');
      assert.ok(info.headers.get('upload-expires'));

      assert.equal((await patch(at, 0, bytes.subarray(0, 1000))).headers.get('upload-offset'), '1000');
      // Another offset than the one held: 409, nothing taken.
      assert.equal((await patch(at, 0, bytes.subarray(0, 1000))).status, 409);
      assert.equal((await patch(at, 1500, bytes.subarray(1500, 2000))).status, 409);
      const wrongType = await t.request(at, {
        method: 'PATCH',
        headers: { ...TUS, ...admin, 'Content-Type': 'text/plain', 'Upload-Offset': '1000' },
        body: 'x',
      });
      assert.equal(wrongType.status, 415);
      info = await head(at);
      assert.equal(info.headers.get('upload-offset'), '1000');
      // Never a partial file.
      assert.equal(await download('/disk/docs/report.bin'), 404);

      const last = await patch(at, 1000, bytes.subarray(1000));
      assert.equal(last.status, 204);
      assert.equal(last.headers.get('upload-offset'), '3000');
      assert.equal(last.headers.get('cubby-path'), '/disk/docs/report.bin');
      assert.deepEqual(await download('/disk/docs/report.bin'), bytes);
      // Complete: HEAD says so, and a PATCH at the end is a no-op.
      assert.equal((await head(at)).headers.get('upload-offset'), '3000');
    });

    it('checksums: a mismatch is 460 and the bytes are discarded; a match is taken', async () => {
      const bytes = randomBytes(2048);
      const { at } = await create(admin, bytes.length, {
        filename: 'checked.bin',
        path: '/disk/docs/checked.bin',
      });
      const wrong = await patch(at, 0, bytes.subarray(0, 1024), {
        'Upload-Checksum': `sha1 ${sha1(randomBytes(8))}`,
      });
      assert.equal(wrong.status, 460);
      assert.equal((await head(at)).headers.get('upload-offset'), '0');
      const unknown = await patch(at, 0, bytes.subarray(0, 1024), { 'Upload-Checksum': 'crc32 AAAA' });
      assert.equal(unknown.status, 400);
      for (const [algorithm, from, to] of [
        ['sha1', 0, 1024],
        ['sha256', 1024, 2048],
      ] as const) {
        const piece = bytes.subarray(from, to);
        const digest = createHash(algorithm).update(piece).digest('base64');
        const ok = await patch(at, from, piece, { 'Upload-Checksum': `${algorithm} ${digest}` });
        assert.equal(ok.status, 204);
      }
      assert.deepEqual(await download('/disk/docs/checked.bin'), bytes);
    });

    it('past Upload-Length or the upload limit is 413; a length is required', async () => {
      const tooBig = await create(admin, 100 * MiB + 1, { filename: 'big.bin', path: '/disk/' });
      assert.equal(tooBig.res.status, 413);
      const deferred = await t.request('/api/tus/', {
        method: 'POST',
        headers: {
          ...TUS,
          ...admin,
          'Upload-Defer-Length': '1',
          'Upload-Metadata': metadata({ filename: 'a', path: '/disk/' }),
        },
      });
      assert.equal(deferred.status, 400);
      const { at } = await create(admin, 10, { filename: 'ten.bin', path: '/disk/' });
      assert.equal((await patch(at, 0, randomBytes(11))).status, 413);
      assert.equal((await head(at)).headers.get('upload-offset'), '0');
      const noTarget = await create(admin, 10, { filename: 'x.bin' });
      assert.equal(noTarget.res.status, 400);
      const twoTargets = await create(admin, 10, { filename: 'x.bin', path: '/disk/', share: '' });
      assert.equal(twoTargets.res.status, 400);
    });

    it('creation-with-upload takes the first bytes with the POST', async () => {
      const bytes = randomBytes(500);
      const { res, at } = await create(
        admin,
        1000,
        { filename: 'early.bin', path: '/disk/' },
        { headers: OFFSET_TYPE, body: bytes },
      );
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('upload-offset'), '500');
      assert.equal((await head(at)).headers.get('upload-offset'), '500');
    });

    it('DELETE terminates: the upload is gone and no file appears', async () => {
      const { at } = await create(admin, 100, { filename: 'gone.bin', path: '/disk/' });
      await patch(at, 0, randomBytes(50));
      const res = await t.request(at, { method: 'DELETE', headers: { ...TUS, ...admin } });
      assert.equal(res.status, 204);
      assert.equal((await head(at)).status, 404);
      assert.equal((await patch(at, 50, randomBytes(50))).status, 404);
      assert.equal(await download('/disk/gone.bin'), 404);
    });

    it('expires: 410 after Upload-Expires, 404 once the janitor ended it', async () => {
      // A key: a day later the admin's session is over too.
      const key = apiKey((await t.createKey({ name: 'late', mount_permission: true })).key);
      const { at } = await create(key, 100, { filename: 'late.bin', path: '/disk/' });
      assert.equal((await patch(at, 0, randomBytes(50), key)).status, 204);
      t.clock.advance(25 * 3600_000);
      admin = bearer(await t.adminToken());
      assert.equal((await head(at, key)).status, 410);
      assert.equal((await patch(at, 50, randomBytes(50), key)).status, 410);
      assert.ok((await t.services.tus.purgeExpired()) >= 1);
      assert.equal((await head(at, key)).status, 404);
      assert.equal(await download('/disk/late.bin'), 404);
    });

    it('credentials: none is 401; a key without the right is 403; someone else’s upload is 403', async () => {
      const meta = { filename: 'k.bin', path: '/disk/' };
      assert.equal((await create({}, 10, meta)).res.status, 401);
      const textOnly = await t.createKey({ name: 'text-only', text_permission: true });
      assert.equal((await create(apiKey(textOnly.key), 10, meta)).res.status, 403);
      assert.equal(
        (await create(apiKey(textOnly.key), 10, { filename: 'k.bin', share: '' })).res.status,
        403,
      );
      const mine = await t.createKey({ name: 'mine', mount_permission: true, basic_path: '/disk' });
      const other = await t.createKey({ name: 'other', mount_permission: true, basic_path: '/disk' });
      const { res, at } = await create(apiKey(mine.key), 10, meta);
      assert.equal(res.status, 201);
      assert.equal((await head(at, apiKey(mine.key))).status, 200);
      assert.equal((await head(at, apiKey(other.key))).status, 403);
      assert.equal((await head(at, {})).status, 401);
    });

    it('confinement: a key writes only inside its folder', async () => {
      const inside = await t.createKey({
        name: 'inside',
        mount_permission: true,
        basic_path: '/disk/inside',
      });
      const key = apiKey(inside.key);
      for (const path of ['/disk/outside/', '/disk/inside/../outside/', '/disk/x.bin', '/bucket/']) {
        const { res } = await create(key, 10, { filename: 'x.bin', path });
        assert.ok([400, 403, 404].includes(res.status), `${path}: ${res.status}`);
      }
      const { res, at } = await create(key, 4, { filename: 'in.bin', path: '/disk/inside/' });
      assert.equal(res.status, 201);
      const done = await t.request(at, {
        method: 'PATCH',
        headers: { ...TUS, ...key, ...OFFSET_TYPE, 'Upload-Offset': '0' },
        body: 'data',
      });
      assert.equal(done.status, 204);
      assert.deepEqual(await download('/disk/inside/in.bin'), Buffer.from('data'));
    });

    it('share: a new file share with its password, ready only when complete', async () => {
      const bytes = randomBytes(1234);
      const { res, at } = await create(admin, bytes.length, {
        filename: 'shared.bin',
        share: '',
        password: 'pw-123',
        max_views: '3',
        remark: 'over tus',
      });
      assert.equal(res.status, 201);
      const done = await patch(at, 0, bytes);
      assert.equal(done.status, 204);
      const shareUrl = done.headers.get('cubby-share-url')!;
      assert.match(shareUrl, /\/file\/[^/]+$/);
      const slug = shareUrl.split('/').pop()!;
      const info = await t.json(`/api/public/files/${slug}`);
      assert.equal(info.status, 200, JSON.stringify(info.body));
      assert.equal(info.body.data.requires_password, true);
      assert.equal(info.body.data.size, bytes.length);
      assert.equal(info.body.data.remark, 'over tus');
      const verify = (password: string) =>
        t.json(`/api/public/files/${slug}/verify`, { method: 'POST', json: { password } });
      assert.equal((await verify('wrong')).status, 401);
      const right = await verify('pw-123');
      assert.equal(right.status, 200);
      const url = new URL(right.body.data.downloadUrl);
      const got = await t.request(url.pathname + url.search);
      assert.deepEqual(Buffer.from(await got.arrayBuffer()), bytes);
    });

    it("an upload request's link takes files by tus without an account: its password, limits and folder hold", async () => {
      const made = await t.request('/api/admin/fs/mkdir', {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: '/disk/inbox' }),
      });
      assert.equal(made.status, 200);
      const request = await t.json('/api/upload-requests', {
        method: 'POST',
        headers: admin,
        json: { target_path: '/disk/inbox', password: 'drop-123', max_files: 1, allowed_types: ['.pdf'] },
      });
      assert.equal(request.status, 201, JSON.stringify(request.body));
      const token = request.body.data.token as string;
      const verified = await t.json(`/api/public/upload-requests/${token}/verify`, {
        method: 'POST',
        json: { password: 'drop-123' },
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      const access = verified.body.data.access_token as string;
      assert.ok(access, JSON.stringify(verified.body.data));
      // Without the password's token, or with a type the request refuses, nothing starts.
      assert.equal((await create({}, 10, { filename: 'scan.pdf', upload_request: token })).res.status, 401);
      const exe = await create({}, 10, { filename: 'tool.exe', upload_request: token, access });
      assert.equal(exe.res.status, 415);
      // tus-js-client, no Authorization: two chunks, then the file is in the request's folder.
      const file = randomBytes(3 * MiB);
      await new Promise<void>((resolve, reject) => {
        new Upload(file, {
          endpoint: `${origin}/api/tus/`,
          chunkSize: 2 * MiB,
          retryDelays: [],
          metadata: { filename: '../../scan.pdf', upload_request: token, access },
          onSuccess: () => resolve(),
          onError: reject,
        }).start();
      });
      const stored = await download('/disk/inbox/scan.pdf');
      assert.ok(Buffer.isBuffer(stored), `stored: ${String(stored)}`);
      assert.equal(sha1(stored), sha1(file));
      const counted = await t.json(`/api/upload-requests/${token}`, { headers: admin });
      assert.equal(counted.body.data.files_count, 1);
      assert.equal(counted.body.data.bytes_total, 3 * MiB);
      // Received files are not published as shares (as the form route does).
      const shares = await t.json('/api/admin/files?limit=100', { headers: admin });
      assert.ok(!JSON.stringify(shares.body.data.files).includes('scan.pdf'));
      // The one file the request takes is used: a second upload is refused before a byte.
      const again = await create({}, 10, { filename: 'more.pdf', upload_request: token, access });
      assert.equal(again.res.status, 409, await again.res.text());
    });

    it('a `bundle` upload becomes a file share appended to a bundle its caller manages; refused for others, 410 revoked', async () => {
      const alice = await t.createKey({ name: 'alice-tus', file_permission: true });
      const bob = await t.createKey({ name: 'bob-tus', file_permission: true });
      const textOnly = await t.createKey({ name: 'text-tus', text_permission: true });
      // An empty bundle of alice's: an upload request into a new bundle makes one.
      const request = await t.json('/api/upload-requests', {
        method: 'POST',
        headers: apiKey(alice.key),
        json: { bundle: true },
      });
      assert.equal(request.status, 201, JSON.stringify(request.body));
      const slug = request.body.data.bundle_slug as string;
      const bytes = randomBytes(64 * 1024);
      // Alice, then the admin (who manages every bundle), each append a file.
      for (const [auth, name] of [
        [apiKey(alice.key), 'alice.bin'],
        [admin, 'admin.bin'],
      ] as const) {
        const { res, at } = await create(auth, bytes.length, { filename: name, bundle: slug });
        assert.equal(res.status, 201, await res.text());
        const done = await t.request(at, {
          method: 'PATCH',
          headers: { ...TUS, ...auth, ...OFFSET_TYPE, 'Upload-Offset': '0' },
          body: new Uint8Array(bytes),
        });
        assert.equal(done.status, 204, await done.text());
      }
      const list = await t.json(`/api/public/bundles/${slug}`);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const items = list.body.data.items as { name: string; size: number; download_url: string }[];
      assert.deepEqual(
        items.map((i) => [i.name, i.size]),
        [
          ['alice.bin', bytes.length],
          ['admin.bin', bytes.length],
        ],
      );
      const url = new URL(items[1]!.download_url);
      const got = await t.request(url.pathname + url.search);
      assert.equal(sha1(Buffer.from(await got.arrayBuffer())), sha1(bytes));

      // Someone else's bundle: 404 as the bundles routes answer; no file permission: 403.
      const bobs = await create(apiKey(bob.key), 10, { filename: 'x.bin', bundle: slug });
      assert.equal(bobs.res.status, 404, await bobs.res.text());
      const texts = await create(apiKey(textOnly.key), 10, { filename: 'x.bin', bundle: slug });
      assert.equal(texts.res.status, 403, await texts.res.text());
      // An upload under way when the bundle is revoked is given up with it; a new one is refused (410).
      const pending = await create(admin, 10, { filename: 'late.bin', bundle: slug });
      assert.equal(pending.res.status, 201);
      const revoked = await t.json(`/api/bundles/${slug}`, { method: 'DELETE', headers: apiKey(alice.key) });
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      const refused = await create(admin, 10, { filename: 'after.bin', bundle: slug });
      assert.equal(refused.res.status, 410, await refused.res.text());
      assert.equal(
        (await t.request(pending.at, { method: 'DELETE', headers: { ...TUS, ...admin } })).status,
        204,
      );
      const owned = await t.json(`/api/bundles/${slug}`, { headers: admin });
      assert.equal(owned.body.data.item_count, 2);
    });

    for (const mount of ['/disk', '/bucket']) {
      it(`tus-js-client: 12 MiB in 5 MiB chunks into ${mount}, aborted mid-way and resumed at its URL`, async (c) => {
        if (mount === '/bucket' && !s3) return c.skip('S3_ENDPOINT is not set');
        const file = randomBytes(12 * MiB);
        const options = {
          endpoint: `${origin}/api/tus/`,
          chunkSize: 5 * MiB,
          retryDelays: [0, 100, 500],
          headers: admin,
          metadata: { filename: 'client.bin', filetype: 'application/octet-stream', path: `${mount}/tus/` },
        };
        // The first run stops after its first chunk.
        const url = await new Promise<string>((resolve, reject) => {
          const upload: Upload = new Upload(file, {
            ...options,
            onChunkComplete: (_size, accepted) => {
              if (accepted >= 5 * MiB) void upload.abort().then(() => resolve(upload.url!));
            },
            onError: reject,
          });
          upload.start();
        });
        const held = await head(new URL(url).pathname);
        assert.equal(held.headers.get('upload-offset'), String(5 * MiB));
        assert.equal(await download(`${mount}/tus/client.bin`), 404);
        // The second resumes there: HEAD, then the rest.
        let sentFrom = -1;
        await new Promise<void>((resolve, reject) => {
          const upload = new Upload(file, {
            ...options,
            uploadUrl: url,
            onBeforeRequest: (req) => {
              if (req.getMethod() === 'PATCH' && sentFrom < 0)
                sentFrom = Number(req.getHeader('Upload-Offset'));
            },
            onSuccess: () => resolve(),
            onError: reject,
          });
          upload.start();
        });
        assert.equal(sentFrom, 5 * MiB);
        const stored = await download(`${mount}/tus/client.bin`);
        assert.ok(Buffer.isBuffer(stored));
        assert.equal(sha1(stored), sha1(file));
      });
    }
  });
}

/** Resolves once `check` holds (the state of another process's files), polling. */
async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A process's resident memory, from /proc. */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line![1]) * 1024;
}

/** `total` bytes made of one random MiB, each MiB stamped with its number; and their SHA-1. */
function generated(total: number): { stream: () => Readable; sha1: string } {
  const block = randomBytes(MiB);
  const pieces = function* () {
    for (let i = 0; i < total / MiB; i++) {
      const piece = Buffer.from(block);
      piece.writeUInt32BE(i, 0);
      yield piece;
    }
  };
  const hash = createHash('sha1');
  for (const piece of pieces()) hash.update(piece);
  return { stream: () => Readable.from(pieces()), sha1: hash.digest('base64') };
}

for (const dialect of DIALECTS) {
  describe(`tus: a server restart mid-upload, and memory (${dialect})`, () => {
    let database: TestDatabase;
    let server: RunningProcess | undefined;
    let s3: S3Client | undefined;
    let bucket: string | undefined;
    let origin = '';
    let auth: Record<string, string> = {};
    const env: Record<string, string> = {};

    const start = async () => {
      server = startServer(env);
      await waitFor(server, (out) => out.includes('Cubby is serving'));
    };
    const kill = async () => {
      server!.child.kill('SIGKILL');
      await server!.exited;
    };
    const call = async (method: string, route: string, body: unknown) => {
      const res = await fetch(`${origin}${route}`, {
        method,
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { data: Record<string, string> };
      assert.ok(res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    /** The SHA-1 of a mount file, streamed. */
    const sha1Of = async (path: string) => {
      const res = await fetch(`${origin}/api/admin/fs/download?path=${encodeURIComponent(path)}`, {
        headers: auth,
      });
      assert.equal(res.status, 200);
      const hash = createHash('sha1');
      for await (const chunk of res.body!) hash.update(chunk);
      return hash.digest('base64');
    };

    before(async () => {
      database = await createTestDatabase(dialect);
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      Object.assign(env, serverEnv(database, port, ADMIN.password));
      await start();
      auth = bearer((await call('POST', '/api/admin/login', ADMIN)).token!);
      const configs = (await call('GET', '/api/s3-configs', undefined)) as unknown as Array<{
        id: string;
        is_default: unknown;
      }>;
      await call('POST', '/api/admin/mounts', {
        name: 'disk',
        storage_config_id: configs.find((c) => c.is_default)!.id,
        mount_path: '/disk',
      });
      if (s3Env.endpoint) {
        s3 = s3AdminClient();
        bucket = await createBucket(s3, 'cubby-tus-restart');
        const config = await call('POST', '/api/s3-configs', s3ConfigBody('bucket', bucket));
        await call('POST', '/api/admin/mounts', {
          name: 'bucket',
          storage_config_id: config.id,
          mount_path: '/bucket',
        });
      }
      await call('PUT', '/api/admin/system-settings', { max_upload_size: 300, max_upload_size_unit: 'MB' });
    });
    after(async () => {
      if (server && server.child.exitCode === null) await kill();
      if (s3 && bucket) await deleteBucket(s3, bucket);
      s3?.destroy();
      await database.destroy();
    });

    it('killed mid-PATCH and started again: the client resumes and the file is whole', async () => {
      const mount = s3 ? '/bucket' : '/disk';
      const file = randomBytes(12 * MiB);
      const options = {
        endpoint: `${origin}/api/tus/`,
        chunkSize: 3 * MiB,
        headers: auth,
        metadata: { filename: 'restart.bin', path: `${mount}/` },
      };
      // 3 MiB arrive whole (short of a part: they wait in the temp file), then the server is
      // killed while the next PATCH streams.
      const created = await fetch(options.endpoint, {
        method: 'POST',
        headers: {
          ...auth,
          ...TUS,
          'Upload-Length': String(file.length),
          'Upload-Metadata': metadata(options.metadata),
        },
      });
      assert.equal(created.status, 201);
      const url = created.headers.get('location')!;
      const first = await fetch(url, {
        method: 'PATCH',
        headers: { ...auth, ...TUS, ...OFFSET_TYPE, 'Upload-Offset': '0' },
        body: new Uint8Array(file.subarray(0, 3 * MiB)),
      });
      assert.equal(first.headers.get('upload-offset'), String(3 * MiB));
      const tail = nodePath.join(database.dataDir, 'tmp', 'tus', `${url.split('/').pop()}.1.part`);
      const req = http.request(url, {
        method: 'PATCH',
        headers: {
          ...auth,
          ...TUS,
          ...OFFSET_TYPE,
          'Upload-Offset': String(3 * MiB),
          'Content-Length': String(3 * MiB),
        },
      });
      req.on('error', () => undefined);
      req.write(file.subarray(3 * MiB, 4 * MiB));
      await until(async () => ((await stat(tail).catch(() => undefined))?.size ?? 0) > 3 * MiB);
      await kill();
      req.destroy();
      await start();
      let resumedAt = -1;
      await new Promise<void>((resolve, reject) => {
        new Upload(file, {
          ...options,
          uploadUrl: url,
          retryDelays: [0, 200],
          onBeforeRequest: (req) => {
            if (req.getMethod() === 'PATCH' && resumedAt < 0)
              resumedAt = Number(req.getHeader('Upload-Offset'));
          },
          onSuccess: () => resolve(),
          onError: reject,
        }).start();
      });
      assert.equal(resumedAt, 3 * MiB, 'resumed after the bytes kept before the kill');
      assert.equal(await sha1Of(`${mount}/restart.bin`), sha1(file));
    });

    it('a 256 MiB upload grows the server’s memory by less than 64 MiB', async (c) => {
      if (dialect !== 'sqlite') return c.skip('measured once, on SQLite');
      const size = 256 * MiB;
      const source = generated(size);
      const pid = server!.child.pid!;
      const baseline = rssOf(pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
      try {
        await new Promise<void>((resolve, reject) => {
          new Upload(source.stream(), {
            endpoint: `${origin}/api/tus/`,
            chunkSize: 64 * MiB,
            uploadSize: size,
            headers: auth,
            metadata: { filename: 'big.bin', path: '/disk/' },
            onSuccess: () => resolve(),
            onError: reject,
          }).start();
        });
      } finally {
        clearInterval(sampler);
      }
      c.diagnostic(`RSS ${Math.round(baseline / MiB)} MiB before, peak ${Math.round(peak / MiB)} MiB`);
      assert.ok(peak - baseline < 64 * MiB, `grew by ${Math.round((peak - baseline) / MiB)} MiB`);
      assert.equal(await sha1Of('/disk/big.bin'), source.sha1);
    });
  });
}
