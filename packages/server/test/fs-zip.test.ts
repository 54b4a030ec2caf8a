/**
 * Zip downloads (/api/{admin|user}/fs/download-zip, …/fs/zip-link and the link route /api/fs/zip) on
 * both databases and both drivers (local disk and radosgw). Every archive is opened with real unzip
 * tools (Debian's `unzip -t` and Python's zipfile) and compared name by name and byte by byte with
 * what was stored: nested and empty folders, Chinese and `#?%&+'"` names, a selection; a key confined
 * to its base path; signed links (tampered, expired, revoked); the entry limit before any byte; a
 * file vanishing midway (the connection is aborted); a client that goes away (the storage read stops).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serveApp } from '../src/http/node-server.ts';
import { resetPassword } from '../src/modules/auth/auth.service.ts';
import { SessionsRepository } from '../src/modules/auth/sessions.repository.ts';
import { UsersRepository } from '../src/modules/users/users.repository.ts';
import { zipArchive } from '../src/modules/fs/zip-archive.ts';
import type { StorageDriver } from '../src/storage/driver.ts';
import { generatedStream, streamOf } from './storage/contract.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, S3_SKIP, s3AdminClient } from './support/s3.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const ODD = `报告 #1 ?%&+'".txt`;
const CN_DIR = '中文目录';
const MAX_ENTRIES = 30;
const BIG = 48 * 1024 * 1024;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'cubby-zip-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface ZipListing {
  bad: string | null;
  entries: Array<{ name: string; utf8: boolean; method: number; sha: string | null; size: number }>;
}

/** What Python's zipfile reads from the archive (testzip, names, UTF-8 flag, method, content hashes). */
function inspect(bytes: Buffer): ZipListing {
  const file = path.join(tmp, `${randomUUID()}.zip`);
  writeFileSync(file, bytes);
  // Debian's unzip tests every entry's CRC too.
  const unzip = spawnSync('unzip', ['-tq', file], { encoding: 'utf8' });
  assert.equal(unzip.status, 0, `unzip -t: ${unzip.stdout} ${unzip.stderr}`);
  const script = [
    'import hashlib, json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'print(json.dumps({"bad": z.testzip(), "entries": [{"name": i.filename, "utf8": bool(i.flag_bits & 0x800),',
    ' "method": i.compress_type, "size": i.file_size,',
    ' "sha": None if i.is_dir() else hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()]}))',
  ].join('\n');
  return JSON.parse(
    execFileSync('python3', ['-c', script, file], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  ) as ZipListing;
}

/** Whether Python's zipfile accepts the bytes as a zip at all. */
function isZip(bytes: Buffer): boolean {
  const file = path.join(tmp, `${randomUUID()}.zip`);
  writeFileSync(file, bytes);
  const script =
    'import sys, zipfile\ntry:\n  zipfile.ZipFile(sys.argv[1]).testzip()\nexcept Exception:\n  sys.exit(3)';
  return spawnSync('python3', ['-c', script, file]).status === 0;
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const q = (p: string) => encodeURIComponent(p);

describe('zip archive writer', () => {
  it('writes ZIP64 when there are more than 65,535 entries, readable by unzip and zipfile', async () => {
    const entries = Array.from({ length: 70_000 }, (_, i) => ({
      kind: 'dir' as const,
      name: `d${i}`,
      modified: null,
    }));
    const archive = zipArchive(entries, { now: new Date() });
    const bytes = Buffer.from(await new Response(archive.body).arrayBuffer());
    assert.equal(bytes.length, archive.size);
    // The ZIP64 end of central directory record is there.
    assert.ok(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])));
    const listing = inspect(bytes);
    assert.equal(listing.entries.length, 70_000);
    assert.equal(listing.entries[69_999]!.name, 'd69999/');
  });
});

for (const dialect of DIALECTS) {
  for (const kind of ['local', 's3'] as const) {
    describe(`zip downloads (${dialect}, ${kind})`, { skip: kind === 's3' ? S3_SKIP : false }, () => {
      let t: TestApp;
      let admin: Record<string, string>;
      let key: Record<string, string>;
      let keyId: string;
      let driver: StorageDriver;
      let bucket: string | undefined;
      const s3 = kind === 's3' ? s3AdminClient() : undefined;
      const binary = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251));

      before(async () => {
        t = await createTestApp(dialect, { ZIP_MAX_ENTRIES: String(MAX_ENTRIES) });
        t.clock.followRealTime();
        admin = bearer(await t.adminToken());
        let configId: string;
        if (kind === 's3') {
          bucket = await createBucket(s3!, 'cubby-zip');
          configId = await insertS3Config(t, bucket);
        } else {
          const res = await t.json('/api/s3-configs', {
            method: 'POST',
            headers: admin,
            json: { name: 'z', provider_type: 'Local', root_path: `${t.database.dataDir}/z-${randomUUID()}` },
          });
          configId = res.body.data.id;
        }
        const mount = await t.json('/api/admin/mounts', {
          method: 'POST',
          headers: admin,
          json: { name: 'm', mount_path: '/m', storage_config_id: configId, cache_ttl: 300 },
        });
        assert.equal(mount.status, 201, JSON.stringify(mount.body));
        const created = await t.createKey({ name: 'team', basic_path: '/m/team', mount_permission: true });
        key = apiKey(created.key);
        keyId = created.id;
        driver = await t.services.storageConfigs.driver((await t.services.storageConfigs.find(configId))!);
        await driver.write('/team/docs/a.txt', streamOf('hello'));
        await driver.write(`/team/docs/${ODD}`, streamOf('odd name'));
        await driver.write('/team/docs/sub/deep/b.bin', streamOf(binary));
        await driver.mkdir('/team/docs/empty');
        await driver.write(`/team/docs/${CN_DIR}/c.txt`, streamOf('中文内容'));
        await driver.write('/other/secret.txt', streamOf('secret'));
      });
      after(async () => {
        await t.close();
        if (bucket) await deleteBucket(s3!, bucket);
      });

      const DOCS = [
        { name: 'a.txt', sha: sha('hello') },
        { name: 'empty/', sha: null },
        { name: 'sub/', sha: null },
        { name: 'sub/deep/', sha: null },
        { name: 'sub/deep/b.bin', sha: sha(binary) },
        { name: ODD, sha: sha('odd name') },
        { name: `${CN_DIR}/`, sha: null },
        { name: `${CN_DIR}/c.txt`, sha: sha('中文内容') },
      ];
      const sorted = (entries: Array<{ name: string; sha: string | null }>) =>
        entries.map(({ name, sha }) => ({ name, sha })).sort((a, b) => (a.name < b.name ? -1 : 1));
      const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

      it('a folder: nested and empty folders, Unicode and punctuation, the right headers', async () => {
        const res = await t.request(`/api/admin/fs/download-zip?path=${q('/m/team/docs')}`, {
          headers: admin,
        });
        assert.equal(res.status, 200, await res.clone().text());
        assert.equal(res.headers.get('content-type'), 'application/zip');
        assert.equal(
          res.headers.get('content-disposition'),
          `attachment; filename="docs.zip"; filename*=UTF-8''docs.zip`,
        );
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        const bytes = await bytesOf(res);
        assert.equal(Number(res.headers.get('content-length')), bytes.length);
        const listing = inspect(bytes);
        assert.equal(listing.bad, null);
        assert.deepEqual(sorted(listing.entries), sorted(DOCS));
        assert.ok(listing.entries.every((e) => e.utf8 && e.method === 0));
      });

      it('names the archive after a Chinese folder (RFC 5987) and a selection after its folder', async () => {
        const res = await t.request(`/api/admin/fs/download-zip?path=${q(`/m/team/docs/${CN_DIR}/`)}`, {
          headers: admin,
        });
        assert.equal(res.status, 200);
        assert.equal(
          res.headers.get('content-disposition'),
          `attachment; filename="____.zip"; filename*=UTF-8''${q(CN_DIR)}.zip`,
        );
        assert.deepEqual(sorted(inspect(await bytesOf(res)).entries), [
          { name: 'c.txt', sha: sha('中文内容') },
        ]);

        const selection = await t.request(
          `/api/admin/fs/download-zip?paths=${q('/m/team/docs/sub')}&paths=${q(`/m/team/docs/${ODD}`)}`,
          { headers: admin },
        );
        assert.equal(selection.status, 200, await selection.clone().text());
        assert.match(selection.headers.get('content-disposition') ?? '', /filename="docs\.zip"/);
        assert.deepEqual(
          sorted(inspect(await bytesOf(selection)).entries),
          sorted(DOCS.filter((e) => e.name === ODD || e.name.startsWith('sub/'))),
        );

        const apart = await t.json(
          `/api/admin/fs/download-zip?paths=${q('/m/team/docs/a.txt')}&paths=${q('/m/team/docs/sub/deep')}`,
          { headers: admin },
        );
        assert.equal(apart.status, 400);
        assert.equal(apart.body.message, '所选项目必须位于同一目录中');
      });

      it('a key: inside its base path works, outside is refused as on every fs route', async () => {
        const res = await t.request(`/api/user/fs/download-zip?path=${q('/m/team/docs')}`, { headers: key });
        assert.equal(res.status, 200);
        assert.deepEqual(sorted(inspect(await bytesOf(res)).entries), sorted(DOCS));
        for (const p of ['/m/other', '/m', '/m/team/../other', '/m/team/a\\..\\..\\other']) {
          const download = await t.json(`/api/user/fs/download?path=${q(p)}`, { headers: key });
          const zip = await t.json(`/api/user/fs/download-zip?path=${q(p)}`, { headers: key });
          assert.ok(zip.status === 403 || zip.status === 400, `${p} → ${zip.status}`);
          assert.deepEqual([zip.status, zip.body.message], [download.status, download.body.message], p);
        }
        const mixed = await t.json(
          `/api/user/fs/download-zip?paths=${q('/m/team/docs')}&paths=${q('/m/other')}`,
          { headers: key },
        );
        assert.equal(mixed.status, 403);
        const link = await t.json('/api/user/fs/zip-link', {
          method: 'POST',
          headers: key,
          json: { paths: ['/m/other/secret.txt'] },
        });
        assert.equal(link.status, 403);
        assert.equal(link.body.message, '没有权限访问此路径');
        const nul = await t.json('/api/user/fs/download-zip?path=/m/team/a%00b', { headers: key });
        assert.equal(nul.status, 400);
      });

      it('a missing folder is 404, before any byte', async () => {
        const res = await t.json(`/api/admin/fs/download-zip?path=${q('/m/team/none')}`, { headers: admin });
        assert.equal(res.status, 404);
        assert.equal(res.body.message, '文件或目录不存在');
        const virtual = await t.json(`/api/admin/fs/download-zip?path=${q('/nowhere')}`, { headers: admin });
        assert.equal(virtual.status, 404);
      });

      it('a folder above the mounts is walked through them (each mount a folder of the archive)', async () => {
        const res = await t.request('/api/admin/fs/download-zip?path=/', { headers: admin });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-disposition') ?? '', /filename="download\.zip"/);
        const names = inspect(await bytesOf(res)).entries.map((e) => e.name);
        assert.ok(names.includes('m/'), names.join());
        assert.ok(names.includes('m/team/docs/sub/deep/b.bin'), names.join());
        assert.ok(names.includes('m/other/secret.txt'), names.join());
      });

      it('more entries than the limit: 400 with the limit, before any file is read', async () => {
        for (let i = 0; i <= MAX_ENTRIES; i++) await driver.write(`/team/many/f${i}.txt`, streamOf('x'));
        const reads: string[] = [];
        const read = driver.read.bind(driver);
        driver.read = (p, o) => (reads.push(p), read(p, o));
        try {
          const res = await t.json(`/api/user/fs/download-zip?path=${q('/m/team/many')}`, {
            headers: { ...key, 'X-Cubby-Lang': 'en' },
          });
          assert.equal(res.status, 400);
          assert.match(res.body.message, /More than 30 files and folders/);
          const link = await t.json('/api/user/fs/zip-link', {
            method: 'POST',
            headers: key,
            json: { paths: ['/m/team/many'] },
          });
          assert.equal(link.status, 400);
          assert.match(link.body.message, /超过 30 个/);
          assert.deepEqual(reads, []);
        } finally {
          driver.read = read;
          await driver.remove('/team/many', { recursive: true });
        }
      });

      it('zip-link: the URL downloads without credentials; refused once the key is deleted', async () => {
        const link = await t.json('/api/user/fs/zip-link', {
          method: 'POST',
          headers: key,
          json: { paths: ['/m/team/docs/'] },
        });
        assert.equal(link.status, 200, JSON.stringify(link.body));
        const { url, expires_at, expires_in } = link.body.data;
        assert.equal(expires_in, 300);
        const left = Date.parse(expires_at) - t.clock.now().getTime();
        assert.ok(left > 290_000 && left <= 300_000, String(left));
        const u = new URL(url);
        assert.equal(u.pathname, '/api/fs/zip');
        const res = await t.request(u.pathname + u.search);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-disposition') ?? '', /filename="docs\.zip"/);
        assert.deepEqual(sorted(inspect(await bytesOf(res)).entries), sorted(DOCS));

        // The base path moved away: the link's paths are outside it now.
        const change = (json: object) =>
          t.json(`/api/admin/api-keys/${keyId}`, { method: 'PUT', headers: admin, json });
        assert.equal((await change({ basic_path: '/m/elsewhere' })).status, 200);
        const moved = await t.json(u.pathname + u.search);
        assert.equal(moved.status, 403);
        assert.equal(moved.body.message, '没有权限访问此路径');
        assert.equal((await change({ basic_path: '/m/team', mount_permission: false })).status, 200);
        assert.equal((await t.json(u.pathname + u.search)).status, 403);
        assert.equal((await change({ mount_permission: true })).status, 200);
        assert.equal((await t.request(u.pathname + u.search)).status, 200);

        const other = await t.createKey({
          name: `gone-${randomUUID()}`,
          basic_path: '/m/team',
          mount_permission: true,
        });
        const doomed = await t.json('/api/user/fs/zip-link', {
          method: 'POST',
          headers: apiKey(other.key),
          json: { paths: ['/m/team/docs/a.txt'] },
        });
        assert.equal(doomed.status, 200);
        const doomedUrl = new URL(doomed.body.data.url);
        assert.equal((await t.request(doomedUrl.pathname + doomedUrl.search)).status, 200);
        const deleted = await t.json(`/api/admin/api-keys/${other.id}`, { method: 'DELETE', headers: admin });
        assert.equal(deleted.status, 200);
        const refused = await t.json(doomedUrl.pathname + doomedUrl.search);
        assert.equal(refused.status, 403);
        assert.equal(refused.body.message, '创建此下载链接的密钥或账户已失效');
      });

      it('zip-link: a tampered, malformed or expired link is refused; a password reset retires an admin link', async () => {
        const link = await t.json('/api/admin/fs/zip-link', {
          method: 'POST',
          headers: admin,
          json: { paths: ['/m/team/docs/a.txt', '/m/team/docs/sub'] },
        });
        assert.equal(link.status, 200, JSON.stringify(link.body));
        const u = new URL(link.body.data.url);
        const token = u.searchParams.get('token')!;
        const [v, body, sig] = token.split('.') as [string, string, string];
        const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
        const invalid = [
          '',
          'garbage',
          `${v}.${flip(body, 5)}.${sig}`,
          `${v}.${body}.${flip(sig, 10)}`,
          `v2.${body}.${sig}`,
          `${v}.${body}${body}.${sig}`,
        ];
        for (const bad of invalid) {
          const res = await t.json(`/api/fs/zip?token=${encodeURIComponent(bad)}`);
          assert.equal(res.status, 403, bad);
          assert.equal(res.body.message, '下载链接无效', bad);
        }
        assert.equal((await t.json('/api/fs/zip')).status, 403);
        const good = await t.request(u.pathname + u.search);
        assert.equal(good.status, 200);
        assert.deepEqual(
          inspect(await bytesOf(good))
            .entries.map((e) => e.name)
            .sort(),
          ['a.txt', 'sub/', 'sub/deep/', 'sub/deep/b.bin'],
        );

        t.clock.advance(301_000);
        const expired = await t.json(u.pathname + u.search);
        assert.equal(expired.status, 403);
        assert.equal(expired.body.message, '下载链接已过期，请重新下载');

        const fresh = await t.json('/api/admin/fs/zip-link', {
          method: 'POST',
          headers: admin,
          json: { paths: ['/m/team/docs/a.txt'] },
        });
        const freshUrl = new URL(fresh.body.data.url);
        assert.equal((await t.request(freshUrl.pathname + freshUrl.search)).status, 200);
        const accounts = () => ({
          users: new UsersRepository(t.database.db.kysely),
          sessions: new SessionsRepository(t.database.db.kysely),
          clock: t.clock,
        });
        const { username } = (await resetPassword(accounts(), undefined, 'a new password 42'))!;
        try {
          const retired = await t.json(freshUrl.pathname + freshUrl.search);
          assert.equal(retired.status, 403);
          assert.equal(retired.body.message, '创建此下载链接的密钥或账户已失效');
        } finally {
          await resetPassword(accounts(), username, 'correct horse battery');
          admin = bearer(await t.adminToken());
        }
      });

      it('a file vanishing midway aborts the answer: no archive that passes for a whole one', async () => {
        await driver.write('/team/vanish/1-first.bin', streamOf(binary));
        await driver.write('/team/vanish/2-gone.txt', streamOf('soon gone'));
        const read = driver.read.bind(driver);
        driver.read = async (p, o) => {
          if (p === '/team/vanish/1-first.bin') await driver.remove('/team/vanish/2-gone.txt');
          return read(p, o);
        };
        try {
          const res = await t.request(`/api/admin/fs/download-zip?path=${q('/m/team/vanish')}`, {
            headers: admin,
          });
          assert.equal(res.status, 200);
          const chunks: Uint8Array[] = [];
          const reader = res.body!.getReader();
          await assert.rejects(async () => {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              chunks.push(value);
            }
          });
          const got = Buffer.concat(chunks);
          assert.ok(got.length < Number(res.headers.get('content-length')));
          assert.equal(isZip(got), false);
          assert.ok(t.logLines.some((l) => l.includes('zip download cut off')));
        } finally {
          driver.read = read;
          await driver.remove('/team/vanish', { recursive: true });
        }
      });

      it('a client that goes away stops the storage read at once; no further file is opened', async () => {
        await driver.write('/team/big/big.bin', generatedStream(BIG, 'big'), { size: BIG });
        await driver.write('/team/big/z-after.txt', streamOf('after'));
        const opened: string[] = [];
        let pulled = 0;
        let cancelled!: () => void;
        const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
        const read = driver.read.bind(driver);
        driver.read = async (p, o) => {
          opened.push(p);
          const result = await read(p, o);
          const reader = result.body.getReader();
          const body = new ReadableStream<Uint8Array>({
            async pull(controller) {
              const { done, value } = await reader.read();
              if (done) return controller.close();
              pulled += value.length;
              controller.enqueue(value);
            },
            async cancel(reason) {
              cancelled();
              await reader.cancel(reason);
            },
          });
          return { ...result, body };
        };
        let server!: http.Server;
        await new Promise<void>((resolve) => {
          server = serveApp({ fetch: t.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
        });
        try {
          const { port } = server.address() as AddressInfo;
          await new Promise<void>((resolve, reject) => {
            const req = http.get(
              {
                host: '127.0.0.1',
                port,
                path: `/api/admin/fs/download-zip?path=${q('/m/team/big')}`,
                headers: admin,
              },
              (res) => {
                assert.equal(res.statusCode, 200);
                assert.equal(Number(res.headers['content-length']) > BIG, true);
                res.once('data', () => {
                  req.destroy();
                  resolve();
                });
              },
            );
            req.on('error', (error) => {
              if (!req.destroyed) reject(error);
            });
          });
          const timeout = new Promise((_, reject) =>
            setTimeout(() => reject(new Error(`the storage read went on: ${pulled} bytes`)), 10_000).unref(),
          );
          await Promise.race([wasCancelled, timeout]);
          assert.ok(pulled < BIG / 2, `${pulled} of ${BIG} bytes read`);
          assert.deepEqual(opened, ['/team/big/big.bin']);
        } finally {
          driver.read = read;
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await driver.remove('/team/big', { recursive: true });
        }
      });
    });
  }
}
