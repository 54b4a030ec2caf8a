/**
 * File shares after upload, over HTTP on both databases with the local driver (and a few cases on
 * radosgw): public info, password check, downloads (Range, conditional requests, HEAD, safe
 * headers, direct mode), view counting (exactly N under concurrency, tokens counted once), retiring
 * used-up and expired shares, management with key ownership, and the purge job.
 *
 * Files are seeded by writing the object through the driver and inserting a ready row.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { S3Client } from '@aws-sdk/client-s3';
import type { FilesTable } from '../src/db/schema.ts';
import type { StorageDriver } from '../src/storage/driver.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, s3AdminClient, s3Env, S3_SKIP } from './support/s3.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const ADMIN_PRINCIPAL = { type: 'admin', id: 'seed', username: 'admin' } as const;

interface SeedOptions {
  filename?: string;
  content?: string | Buffer;
  mimetype?: string;
  password?: string;
  max_views?: number;
  expires_at?: string | null;
  use_proxy?: number;
  created_by?: string | null;
  slug?: string;
  status?: 'ready' | 'pending';
  remark?: string | null;
  storage_config_id?: string;
}

/** Writes the object through the driver and inserts the row, as a finished upload leaves them. */
async function seedFile(t: TestApp, options: SeedOptions = {}) {
  const config = options.storage_config_id
    ? (await t.services.storageConfigs.find(options.storage_config_id))!
    : await t.services.storageConfigs.resolveForUpload(ADMIN_PRINCIPAL);
  const driver = await t.services.storageConfigs.driver(config);
  const filename = options.filename ?? 'hello.txt';
  const bytes = Buffer.from(options.content ?? 'hello, file share!');
  const storagePath = `/shares/${randomUUID()}-${filename.replace(/[^\w.-]/g, '_')}`;
  await driver.write(storagePath, new Blob([bytes]).stream(), { size: bytes.length });
  const now = t.clock.now().toISOString();
  const row: FilesTable = {
    id: randomUUID(),
    slug: options.slug ?? `f${randomBytes(5).toString('hex')}`,
    filename,
    storage_config_id: config.id,
    storage_path: storagePath,
    mimetype: options.mimetype ?? 'application/octet-stream',
    size: bytes.length,
    etag: null,
    status: options.status ?? 'ready',
    remark: options.remark ?? null,
    password_hash: options.password ? await hashPassword(options.password) : null,
    expires_at: options.expires_at ?? null,
    max_views: options.max_views ?? 0,
    views: 0,
    use_proxy: options.use_proxy ?? 1,
    keep_object: 0,
    source: 'share',
    created_by: options.created_by === undefined ? 'admin-id' : options.created_by,
    owner_id: null,
    created_at: now,
    updated_at: now,
    revoked_at: null,
  };
  await t.services.files.repo.insert(row);
  return { row, driver, bytes };
}

async function hashPassword(password: string): Promise<string> {
  const { hashPassword: hash } = await import('../src/lib/crypto.ts');
  return hash(password);
}

async function objectExists(driver: StorageDriver, path: string): Promise<boolean> {
  try {
    await driver.stat(path);
    return true;
  } catch {
    return false;
  }
}

const viewsOf = async (t: TestApp, id: string) => (await t.services.files.repo.findById(id))?.views;

for (const dialect of DIALECTS) {
  describe(`file shares (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let adminId: string;
    let owner: { id: string; key: string };
    let stranger: { id: string; key: string };
    let textOnly: { id: string; key: string };
    let ipCounter = 0;
    /** A fresh client address, so the share-password limiter of one test does not touch another. */
    const nextIp = () => `198.51.100.${++ipCounter}`;

    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
      admin = bearer(await t.adminToken());
      adminId = (await t.database.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
      owner = await t.createKey({ name: 'file-owner', file_permission: true });
      stranger = await t.createKey({ name: 'file-stranger', file_permission: true });
      textOnly = await t.createKey({ name: 'text-only', text_permission: true });
    });
    after(() => t.close());

    const info = (slug: string) => t.json(`/api/public/files/${slug}`);
    const verify = (slug: string, password: unknown, ip = '203.0.113.9') =>
      t.json(`/api/public/files/${slug}/verify`, {
        method: 'POST',
        json: { password },
        headers: { 'X-Forwarded-For': ip },
      });
    const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
      t.request(path, { method, headers: { 'X-Forwarded-For': nextIp(), ...headers } });
    /** The status of an answer whose body is not needed (its stream is closed, as a client would). */
    const statusOf = async (pending: Promise<Response>) => {
      const res = await pending;
      await res.body?.cancel();
      return res.status;
    };
    /** The path and query of an absolute URL from an answer. */
    const local = (url: string) => {
      const u = new URL(url);
      return u.pathname + u.search;
    };

    describe('GET /api/public/files/:slug', () => {
      it('answers a plain share with token URLs and counts nothing', async () => {
        const { row } = await seedFile(t, { filename: 'report.pdf', remark: 'q3', max_views: 3 });
        const res = await info(row.slug);
        assert.equal(res.status, 200);
        const data = res.body.data;
        assert.equal(data.id, row.id);
        assert.equal(data.filename, 'report.pdf');
        assert.equal(data.size, row.size);
        assert.equal(data.remark, 'q3');
        assert.equal(data.requires_password, false);
        assert.equal(data.use_proxy, 1);
        assert.equal(data.views, 0);
        assert.equal(data.max_views, 3);
        assert.equal(data.url, `/file/${row.slug}`);
        assert.match(data.previewUrl, new RegExp(`^http://localhost/api/file-view/${row.slug}\\?token=`));
        assert.match(
          data.downloadUrl,
          new RegExp(`^http://localhost/api/file-download/${row.slug}\\?token=`),
        );
        assert.equal(data.proxy_download_url, data.downloadUrl);
        assert.equal(data.storage_path, undefined, 'no storage key');
        assert.equal(await viewsOf(t, row.id), 0);
        // The origin clients used (behind a trusted proxy) is where the links point.
        const proxied = await t.json(`/api/public/files/${row.slug}`, {
          headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'files.example.org' },
        });
        assert.match(proxied.body.data.downloadUrl, /^https:\/\/files\.example\.org\/api\/file-download\//);
      });

      it('hides every URL of a protected share and never reveals the hash', async () => {
        const { row } = await seedFile(t, { password: 'pw-123' });
        const res = await info(row.slug);
        assert.equal(res.status, 200);
        assert.equal(res.body.data.requires_password, true);
        for (const field of ['previewUrl', 'downloadUrl', 'proxy_preview_url', 'proxy_download_url']) {
          assert.equal(res.body.data[field], null, field);
        }
        assert.ok(!JSON.stringify(res.body).includes('argon2'));
      });

      it('answers 404 for an unknown slug and for an unfinished (pending) upload', async () => {
        assert.equal((await info('no-such-share')).status, 404);
        const { row } = await seedFile(t, { status: 'pending' });
        const pending = await info(row.slug);
        assert.equal(pending.status, 404);
        assert.equal(pending.body.error, 'NOT_FOUND');
        assert.equal(pending.body.message, '文件不存在');
        assert.equal(await statusOf(get(`/api/file-download/${row.slug}`)), 404);
      });

      it('answers 410 for an expired share and deletes it with its object', async () => {
        const expires = new Date(t.clock.now().getTime() + 3600_000).toISOString();
        const { row, driver } = await seedFile(t, { expires_at: expires });
        assert.equal((await info(row.slug)).status, 200);
        t.clock.advance(3600_000);
        const res = await info(row.slug);
        assert.equal(res.status, 410);
        assert.equal(res.body.error, 'GONE');
        assert.equal(res.body.message, '文件已过期');
        await t.services.files.settled();
        assert.equal(await t.services.files.repo.findById(row.id), undefined);
        assert.equal(await objectExists(driver, row.storage_path), false);
        assert.equal((await info(row.slug)).status, 404);
        admin = bearer(await t.adminToken());
      });

      it('answers 410 for a used-up share, also once its file is gone', async () => {
        const { row } = await seedFile(t, { max_views: 1 });
        const last = await get(`/api/file-download/${row.slug}`);
        assert.equal(last.status, 200);
        await last.arrayBuffer();
        // The file goes once the last delivery has finished; the record stays to say why.
        const driver = await t.services.storageConfigs.driver(row.storage_config_id);
        for (let i = 0; i < 200; i++) {
          const gone = await driver.stat(row.storage_path).then(
            () => false,
            () => true,
          );
          if (gone) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await assert.rejects(driver.stat(row.storage_path));
        const res = await t.json(`/api/public/files/${row.slug}`, { headers: { 'X-Cubby-Lang': 'en' } });
        assert.equal(res.status, 410);
        assert.match(res.body.message, /maximum number of views/);
      });
    });

    describe('POST /api/public/files/:slug/verify', () => {
      it('gives token URLs for the right password, 401 for a wrong one, 400 without one', async () => {
        const { row, bytes } = await seedFile(t, { password: 'open sesame', content: 'top secret' });
        const wrong = await verify(row.slug, 'guess', nextIp());
        assert.equal(wrong.status, 401);
        assert.equal(wrong.body.message, '密码不正确');
        assert.equal((await verify(row.slug, '', nextIp())).status, 400);
        assert.equal((await verify(row.slug, undefined, nextIp())).status, 400);
        const right = await verify(row.slug, 'open sesame', nextIp());
        assert.equal(right.status, 200);
        assert.equal(right.body.message, '密码验证成功');
        assert.match(right.body.data.downloadUrl, /\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
        assert.ok(!JSON.stringify(right.body).includes('open sesame'));
        assert.equal(await viewsOf(t, row.id), 0, 'verifying counts nothing');
        const download = await get(local(right.body.data.downloadUrl));
        assert.equal(download.status, 200);
        assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);
      });

      it('rate-limits wrong guesses per share and address (429 + Retry-After, even for the right password)', async () => {
        const { row } = await seedFile(t, { password: 'right one' });
        const ip = nextIp();
        for (let i = 0; i < 5; i++) assert.equal((await verify(row.slug, `wrong-${i}`, ip)).status, 401);
        const limited = await verify(row.slug, 'right one', ip);
        assert.equal(limited.status, 429);
        assert.equal(limited.body.error, 'RATE_LIMITED');
        assert.ok(Number(limited.res.headers.get('Retry-After')) > 0);
        // The download route shares the same limiter.
        const byQuery = await get(`/api/file-download/${row.slug}?password=right%20one`, {
          'X-Forwarded-For': ip,
        });
        assert.equal(byQuery.status, 429);
        assert.equal((await verify(row.slug, 'right one', nextIp())).status, 200, 'others still get in');
        t.clock.advance(61_000);
        assert.equal((await verify(row.slug, 'right one', ip)).status, 200);
        admin = bearer(await t.adminToken());
      });

      it('rate-limits wrong guesses per client address across shares (20 a minute)', async () => {
        const ip = nextIp();
        const shares = await Promise.all([1, 2, 3, 4, 5].map(() => seedFile(t, { password: 'pw' })));
        for (let i = 0; i < 20; i++)
          assert.equal((await verify(shares[i % 4]!.row.slug, 'nope', ip)).status, 401);
        assert.equal((await verify(shares[4]!.row.slug, 'pw', ip)).status, 429);
        assert.equal((await verify(shares[4]!.row.slug, 'pw', nextIp())).status, 200);
      });

      it('evaluates exactly 5 of 200 simultaneous guesses from one address; the rest are 429', async () => {
        const { row } = await seedFile(t, { password: 'right one' });
        const ip = nextIp();
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => verify(row.slug, `wrong-${i}`, ip)),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 195);
        for (const a of answers.filter((a) => a.status === 429)) {
          assert.ok(Number(a.res.headers.get('Retry-After')) > 0);
        }
        for (let i = 0; i < 10; i++)
          assert.equal((await verify(row.slug, 'right one', nextIp())).status, 200);
      });

      it('answers a share without a password with its info', async () => {
        const { row } = await seedFile(t);
        const res = await verify(row.slug, 'anything', nextIp());
        assert.equal(res.status, 200);
        assert.equal(res.body.message, '此文件不需要密码');
        assert.match(res.body.data.downloadUrl, /token=/);
      });
    });

    describe('downloads (proxy mode)', () => {
      it('streams the whole file with validators, as an attachment, and counts the view', async () => {
        const { row, bytes } = await seedFile(t, { filename: 'notes.txt', content: 'line one\nline two\n' });
        const res = await get(`/api/file-download/${row.slug}`);
        assert.equal(res.status, 200);
        assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
        assert.equal(res.headers.get('Content-Length'), String(bytes.length));
        assert.equal(res.headers.get('Accept-Ranges'), 'bytes');
        assert.match(res.headers.get('Content-Disposition')!, /^attachment; filename="notes\.txt"/);
        assert.equal(res.headers.get('Content-Type'), 'text/plain');
        assert.match(res.headers.get('ETag')!, /^"/);
        assert.ok(res.headers.get('Last-Modified'));
        assert.equal(res.headers.get('X-Content-Type-Options'), 'nosniff');
        assert.equal(res.headers.get('Cache-Control'), 'private, no-cache');
        assert.equal(await viewsOf(t, row.id), 1);
        const view = await get(`/api/file-view/${row.slug}`);
        assert.match(view.headers.get('Content-Disposition')!, /^inline;/);
        assert.equal(await view.text(), bytes.toString());
        assert.equal(await viewsOf(t, row.id), 2);
      });

      it('serves one Range with 206, a suffix range, and 416 past the end (not counted)', async () => {
        const { row } = await seedFile(t, { content: '0123456789' });
        const part = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=2-5' });
        assert.equal(part.status, 206);
        assert.equal(await part.text(), '2345');
        assert.equal(part.headers.get('Content-Range'), 'bytes 2-5/10');
        assert.equal(part.headers.get('Content-Length'), '4');
        const open = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=7-' });
        assert.equal(await open.text(), '789');
        const suffix = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=-3' });
        assert.equal(suffix.status, 206);
        assert.equal(await suffix.text(), '789');
        assert.equal(suffix.headers.get('Content-Range'), 'bytes 7-9/10');
        const clamped = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=8-100' });
        assert.equal(await clamped.text(), '89');
        assert.equal(await viewsOf(t, row.id), 4, 'each range request without a token counts');
        const past = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=10-' });
        assert.equal(past.status, 416);
        assert.equal(past.headers.get('Content-Range'), 'bytes */10');
        assert.equal((await past.json()).error, 'VALIDATION_FAILED');
        const zero = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=-0' });
        assert.equal(zero.status, 416);
        assert.equal(await viewsOf(t, row.id), 4, '416 counts nothing');
        const multi = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=0-1,4-5' });
        assert.equal(multi.status, 200, 'several ranges: the whole file');
        assert.equal(await multi.text(), '0123456789');
      });

      it('answers 304 to If-None-Match and If-Modified-Since without counting', async () => {
        const { row } = await seedFile(t);
        const first = await get(`/api/file-download/${row.slug}`);
        await first.arrayBuffer();
        const etag = first.headers.get('ETag')!;
        const lastModified = first.headers.get('Last-Modified')!;
        const byTag = await get(`/api/file-download/${row.slug}`, { 'If-None-Match': etag });
        assert.equal(byTag.status, 304);
        assert.equal(await byTag.text(), '');
        assert.equal(byTag.headers.get('ETag'), etag);
        const weak = await get(`/api/file-download/${row.slug}`, { 'If-None-Match': `"x", W/${etag}` });
        assert.equal(weak.status, 304);
        const byDate = await get(`/api/file-download/${row.slug}`, { 'If-Modified-Since': lastModified });
        assert.equal(byDate.status, 304);
        assert.equal(await viewsOf(t, row.id), 1);
        const changed = await get(`/api/file-download/${row.slug}`, { 'If-None-Match': '"other"' });
        assert.equal(changed.status, 200);
        await changed.arrayBuffer();
        const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
        const since = await get(`/api/file-download/${row.slug}`, { 'If-Modified-Since': older });
        assert.equal(since.status, 200);
        await since.arrayBuffer();
        assert.equal(await viewsOf(t, row.id), 3);
      });

      it('honours If-Range: the range while the file is unchanged, else the whole file', async () => {
        const { row } = await seedFile(t, { content: 'abcdefghij' });
        const head = await get(`/api/file-download/${row.slug}`, {}, 'HEAD');
        const etag = head.headers.get('ETag')!;
        const same = await get(`/api/file-download/${row.slug}`, { Range: 'bytes=0-2', 'If-Range': etag });
        assert.equal(same.status, 206);
        assert.equal(await same.text(), 'abc');
        const stale = await get(`/api/file-download/${row.slug}`, {
          Range: 'bytes=0-2',
          'If-Range': '"stale"',
        });
        assert.equal(stale.status, 200);
        assert.equal(await stale.text(), 'abcdefghij');
        const byDate = await get(`/api/file-download/${row.slug}`, {
          Range: 'bytes=3-4',
          'If-Range': head.headers.get('Last-Modified')!,
        });
        assert.equal(byDate.status, 206);
        assert.equal(await byDate.text(), 'de');
      });

      it('answers HEAD with the headers, no body, and no count', async () => {
        const { row, bytes } = await seedFile(t, { filename: 'photo.png', content: 'not really a png' });
        for (const route of ['file-view', 'file-download']) {
          const res = await get(`/api/${route}/${row.slug}`, {}, 'HEAD');
          assert.equal(res.status, 200);
          assert.equal(await res.text(), '');
          assert.equal(res.headers.get('Content-Length'), String(bytes.length));
          assert.equal(res.headers.get('Content-Type'), 'image/png');
          assert.ok(res.headers.get('ETag'));
        }
        assert.equal(await viewsOf(t, row.id), 0);
      });

      it('serves images inline on view, and downloads always as attachments', async () => {
        const { row } = await seedFile(t, { filename: 'cat.JPG' });
        const view = await get(`/api/file-view/${row.slug}`);
        assert.equal(view.headers.get('Content-Type'), 'image/jpeg');
        assert.match(view.headers.get('Content-Disposition')!, /^inline; filename="cat\.JPG"/);
        assert.equal(view.headers.get('Content-Security-Policy'), null);
        await view.arrayBuffer();
        const download = await get(`/api/file-download/${row.slug}`);
        assert.match(download.headers.get('Content-Disposition')!, /^attachment;/);
        await download.arrayBuffer();
        for (const [filename, viewType, viewDisposition] of [
          ['video.mp4', 'video/mp4', 'inline'],
          ['doc.pdf', 'application/pdf', 'inline'],
          ['archive.zip', 'application/zip', 'attachment'],
          ['readme.md', 'text/plain; charset=utf-8', 'inline'],
          ['app.js', 'text/plain; charset=utf-8', 'inline'],
        ] as const) {
          const seeded = await seedFile(t, { filename });
          const res = await get(`/api/file-view/${seeded.row.slug}`, {}, 'HEAD');
          assert.equal(res.headers.get('Content-Type'), viewType, filename);
          assert.match(res.headers.get('Content-Disposition')!, new RegExp(`^${viewDisposition};`), filename);
        }
      });

      it('sandboxes HTML, SVG and XML (by name or declared type) and never renders them', async () => {
        const cases = [
          {
            filename: 'page.html',
            mimetype: 'text/html',
            viewType: 'text/plain; charset=utf-8',
            inline: true,
          },
          {
            filename: 'page.HTM',
            mimetype: 'application/octet-stream',
            viewType: 'text/plain; charset=utf-8',
            inline: true,
          },
          { filename: 'logo.svg', mimetype: 'image/svg+xml', viewType: 'image/svg+xml', inline: false },
          {
            filename: 'feed.xml',
            mimetype: 'application/xml',
            viewType: 'text/plain; charset=utf-8',
            inline: true,
          },
          // Declared as HTML, named without an extension: still sandboxed and shown as text.
          { filename: 'noext', mimetype: 'text/html', viewType: 'text/plain; charset=utf-8', inline: true },
          // A raster image name declared as SVG is not served as a safe image.
          { filename: 'trick.png', mimetype: 'image/svg+xml', viewType: 'image/svg+xml', inline: false },
        ];
        for (const c of cases) {
          const { row } = await seedFile(t, {
            filename: c.filename,
            mimetype: c.mimetype,
            content: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          });
          const view = await get(`/api/file-view/${row.slug}`);
          await view.arrayBuffer();
          assert.match(view.headers.get('Content-Security-Policy')!, /\bsandbox\b/, c.filename);
          assert.equal(view.headers.get('X-Content-Type-Options'), 'nosniff', c.filename);
          assert.equal(view.headers.get('Content-Type'), c.viewType, c.filename);
          assert.match(
            view.headers.get('Content-Disposition')!,
            c.inline ? /^inline;/ : /^attachment;/,
            c.filename,
          );
          const download = await get(`/api/file-download/${row.slug}`);
          await download.arrayBuffer();
          assert.match(download.headers.get('Content-Security-Policy')!, /\bsandbox\b/, c.filename);
          assert.match(download.headers.get('Content-Disposition')!, /^attachment;/, c.filename);
        }
      });

      it('names the file exactly in Content-Disposition: Chinese characters and quotes', async () => {
        const filename = '季度 "报告" 100%.pdf';
        const { row } = await seedFile(t, { filename });
        const res = await get(`/api/file-download/${row.slug}`, {}, 'HEAD');
        const disposition = res.headers.get('Content-Disposition')!;
        assert.match(disposition, /^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
        assert.ok(!/filename="[^"]*"[^;]*"/.test(disposition.split(';')[1]!), 'the quotes are not left raw');
        const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
        assert.equal(decodeURIComponent(encoded), filename);
      });

      it('needs ?token= or ?password= for a protected share: 401 without, 403 wrong', async () => {
        const { row, bytes } = await seedFile(t, { password: 'letmein' });
        const none = await get(`/api/file-download/${row.slug}`);
        assert.equal(none.status, 401);
        assert.equal((await none.json()).message, '需要密码访问此文件');
        const wrong = await get(`/api/file-download/${row.slug}?password=nope`);
        assert.equal(wrong.status, 403);
        assert.equal((await wrong.json()).message, '密码错误');
        const forged = await get(
          `/api/file-download/${row.slug}?token=123.${'a'.repeat(22)}.${'b'.repeat(43)}`,
        );
        assert.equal(forged.status, 403);
        const right = await get(`/api/file-download/${row.slug}?password=letmein`);
        assert.equal(right.status, 200);
        assert.deepEqual(Buffer.from(await right.arrayBuffer()), bytes);
        // A token of another share opens nothing here.
        const otherShare = await seedFile(t);
        const otherUrl = (await info(otherShare.row.slug)).body.data.downloadUrl as string;
        const borrowed = await get(`/api/file-download/${row.slug}?${new URL(otherUrl).searchParams}`);
        assert.equal(borrowed.status, 403);
        // Tokens expire (30 min), and changing the password retires them.
        const verified = await verify(row.slug, 'letmein', nextIp());
        const tokenUrl = local(verified.body.data.downloadUrl);
        t.clock.advance(31 * 60_000);
        const late = await get(tokenUrl);
        assert.equal(late.status, 403);
        assert.match((await late.json()).message, /已过期/);
        admin = bearer(await t.adminToken());
        const fresh = local((await verify(row.slug, 'letmein', nextIp())).body.data.downloadUrl);
        await t.json(`/api/admin/files/${row.id}`, {
          method: 'PUT',
          headers: admin,
          json: { password: 'changed' },
        });
        assert.equal(await statusOf(get(fresh)), 403);
      });

      it('counts forged tokens as wrong guesses, and ignores a bad token on a plain share', async () => {
        const { row } = await seedFile(t, { password: 'pw' });
        const ip = nextIp();
        const forged = `/api/file-download/${row.slug}?token=9999999999.${'a'.repeat(22)}.${'b'.repeat(43)}`;
        const forgeries = await Promise.all(
          Array.from({ length: 40 }, () => statusOf(get(forged, { 'X-Forwarded-For': ip }))),
        );
        assert.equal(forgeries.filter((s) => s === 403).length, 5, forgeries.join(','));
        assert.equal(forgeries.filter((s) => s === 429).length, 35);
        assert.equal(
          await statusOf(get(`/api/file-download/${row.slug}?password=pw`, { 'X-Forwarded-For': ip })),
          429,
        );
        const plain = await seedFile(t, { content: 'open to all' });
        const res = await get(`/api/file-download/${plain.row.slug}?token=garbage`);
        assert.equal(res.status, 200);
        assert.equal(await res.text(), 'open to all');
      });

      it('counts a token once however many Range requests follow', async () => {
        const { row } = await seedFile(t, { content: 'abcdefghijklmnop', max_views: 2 });
        const url = local((await info(row.slug)).body.data.previewUrl);
        for (const range of ['bytes=0-3', 'bytes=4-7', 'bytes=8-', 'bytes=-2']) {
          const res = await get(url, { Range: range });
          assert.equal(res.status, 206, range);
          await res.arrayBuffer();
        }
        const whole = await get(url);
        assert.equal(await whole.text(), 'abcdefghijklmnop');
        assert.equal(await viewsOf(t, row.id), 1);
        // A second reader (another token) takes the last view; its Range requests still work.
        const second = local((await info(row.slug)).body.data.downloadUrl);
        assert.equal(await statusOf(get(second, { Range: 'bytes=0-0' })), 206);
        assert.equal(await viewsOf(t, row.id), 2);
        const seek = await get(second, { Range: 'bytes=5-6' });
        assert.equal(seek.status, 206, 'the counted token still reads the used-up share');
        assert.equal(await seek.text(), 'fg');
        // Everyone else: used up.
        assert.equal(await statusOf(get(`/api/file-download/${row.slug}`)), 410);
        assert.equal((await info(row.slug)).status, 410);
      });
    });

    describe('view limits', () => {
      it('delivers exactly max_views times, then 410, and deletes object and record after the last delivery', async () => {
        const { row, driver, bytes } = await seedFile(t, { content: 'limited', max_views: 2 });
        const first = await get(`/api/file-download/${row.slug}`);
        assert.equal(first.status, 200);
        assert.deepEqual(Buffer.from(await first.arrayBuffer()), bytes);
        // The last allowed view: its object must survive until its body was delivered.
        const last = await get(`/api/file-download/${row.slug}`);
        assert.equal(last.status, 200);
        const refused = await get(`/api/file-download/${row.slug}`);
        assert.equal(refused.status, 410);
        assert.equal((await refused.json()).message, '文件已达到最大查看次数');
        assert.equal(await objectExists(driver, row.storage_path), true, 'not deleted during the delivery');
        assert.deepEqual(Buffer.from(await last.arrayBuffer()), bytes);
        await t.services.files.settled();
        assert.equal(await objectExists(driver, row.storage_path), false);
        assert.equal(await t.services.files.repo.findById(row.id), undefined);
        assert.equal(await statusOf(get(`/api/file-download/${row.slug}`)), 404);
      });

      for (const route of ['file-download', 'file-view'] as const) {
        it(`${route}: 300 concurrent downloads, max_views 7 → exactly 7 deliveries`, async () => {
          const { row, driver } = await seedFile(t, { content: 'race me', max_views: 7 });
          const results = await Promise.all(
            Array.from({ length: 300 }, () =>
              get(`/api/${route}/${row.slug}`).then(async (r) => [r.status, await r.text()] as const),
            ),
          );
          const delivered = results.filter(([status, text]) => status === 200 && text === 'race me');
          assert.equal(delivered.length, 7);
          assert.ok(
            results.every(([status]) => status === 200 || status === 410 || status === 404),
            JSON.stringify([...new Set(results.map(([s]) => s))]),
          );
          await t.services.files.settled();
          assert.equal(await objectExists(driver, row.storage_path), false);
        });
      }

      it('300 concurrent token readers, max_views 5 → exactly 5 tokens get the bytes', async () => {
        const { row } = await seedFile(t, { content: 'token race', max_views: 5 });
        const urls = await Promise.all(
          Array.from({ length: 300 }, async () => local((await info(row.slug)).body.data.downloadUrl)),
        );
        const results = await Promise.all(
          urls.map((url) => get(url).then(async (r) => [r.status, await r.text()] as const)),
        );
        assert.equal(results.filter(([status, text]) => status === 200 && text === 'token race').length, 5);
        assert.equal(await viewsOf(t, row.id), 5);
      });
    });

    describe('direct mode (use_proxy = 0)', () => {
      it('redirects to a short-lived presigned URL that really downloads, counted once', async () => {
        const filename = '直链 "文件".txt';
        const { row, bytes } = await seedFile(t, {
          filename,
          content: 'direct bytes',
          use_proxy: 0,
          max_views: 3,
        });
        const shareInfo = await info(row.slug);
        assert.equal(shareInfo.body.data.use_proxy, 0);
        const res = await get(local(shareInfo.body.data.downloadUrl));
        assert.equal(res.status, 302);
        const location = new URL(res.headers.get('Location')!);
        assert.equal(location.origin, 'http://localhost', 'the local URL is moved onto the client origin');
        assert.ok(Number(location.searchParams.get('exp')) * 1000 - t.clock.now().getTime() <= 300_000);
        assert.equal(await viewsOf(t, row.id), 1);
        const fetched = await t.request(location.pathname + location.search);
        assert.equal(fetched.status, 200);
        assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), bytes);
        const disposition = fetched.headers.get('Content-Disposition')!;
        assert.match(disposition, /^attachment;/);
        assert.equal(decodeURIComponent(/UTF-8''(.+)$/.exec(disposition)![1]!), filename);
        const view = await get(`/api/file-view/${row.slug}`);
        assert.equal(view.status, 302);
        assert.equal(new URL(view.headers.get('Location')!).searchParams.get('disp'), 'inline');
        assert.equal(await viewsOf(t, row.id), 2);
        const head = await get(`/api/file-download/${row.slug}`, {}, 'HEAD');
        assert.equal(head.status, 200, 'HEAD answers the headers, without a redirect or a count');
        assert.equal(await viewsOf(t, row.id), 2);
      });

      it('keeps a used-up share until its last presigned URL expired, then the purge deletes it', async () => {
        const { row, driver } = await seedFile(t, { use_proxy: 0, max_views: 1 });
        const res = await get(`/api/file-download/${row.slug}`);
        assert.equal(res.status, 302);
        assert.equal(await statusOf(get(`/api/file-download/${row.slug}`)), 410);
        await t.services.files.settled();
        assert.equal(
          await objectExists(driver, row.storage_path),
          true,
          'the redirect may still be downloading',
        );
        const location = new URL(res.headers.get('Location')!);
        const again = await t.request(location.pathname + location.search);
        assert.equal(again.status, 200);
        await again.arrayBuffer();
        t.clock.advance(301_000);
        assert.ok((await t.services.files.purge()) >= 1);
        assert.equal(await objectExists(driver, row.storage_path), false);
        assert.equal(await t.services.files.repo.findById(row.id), undefined);
        admin = bearer(await t.adminToken());
      });
    });

    describe('management', () => {
      let mine: FilesTable;
      let theirs: FilesTable;
      before(async () => {
        mine = (
          await seedFile(t, {
            filename: 'Quarterly-Report.pdf',
            created_by: `apikey:${owner.id}`,
            remark: 'for finance',
          })
        ).row;
        theirs = (await seedFile(t, { filename: 'holiday.jpg', created_by: `apikey:${stranger.id}` })).row;
      });

      it('lists every share for the admin with search and pagination', async () => {
        const res = await t.json('/api/admin/files?limit=2&offset=0', { headers: admin });
        assert.equal(res.status, 200);
        assert.equal(res.body.data.files.length, 2);
        assert.equal(res.body.data.pagination.limit, 2);
        assert.ok(res.body.data.pagination.total > 2);
        const found = await t.json('/api/admin/files?search=quarterly', { headers: admin });
        assert.deepEqual(
          found.body.data.files.map((f: { id: string }) => f.id),
          [mine.id],
        );
        const item = found.body.data.files[0];
        assert.equal(item.key_name, 'file-owner');
        assert.equal(item.has_password, false);
        assert.equal(item.s3_config_name, 'Local storage');
        assert.equal(item.s3_provider_type, 'Local');
        assert.equal(item.storage_path, mine.storage_path);
        assert.equal(item.keeps_file, false, 'deleting an uploaded share deletes its file');
        assert.equal(item.status, 'active');
        assert.equal(item.password_hash, undefined);
        const byRemark = await t.json('/api/admin/files?search=FINANCE', { headers: admin });
        assert.equal(byRemark.body.data.files.length, 1);
        const bySlug = await t.json(`/api/admin/files?search=${theirs.slug}`, { headers: admin });
        assert.equal(bySlug.body.data.files[0].id, theirs.id);
        const wildcard = await t.json('/api/admin/files?search=Q%25y', { headers: admin });
        assert.equal(wildcard.body.data.files.length, 0, 'LIKE wildcards are matched literally');
        assert.equal((await t.json('/api/admin/files', { headers: apiKey(owner.key) })).status, 403);
      });

      it('shows a key only its own shares; others are 404', async () => {
        const list = await t.json('/api/user/files', { headers: apiKey(owner.key) });
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.data.files.map((f: { id: string }) => f.id),
          [mine.id],
        );
        assert.equal(
          (await t.json(`/api/user/files/${mine.id}`, { headers: apiKey(owner.key) })).status,
          200,
        );
        const foreign = await t.json(`/api/user/files/${theirs.id}`, { headers: apiKey(owner.key) });
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.message, '文件不存在或无权访问');
        const put = await t.json(`/api/user/files/${theirs.id}`, {
          method: 'PUT',
          headers: apiKey(owner.key),
          json: { remark: 'mine now' },
        });
        assert.equal(put.status, 404);
        const del = await t.json(`/api/user/files/${theirs.id}`, {
          method: 'DELETE',
          headers: apiKey(owner.key),
        });
        assert.equal(del.status, 404);
        assert.ok(await t.services.files.repo.findById(theirs.id));
        assert.equal((await t.json('/api/user/files', { headers: apiKey(textOnly.key) })).status, 403);
        assert.equal((await t.json('/api/user/files')).status, 401);
      });

      it('answers the detail with token URLs', async () => {
        const res = await t.json(`/api/admin/files/${mine.id}`, { headers: admin });
        assert.equal(res.status, 200);
        assert.equal(res.body.data.id, mine.id);
        assert.match(res.body.data.urls.downloadUrl, /\/api\/file-download\/.+\?token=/);
        assert.equal(res.body.data.urls.use_proxy, 1);
        assert.equal((await t.json(`/api/admin/files/${randomUUID()}`, { headers: admin })).status, 404);
      });

      it('updates remark, slug, expiry, view limit, password and access mode', async () => {
        const { row } = await seedFile(t, { created_by: `apikey:${owner.id}`, max_views: 10 });
        await t.services.files.repo.update(row.id, { views: 4 });
        const put = (json: unknown, headers = apiKey(owner.key)) =>
          t.json(`/api/user/files/${row.id}`, { method: 'PUT', headers, json });
        const expiresAt = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
        const res = await put({
          remark: 'new remark',
          slug: 'renamed-share',
          expires_at: expiresAt,
          max_views: 20,
          password: 'pw-new',
          use_proxy: 0,
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.message, '文件元数据更新成功');
        const data = res.body.data;
        assert.equal(data.remark, 'new remark');
        assert.equal(data.slug, 'renamed-share');
        assert.equal(data.expires_at, expiresAt);
        assert.equal(data.max_views, 20);
        assert.equal(data.views, 4, 'a higher limit keeps the views counted so far');
        assert.equal(data.has_password, true);
        assert.equal(data.use_proxy, 0);
        assert.equal((await info('renamed-share')).body.data.requires_password, true);
        // A protected share streams from here, never from a presigned URL (docs/storage.md, "Download links").
        assert.equal(await statusOf(get('/api/file-download/renamed-share?password=pw-new')), 200);
        // A limit the share has already reached starts the count again.
        const lower = await put({ max_views: 3 });
        assert.equal(lower.body.data.views, 0);
        const cleared = await put({ password: '', expires_at: null, use_proxy: true, max_views: 0 });
        assert.equal(cleared.body.data.has_password, false);
        assert.equal(cleared.body.data.expires_at, null);
        assert.equal(cleared.body.data.use_proxy, 1);
        assert.equal((await put({ password: null })).body.data.has_password, false);
        // Slug rules and conflicts.
        const taken = await put({ slug: theirs.slug });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.message, '此链接后缀已被其他文件使用');
        assert.equal((await put({ slug: 'bad slug' })).status, 400);
        assert.equal((await put({ slug: 'admin' })).status, 400);
        assert.equal((await put({ expires_at: '2000-01-01T00:00:00Z' })).status, 400);
        assert.equal((await put({ max_views: -1 })).status, 400);
        const hours = await put({ expires_in: 2 });
        assert.equal(
          hours.body.data.expires_at,
          new Date(t.clock.now().getTime() + 2 * 3600_000).toISOString(),
        );
        const random = await put({ slug: '' });
        assert.match(random.body.data.slug, /^[A-Za-z0-9]{6,}$/);
      });

      it('deletes a share with its object; batch delete keeps to the key’s own', async () => {
        const one = await seedFile(t, { created_by: `apikey:${owner.id}` });
        const del = await t.json(`/api/user/files/${one.row.id}`, {
          method: 'DELETE',
          headers: apiKey(owner.key),
        });
        assert.equal(del.status, 200);
        assert.equal(del.body.data.object_deleted, true);
        assert.equal(await objectExists(one.driver, one.row.storage_path), false);
        assert.equal(await t.services.files.repo.findById(one.row.id), undefined);

        const a = await seedFile(t, { created_by: `apikey:${owner.id}` });
        const b = await seedFile(t, { created_by: `apikey:${owner.id}` });
        const foreign = await seedFile(t, { created_by: `apikey:${stranger.id}` });
        const batch = await t.json('/api/user/files/batch-delete', {
          method: 'POST',
          headers: apiKey(owner.key),
          json: { ids: [a.row.id, b.row.id, foreign.row.id, 'unknown'] },
        });
        assert.equal(batch.status, 200);
        assert.equal(batch.body.data.count, 2);
        assert.ok(await t.services.files.repo.findById(foreign.row.id));
        assert.equal(await objectExists(foreign.driver, foreign.row.storage_path), true);
        assert.equal(await objectExists(a.driver, a.row.storage_path), false);
        const byAdmin = await t.json('/api/admin/files/batch-delete', {
          method: 'POST',
          headers: admin,
          json: { ids: [foreign.row.id] },
        });
        assert.equal(byAdmin.body.data.count, 1);
        assert.equal(await objectExists(foreign.driver, foreign.row.storage_path), false);
        const empty = await t.json('/api/admin/files/batch-delete', {
          method: 'POST',
          headers: admin,
          json: { ids: [] },
        });
        assert.equal(empty.status, 400);
      });

      it('deletes the record even when the object cannot be deleted, and says so', async () => {
        const { row, driver } = await seedFile(t, { created_by: adminId });
        await driver.remove(row.storage_path);
        await driver.mkdir(row.storage_path);
        await driver.write(`${row.storage_path}/inside.txt`, new Blob(['x']).stream(), { size: 1 });
        const res = await t.json(`/api/admin/files/${row.id}`, { method: 'DELETE', headers: admin });
        assert.equal(res.status, 200);
        assert.equal(res.body.data.object_deleted, false);
        assert.match(res.body.message, /存储中的文件失败/);
        assert.equal(await t.services.files.repo.findById(row.id), undefined);
        assert.ok(t.logLines.some((line) => line.includes('deleting a file share object failed')));
        await driver.remove(row.storage_path, { recursive: true });
      });
    });

    describe('purge job', () => {
      it('deletes expired and used-up shares with their objects once the clock moved on', async () => {
        const soon = new Date(t.clock.now().getTime() + 3600_000).toISOString();
        const expiring = await seedFile(t, { expires_at: soon });
        const usedUp = await seedFile(t, { max_views: 1 });
        const tokenUsedUp = await seedFile(t, { max_views: 1 });
        const keeper = await seedFile(t, { max_views: 5 });
        const pending = await seedFile(t, { status: 'pending', expires_at: soon });
        await t.services.files.repo.update(usedUp.row.id, { views: 1 });
        const tokenUrl = local((await info(tokenUsedUp.row.slug)).body.data.downloadUrl);
        assert.equal((await (await get(tokenUrl)).text()).length, tokenUsedUp.bytes.length);

        await t.services.files.purge();
        assert.equal(await t.services.files.repo.findById(usedUp.row.id), undefined);
        assert.equal(await objectExists(usedUp.driver, usedUp.row.storage_path), false);
        assert.ok(await t.services.files.repo.findById(expiring.row.id), 'not expired yet');
        assert.ok(await t.services.files.repo.findById(tokenUsedUp.row.id), 'its token may still be reading');
        assert.equal(await statusOf(get(tokenUrl, { Range: 'bytes=0-1' })), 206);

        t.clock.advance(3600_000);
        assert.ok((await t.services.files.purge()) >= 2);
        for (const gone of [expiring, tokenUsedUp]) {
          assert.equal(await t.services.files.repo.findById(gone.row.id), undefined);
          assert.equal(await objectExists(gone.driver, gone.row.storage_path), false);
        }
        assert.ok(await t.services.files.repo.findById(keeper.row.id));
        assert.ok(
          await t.services.files.repo.findById(pending.row.id),
          'pending uploads belong to the upload job',
        );
        const leftTokens = await t.database.db.kysely
          .selectFrom('file_view_tokens')
          .select('nonce')
          .where('expires_at', '<=', t.clock.now().toISOString())
          .execute();
        assert.equal(leftTokens.length, 0, 'expired grants are removed');
        admin = bearer(await t.adminToken());
      });
    });
  });
}

describe('file shares on S3 (radosgw)', { skip: S3_SKIP }, () => {
  let t: TestApp;
  let s3: S3Client;
  let bucket: string;
  let configId: string;

  before(async () => {
    s3 = s3AdminClient();
    bucket = await createBucket(s3, 'cubby-files');
    t = await createTestApp('sqlite', { TRUST_PROXY: '1' });
    // S3 checks presigned URLs against its own clock.
    t.clock.followRealTime();
    configId = await insertS3Config(t, bucket, { defaultFolder: 'shares' });
  });
  after(async () => {
    await t.close();
    await deleteBucket(s3, bucket);
    s3.destroy();
  });

  it('streams ranges and answers conditional requests from S3', async () => {
    const { row, bytes } = await seedFile(t, { storage_config_id: configId, content: 'S3 bytes 0123456789' });
    const whole = await t.request(`/api/file-download/${row.slug}`);
    assert.equal(whole.status, 200);
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), bytes);
    const part = await t.request(`/api/file-download/${row.slug}`, { headers: { Range: 'bytes=3-7' } });
    assert.equal(part.status, 206);
    assert.equal(await part.text(), 'bytes');
    assert.equal(part.headers.get('Content-Range'), `bytes 3-7/${bytes.length}`);
    const suffix = await t.request(`/api/file-download/${row.slug}`, { headers: { Range: 'bytes=-4' } });
    assert.equal(await suffix.text(), '6789');
    const past = await t.request(`/api/file-download/${row.slug}`, { headers: { Range: 'bytes=500-' } });
    assert.equal(past.status, 416);
    const cached = await t.request(`/api/file-download/${row.slug}`, {
      headers: { 'If-None-Match': whole.headers.get('ETag')! },
    });
    assert.equal(cached.status, 304);
    assert.equal(await viewsOf(t, row.id), 3);
  });

  it('redirects direct downloads to a presigned S3 URL that really downloads', async () => {
    const filename = '报告 "final".txt';
    const { row, bytes } = await seedFile(t, {
      storage_config_id: configId,
      filename,
      content: 'straight from the bucket',
      use_proxy: 0,
    });
    const res = await t.request(`/api/file-download/${row.slug}`);
    assert.equal(res.status, 302);
    const location = res.headers.get('Location')!;
    assert.ok(location.startsWith(s3Env.endpoint!), location);
    assert.ok(Number(new URL(location).searchParams.get('X-Amz-Expires')) <= 300);
    const fetched = await fetch(location);
    assert.equal(fetched.status, 200);
    assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), bytes);
    assert.equal(
      decodeURIComponent(/UTF-8''(.+)$/.exec(fetched.headers.get('Content-Disposition')!)![1]!),
      filename,
    );
    assert.equal(await viewsOf(t, row.id), 1);
  });

  it('deletes the S3 object with the share, and after the last allowed view', async () => {
    const { row, driver } = await seedFile(t, { storage_config_id: configId, max_views: 1 });
    assert.equal((await (await t.request(`/api/file-download/${row.slug}`)).text()).length, row.size);
    await t.services.files.settled();
    assert.equal(await objectExists(driver, row.storage_path), false);
    const other = await seedFile(t, { storage_config_id: configId });
    const token = await t.adminToken();
    const del = await t.json(`/api/admin/files/${other.row.id}`, {
      method: 'DELETE',
      headers: bearer(token),
    });
    assert.equal(del.body.data.object_deleted, true);
    assert.equal(await objectExists(other.driver, other.row.storage_path), false);
  });
});
