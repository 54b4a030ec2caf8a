/**
 * File-share uploads over HTTP, on SQLite and PostgreSQL with local storage (and, when S3_* is set,
 * on radosgw): the streamed form upload, presign + plain-fetch PUT + commit, multipart with its
 * ledger (resume, abort, complete), URL uploads, the size limit, quota, ownership, key base paths,
 * slugs and the orphan job. Presigned URLs are used exactly as a browser would: the app is served
 * on a real port and PUBLIC_URL points at it.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { FilesTable } from '../src/db/schema.ts';
import { serveApp } from '../src/http/node-server.ts';
import type { StorageDriver } from '../src/storage/driver.ts';
import {
  droppedStream,
  endlessStream,
  generatedHash,
  generatedStream,
  hashStream,
  readAll,
  streamOf,
} from './storage/contract.ts';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, insertS3Config, s3AdminClient, s3Env, S3_SKIP } from './support/s3.ts';
import { freePort } from './support/server-process.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const MiB = 1024 * 1024;
const HOUR = 3600_000;

type Headers = Record<string, string>;

/** An app on a real port (PUBLIC_URL), served as main.ts serves it, so presigned URLs work with plain fetch. */
async function servedApp(dialect: (typeof DIALECTS)[number]) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp(dialect, { PUBLIC_URL: origin });
  let server!: Server;
  await new Promise<void>((resolve) => {
    server = serveApp({ hostname: '127.0.0.1', port, fetch: t.fetch }, () => resolve());
  });
  assert.equal((server.address() as AddressInfo).port, port);
  return {
    t,
    origin,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/** A PUT as a browser sends it to a presigned URL. */
const putTo = (url: string, body: Uint8Array, headers: Headers = {}) =>
  fetch(url, { method: 'PUT', body: body as Uint8Array<ArrayBuffer>, headers });

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** `{hash, size}` of a stream, for comparing stored bytes with sent ones. */
async function hashOf(body: ReadableStream<Uint8Array>): Promise<{ hash: string; size: number }> {
  const { sha256: hash, bytes } = await hashStream(body);
  return { hash, size: bytes };
}

type FormPart = { name: string; value: string } | { file: string; body: ReadableStream<Uint8Array> };

/**
 * A multipart/form-data body built by hand and streamed, in the order given (so a test can put
 * fields after the file, and send files too large to hold).
 */
function formStream(parts: FormPart[]): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----cubby${randomBytes(8).toString('hex')}`;
  const enc = new TextEncoder();
  async function* generate() {
    for (const part of parts) {
      if ('value' in part) {
        yield enc.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        );
      } else {
        yield enc.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${part.file.replaceAll('"', '%22')}"\r\n` +
            'Content-Type: text/html\r\n\r\n',
        );
        yield* part.body as unknown as AsyncIterable<Uint8Array>;
        yield enc.encode('\r\n');
      }
    }
    yield enc.encode(`--${boundary}--\r\n`);
  }
  const pieces = generate();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Deterministic bytes (`generatedStream` of the driver contract), whole. */
const bytesOf = (size: number, seed: string): Promise<Buffer> => readAll(generatedStream(size, seed));

for (const dialect of DIALECTS) {
  describe(`uploads (${dialect})`, () => {
    let app: Awaited<ReturnType<typeof servedApp>>;
    let t: TestApp;
    let admin: Headers;
    let writer: { id: string; key: string };
    let other: { id: string; key: string };
    let team: { id: string; key: string };
    let textOnly: { id: string; key: string };
    let storageRoot: string;
    let defaultConfigId: string;

    before(async () => {
      app = await servedApp(dialect);
      t = app.t;
      admin = bearer(await t.adminToken());
      writer = await t.createKey({ name: 'writer', file_permission: true });
      other = await t.createKey({ name: 'other', file_permission: true });
      team = await t.createKey({ name: 'team', file_permission: true, basic_path: '/team' });
      textOnly = await t.createKey({ name: 'text-only', text_permission: true });
      const config = await t.services.storageConfigs.repo.findDefault();
      defaultConfigId = config!.id;
      storageRoot = JSON.parse(config!.settings).root_path;
    });
    after(() => app.close());

    const row = (id: string): Promise<FilesTable | undefined> =>
      t.database.db.kysely.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    const rowCount = async () =>
      Number(
        (
          await t.database.db.kysely
            .selectFrom('files')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const driver = (): Promise<StorageDriver> => t.services.storageConfigs.driver(defaultConfigId);
    const readBack = async (path: string) => hashOf((await (await driver()).read(path)).body);
    /** Every regular file under the storage folder, the driver's hidden ones included. */
    const storedFiles = async (): Promise<string[]> => {
      const entries = await fs.readdir(storageRoot, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isFile()).map((e) => nodePath.join(e.parentPath, e.name));
    };
    const setMaxUpload = async (value: number, unit: 'KB' | 'MB') => {
      const res = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { max_upload_size: value, max_upload_size_unit: unit },
      });
      assert.equal(res.status, 200);
    };
    const setQuota = async (bytes: number | null) => {
      await t.services.storageConfigs.repo.update(defaultConfigId, {
        total_storage_bytes: bytes,
        updated_at: new Date(Date.now() + Math.random()).toISOString(),
      });
    };

    const upload = (form: FormData, headers: Headers = admin) =>
      t.json('/api/upload', { method: 'POST', headers, body: form });
    const uploadStream = (parts: FormPart[], headers: Headers = admin, extra: Headers = {}) => {
      const { body, contentType } = formStream(parts);
      return t.json('/api/upload', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': contentType, ...extra },
        body,
        duplex: 'half',
      } as RequestInit);
    };
    const post = (path: string, json: unknown, headers: Headers = admin) =>
      t.json(path, { method: 'POST', headers, json });

    describe('POST /api/upload (form, streamed)', () => {
      it('stores the file and answers the share, with the share fields applied', async () => {
        const content = new TextEncoder().encode('hello, cubby\n');
        const form = new FormData();
        form.append('slug', 'hello-form');
        form.append('remark', 'first upload');
        form.append('password', 'open sesame');
        form.append('expires_in', '2');
        form.append('max_views', '3');
        form.append('use_proxy', '0');
        form.append('mimetype', 'text/html');
        form.append('file', new Blob([content], { type: 'text/html' }), 'notes.txt');
        const res = await upload(form);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const share = res.body.data;
        assert.equal(share.slug, 'hello-form');
        assert.equal(share.filename, 'notes.txt');
        assert.equal(share.mimetype, 'text/plain', 'from the name, never from the client');
        assert.equal(share.size, content.length);
        assert.equal(share.remark, 'first upload');
        assert.equal(share.requires_password, true);
        assert.equal(share.max_views, 3);
        assert.equal(share.use_proxy, 0);
        assert.equal(share.expires_at, new Date(t.clock.now().getTime() + 2 * HOUR).toISOString());
        assert.equal(share.url, '/file/hello-form');
        assert.equal(share.downloadUrl, `${app.origin}/api/file-download/hello-form`);
        const stored = (await row(share.id))!;
        assert.equal(stored.status, 'ready');
        assert.match(stored.password_hash!, /^\$argon2id\$/);
        assert.ok(!JSON.stringify(res.body).includes('open sesame'));
        assert.match(stored.storage_path, /^\/2026\/01\/[a-z0-9]{12}-notes\.txt$/);
        assert.deepEqual(await readBack(stored.storage_path), {
          hash: sha256(content),
          size: content.length,
        });
        assert.equal(
          stored.created_by,
          (await t.services.auth.resolveSession(admin.Authorization!.slice(7)))!.id,
        );
      });

      it('streams a 20 MiB body to storage byte for byte', async () => {
        const size = 20 * MiB + 123;
        const res = await uploadStream([
          { name: 'remark', value: 'big' },
          { file: 'big.bin', body: generatedStream(size, 'big') },
        ]);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.size, size);
        assert.equal(res.body.data.mimetype, 'application/octet-stream');
        const stored = (await row(res.body.data.id))!;
        assert.equal(stored.size, size);
        assert.deepEqual(await readBack(stored.storage_path), { hash: generatedHash(size, 'big'), size });
      });

      it('keeps Unicode names readable and builds a safe key from any name', async () => {
        const res = await uploadStream([
          { file: '季度报告 "终版"?.pdf', body: streamOf(Buffer.from('%PDF')) },
        ]);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(
          res.body.data.filename,
          '季度报告 "终版"?.pdf',
          'the name as the user gave it (browsers send " as %22)',
        );
        assert.equal(res.body.data.mimetype, 'application/pdf');
        const key = (await row(res.body.data.id))!.storage_path;
        assert.match(key, /^\/2026\/01\/[a-z0-9]{12}-季度报告 _终版__\.pdf$/);

        const sneaky = await uploadStream([
          { file: '../../.cubby-tmp-x/..\\evil\t.sh', body: streamOf(Buffer.from('x')) },
        ]);
        assert.equal(sneaky.status, 200, JSON.stringify(sneaky.body));
        assert.equal(sneaky.body.data.filename, 'evil.sh');
        assert.match((await row(sneaky.body.data.id))!.storage_path, /^\/2026\/01\/[a-z0-9]{12}-evil\.sh$/);

        const long = 'ü'.repeat(300) + '.txt';
        const capped = await uploadStream([{ file: long, body: streamOf(Buffer.from('x')) }]);
        assert.equal(capped.status, 200);
        const name = nodePath.basename((await row(capped.body.data.id))!.storage_path);
        assert.ok(Buffer.byteLength(name) <= 200, `${Buffer.byteLength(name)} bytes`);
        assert.ok(name.endsWith('.txt'));
      });

      it('applies share fields sent after the file, and refuses placement fields sent after it', async () => {
        const late = await uploadStream([
          { file: 'late.txt', body: streamOf(Buffer.from('late fields')) },
          { name: 'slug', value: 'late-slug' },
          { name: 'remark', value: 'came after' },
          { name: 'password', value: 'pw' },
          { name: 'max_views', value: '5' },
        ]);
        assert.equal(late.status, 200, JSON.stringify(late.body));
        assert.equal(late.body.data.slug, 'late-slug');
        assert.equal(late.body.data.remark, 'came after');
        assert.equal(late.body.data.requires_password, true);
        assert.equal(late.body.data.max_views, 5);

        const files = await storedFiles();
        const rows = await rowCount();
        const placed = await uploadStream([
          { file: 'placed.txt', body: streamOf(Buffer.from('placement after the file')) },
          { name: 'path', value: '/elsewhere' },
        ]);
        assert.equal(placed.status, 400);
        assert.match(placed.body.message, /path/);
        assert.equal(await rowCount(), rows, 'no record kept');
        assert.deepEqual(await storedFiles(), files, 'no bytes kept');

        const taken = await uploadStream([
          { file: 'dup.txt', body: streamOf(Buffer.from('dup')) },
          { name: 'slug', value: 'late-slug' },
        ]);
        assert.equal(taken.status, 409);
        assert.equal(await rowCount(), rows);
        assert.deepEqual(await storedFiles(), files);
      });

      it('refuses bodies over the upload limit with 413 and keeps nothing', async () => {
        await setMaxUpload(1, 'MB');
        try {
          const files = await storedFiles();
          const rows = await rowCount();
          // Declared too large: refused before a byte is read.
          const { body, pulled } = endlessStream();
          const declared = await t.json('/api/upload', {
            method: 'POST',
            headers: {
              ...admin,
              'Content-Type': 'multipart/form-data; boundary=x',
              'Content-Length': String(50 * MiB),
            },
            body,
            duplex: 'half',
          } as RequestInit);
          assert.equal(declared.status, 413);
          assert.equal(declared.body.error, 'PAYLOAD_TOO_LARGE');
          assert.ok(pulled() <= 1, `read ${pulled()} chunks of the body`);
          await body.cancel().catch(() => undefined);

          // No length given: cut off while streaming.
          const streamed = await uploadStream([{ file: 'huge.bin', body: generatedStream(3 * MiB, 'x') }]);
          assert.equal(streamed.status, 413);
          assert.equal(streamed.body.error, 'PAYLOAD_TOO_LARGE');
          assert.match(streamed.body.message, /1 MB/);
          assert.equal(await rowCount(), rows);
          assert.deepEqual(await storedFiles(), files);

          // Just under the limit still goes through.
          const fits = await uploadStream([{ file: 'fits.bin', body: generatedStream(MiB - 10, 'x') }]);
          assert.equal(fits.status, 200);
        } finally {
          await setMaxUpload(100, 'MB');
        }
      });

      it('answers 507 with the numbers when the quota is used up', async () => {
        await setQuota(1); // anything already stored exceeds it
        const used = await t.services.storageConfigs.repo.usedBytes(defaultConfigId);
        await setQuota(used + 1000);
        try {
          const rows = await rowCount();
          const files = await storedFiles();
          const res = await uploadStream([{ file: 'full.bin', body: generatedStream(5000, 'x') }]);
          assert.equal(res.status, 507);
          assert.equal(res.body.error, 'STORAGE_FULL');
          assert.deepEqual([res.body.data.free_bytes, res.body.data.total_bytes], [1000, used + 1000]);
          assert.ok(res.body.data.file_size > 1000, 'at least what arrived before the cut');
          assert.equal(await rowCount(), rows);
          assert.deepEqual(await storedFiles(), files);

          const fits = await uploadStream([{ file: 'fits.bin', body: generatedStream(600, 'x') }]);
          assert.equal(fits.status, 200);
          const presign = await post('/api/s3/presign', { filename: 'b.bin', size: 500 });
          assert.equal(presign.status, 507);
          assert.deepEqual(presign.body.data, { file_size: 500, free_bytes: 400, total_bytes: used + 1000 });
          assert.match(presign.body.message, /存储空间不足/);
        } finally {
          await setQuota(null);
        }
      });

      it('never lets parallel uploads overrun the quota together', async () => {
        const used = await t.services.storageConfigs.repo.usedBytes(defaultConfigId);
        await setQuota(used + 1000);
        try {
          const results = await Promise.all(
            Array.from({ length: 8 }, (_, i) =>
              post('/api/s3/presign', { filename: `p${i}.bin`, size: 400 }),
            ),
          );
          const accepted = results.filter((r) => r.status === 200).length;
          assert.ok(
            results.every((r) => r.status === 200 || r.status === 507),
            JSON.stringify(results.map((r) => r.status)),
          );
          assert.equal(accepted, 2, 'judged one after the other: two fit');
          assert.ok((await t.services.storageConfigs.repo.usedBytes(defaultConfigId)) <= used + 1000);
        } finally {
          await setQuota(null);
        }
      });

      it('needs the file permission and a file part', async () => {
        const form = new FormData();
        form.append('file', new Blob(['x']), 'x.txt');
        assert.equal((await t.json('/api/upload', { method: 'POST', body: form })).status, 401);
        assert.equal((await upload(form, apiKey(textOnly.key))).status, 403);
        const empty = new FormData();
        empty.append('remark', 'no file');
        const none = await upload(empty);
        assert.equal(none.status, 400);
        const notForm = await t.json('/api/upload', { method: 'POST', headers: admin, json: { a: 1 } });
        assert.equal(notForm.status, 400);
      });
    });

    describe('PUT /api/upload-direct/:filename (raw body)', () => {
      const direct = (
        name: string,
        body: BodyInit | null,
        query: Record<string, string> = {},
        headers: Headers = admin,
      ) =>
        t.json(`/api/upload-direct/${name}?${new URLSearchParams(query)}`, {
          method: 'PUT',
          headers,
          body,
          duplex: 'half',
        } as RequestInit);

      it('streams the body to storage and answers the share, with the query as share fields', async () => {
        const content = Buffer.from('%PDF-1.7 quarterly report');
        const res = await direct('%E5%AD%A3%E5%BA%A6%20report.pdf', content, {
          slug: 'direct-one',
          remark: 'by curl',
          password: 'open sesame',
          expires_in: '2',
          max_views: '3',
          use_proxy: '0',
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.message, '文件上传成功');
        const share = res.body.data;
        assert.equal(share.slug, 'direct-one');
        assert.equal(share.filename, '季度 report.pdf', 'the name from the URL, decoded once');
        assert.equal(share.mimetype, 'application/pdf', 'from the name, not the Content-Type');
        assert.equal(share.size, content.length);
        assert.equal(share.remark, 'by curl');
        assert.equal(share.requires_password, true);
        assert.equal(share.max_views, 3);
        assert.equal(share.use_proxy, 0);
        assert.equal(share.expires_at, new Date(t.clock.now().getTime() + 2 * HOUR).toISOString());
        assert.equal(share.downloadUrl, `${app.origin}/api/file-download/direct-one`);
        assert.equal(share.used_original_filename, false);
        const stored = (await row(share.id))!;
        assert.equal(stored.status, 'ready');
        assert.match(stored.storage_path, /^\/2026\/01\/[a-z0-9]{12}-季度 report\.pdf$/);
        assert.deepEqual(await readBack(stored.storage_path), {
          hash: sha256(content),
          size: content.length,
        });
        assert.ok(!JSON.stringify(res.body).includes('open sesame'));

        const once = await direct('100%2541.txt', Buffer.from('x'));
        assert.equal(once.body.data.filename, '100%41.txt', 'never decoded twice');
        const broken = await direct('bad%E0%A4.txt', Buffer.from('x'));
        assert.equal(broken.status, 400);
      });

      it('takes a chunked body of unknown length, 20 MiB byte for byte', async () => {
        const size = 20 * MiB + 7;
        const res = await direct(
          'big.bin',
          generatedStream(size, 'direct-big'),
          {},
          {
            ...admin,
            'Content-Type': 'text/html',
          },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.mimetype, 'application/octet-stream');
        const stored = (await row(res.body.data.id))!;
        assert.deepEqual(await readBack(stored.storage_path), {
          hash: generatedHash(size, 'direct-big'),
          size,
        });
      });

      it('keeps the original name as the key’s last segment with original_filename=true, never replacing a file', async () => {
        const first = await direct('report.pdf', Buffer.from('one'), { original_filename: 'true' });
        const second = await direct('report.pdf', Buffer.from('two'), { original_filename: 'true' });
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.data.used_original_filename, true);
        const keys = [(await row(first.body.data.id))!, (await row(second.body.data.id))!].map(
          (r) => r.storage_path,
        );
        for (const key of keys) assert.match(key, /^\/2026\/01\/[a-z0-9]{12}\/report\.pdf$/);
        assert.notEqual(keys[0], keys[1]);
        assert.deepEqual((await readBack(keys[0]!)).size, 3);
        assert.deepEqual(await readBack(keys[1]!), { hash: sha256(Buffer.from('two')), size: 3 });
      });

      it('accepts the key in X-Custom-Auth-Key, and needs the file permission', async () => {
        const viaHeader = await direct('k.txt', Buffer.from('k'), {}, { 'X-Custom-Auth-Key': writer.key });
        assert.equal(viaHeader.status, 200, JSON.stringify(viaHeader.body));
        assert.equal((await row(viaHeader.body.data.id))!.created_by, `apikey:${writer.id}`);
        const badAuthorization = await direct(
          'k.txt',
          Buffer.from('k'),
          {},
          {
            Authorization: 'ApiKey wrong',
            'X-Custom-Auth-Key': writer.key,
          },
        );
        assert.equal(badAuthorization.status, 200, 'the fallback is used when Authorization fails');
        assert.equal((await direct('k.txt', Buffer.from('k'), {}, {})).status, 401);
        assert.equal(
          (await direct('k.txt', Buffer.from('k'), {}, { 'X-Custom-Auth-Key': 'nope' })).status,
          401,
        );
        assert.equal((await direct('k.txt', Buffer.from('k'), {}, apiKey(textOnly.key))).status, 403);
      });

      it('validates the query like the form fields', async () => {
        const rows = await rowCount();
        const invalid: Record<string, string>[] = [
          { max_views: '-1' },
          { expires_in: 'soon' },
          { override: 'maybe' },
          { slug: 'a/b' },
        ];
        for (const query of invalid) {
          const res = await direct('v.txt', Buffer.from('v'), query);
          assert.equal(res.status, 400, JSON.stringify(query));
        }
        assert.equal((await direct('v.txt', Buffer.from('v'), { slug: 'direct-one' })).status, 409);
        assert.equal(await rowCount(), rows);
      });

      it('refuses over the upload limit (413) and the quota (507), keeping nothing', async () => {
        await setMaxUpload(1, 'MB');
        try {
          const files = await storedFiles();
          const rows = await rowCount();
          const { body, pulled } = endlessStream();
          const declared = await direct('big.bin', body, {}, { ...admin, 'Content-Length': String(2 * MiB) });
          assert.equal(declared.status, 413);
          assert.ok(pulled() <= 1, `read ${pulled()} chunks before refusing`);
          await body.cancel().catch(() => undefined);
          const streamed = await direct('big.bin', generatedStream(3 * MiB, 'over'));
          assert.equal(streamed.status, 413);
          assert.equal(streamed.body.error, 'PAYLOAD_TOO_LARGE');
          assert.equal(await rowCount(), rows);
          assert.deepEqual(await storedFiles(), files);
        } finally {
          await setMaxUpload(100, 'MB');
        }
        const used = await t.services.storageConfigs.repo.usedBytes(defaultConfigId);
        await setQuota(used + 1000);
        try {
          const files = await storedFiles();
          const rows = await rowCount();
          const full = await direct('full.bin', generatedStream(5000, 'full'));
          assert.equal(full.status, 507);
          assert.equal(full.body.error, 'STORAGE_FULL');
          assert.equal(await rowCount(), rows);
          assert.deepEqual(await storedFiles(), files);
        } finally {
          await setQuota(null);
        }
      });

      it('keeps a key inside its base path: 403 and nothing written', async () => {
        const files = await storedFiles();
        const rows = await rowCount();
        for (const path of ['/elsewhere', '/team-b', '../x']) {
          const res = await direct('x.txt', Buffer.from('x'), { path }, apiKey(team.key));
          assert.equal(res.status, 403, path);
        }
        assert.equal(await rowCount(), rows);
        assert.deepEqual(await storedFiles(), files);
        const inside = await direct('x.txt', Buffer.from('x'), { path: 'docs' }, apiKey(team.key));
        assert.equal(inside.status, 200);
        assert.match((await row(inside.body.data.id))!.storage_path, /^\/team\/docs\/2026\/01\//);
      });

      it('override=true replaces the creator’s own share (an admin’s: any) and refuses someone else’s', async () => {
        const mine = await direct(
          'v1.txt',
          Buffer.from('version 1'),
          { slug: 'overridden' },
          apiKey(writer.key),
        );
        assert.equal(mine.status, 200);
        const old = (await row(mine.body.data.id))!;

        const taken = await direct(
          'v2.txt',
          Buffer.from('version 2'),
          { slug: 'overridden' },
          apiKey(writer.key),
        );
        assert.equal(taken.status, 409, 'without override a taken slug stays taken');

        const files = await storedFiles();
        const theirs = await direct(
          'evil.txt',
          Buffer.from('not yours'),
          { slug: 'overridden', override: 'true' },
          apiKey(other.key),
        );
        assert.equal(theirs.status, 403);
        assert.match(theirs.body.message, /您无权覆盖其他用户创建的文件/);
        assert.deepEqual(await storedFiles(), files, 'nothing written');
        assert.ok(await row(old.id), 'the share stays');

        const replaced = await direct(
          'v2.txt',
          Buffer.from('version 2'),
          { slug: 'overridden', override: 'true', remark: 'second' },
          apiKey(writer.key),
        );
        assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
        assert.equal(replaced.body.data.slug, 'overridden');
        assert.equal(replaced.body.data.filename, 'v2.txt');
        assert.equal(await row(old.id), undefined, 'the old share is gone');
        await assert.rejects((await driver()).stat(old.storage_path), { code: 'NOT_FOUND' });
        const info = await t.json('/api/public/files/overridden');
        assert.equal(info.body.data.filename, 'v2.txt');
        assert.equal(info.body.data.remark, 'second');

        const byAdmin = await direct('v3.txt', Buffer.from('version 3'), {
          slug: 'overridden',
          override: 'true',
        });
        assert.equal(byAdmin.status, 200, 'an admin may replace any share');
        assert.equal((await t.json('/api/public/files/overridden')).body.data.filename, 'v3.txt');

        const fresh = await direct('new.txt', Buffer.from('n'), { slug: 'nothing-there', override: 'true' });
        assert.equal(fresh.status, 200, 'override with a free slug just takes it');
        assert.equal(fresh.body.data.slug, 'nothing-there');
      });
    });

    describe('presign + commit', () => {
      it('presigns, takes a plain fetch PUT, and commits the share', async () => {
        const content = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
        const presign = await post('/api/s3/presign', {
          filename: 'logo.svg',
          size: content.length,
          mimetype: 'text/plain',
        });
        assert.equal(presign.status, 200, JSON.stringify(presign.body));
        const p = presign.body.data;
        assert.equal(p.contentType, 'image/svg+xml');
        assert.deepEqual(p.upload_headers, { 'Content-Type': 'image/svg+xml' });
        assert.equal(p.provider_type, 'Local');
        assert.ok(p.upload_url.startsWith(`${app.origin}/api/storage/local/`), p.upload_url);
        assert.equal((await row(p.file_id))!.status, 'pending');
        const hidden = await t.json(`/api/public/files/${p.slug}`);
        assert.equal(hidden.status, 404, 'a pending upload is not served');

        const put = await putTo(p.upload_url, content, p.upload_headers);
        assert.equal(put.status, 200);
        assert.equal((await row(p.file_id))!.status, 'pending');
        await assert.rejects(
          (await driver()).stat(p.storage_path),
          { code: 'NOT_FOUND' },
          'no object before commit',
        );

        const commit = await post('/api/s3/commit', {
          file_id: p.file_id,
          etag: put.headers.get('etag'),
          size: content.length,
          password: 'pw',
          expires_in: 0,
          max_views: 0,
          remark: 'via presign',
          s3_url: 'ignored',
        });
        assert.equal(commit.status, 200, JSON.stringify(commit.body));
        assert.equal(commit.body.data.slug, p.slug);
        assert.equal(commit.body.data.remark, 'via presign');
        assert.equal(commit.body.data.requires_password, true);
        assert.equal(commit.body.data.expires_at, null);
        const stored = (await row(p.file_id))!;
        assert.equal(stored.status, 'ready');
        assert.equal(stored.etag, (await (await driver()).stat(stored.storage_path)).etag);
        assert.deepEqual(await readBack(stored.storage_path), {
          hash: sha256(content),
          size: content.length,
        });

        const again = await post('/api/s3/commit', { file_id: p.file_id });
        assert.equal(again.status, 409);
      });

      it('a presigned URL takes no bytes once its upload is committed or cancelled', async () => {
        const first = Buffer.from('the bytes that were shared');
        const p = (await post('/api/s3/presign', { filename: 'once.txt', size: first.length })).body.data;
        assert.equal((await putTo(p.upload_url, first, p.upload_headers)).status, 200);
        assert.equal((await post('/api/s3/commit', { file_id: p.file_id })).status, 200);
        const replacement = Buffer.from('bytes swapped in after'.padEnd(first.length, '!'));
        const late = await putTo(p.upload_url, replacement, p.upload_headers);
        assert.equal(late.status, 404, 'the upload is complete: its URL is spent');
        assert.deepEqual(await readBack(p.storage_path), { hash: sha256(first), size: first.length });
        const served = await t.request(`/api/file-download/${p.slug}`);
        assert.equal(Buffer.from(await served.arrayBuffer()).toString(), first.toString());

        const q = (await post('/api/s3/presign', { filename: 'cancelled.txt', size: first.length })).body
          .data;
        assert.equal((await post('/api/url/cancel', { file_id: q.file_id })).status, 200);
        assert.equal((await putTo(q.upload_url, first, q.upload_headers)).status, 404);
        await assert.rejects((await driver()).stat(q.storage_path), { code: 'NOT_FOUND' });
        assert.equal(await row(q.file_id), undefined);
      });

      it('commit of a missing object answers 400 and deletes the record', async () => {
        const p = (await post('/api/s3/presign', { filename: 'never.txt', size: 10 })).body.data;
        const res = await post('/api/s3/commit', { file_id: p.file_id });
        assert.equal(res.status, 400);
        assert.equal(await row(p.file_id), undefined);
        assert.equal((await post('/api/s3/commit', { file_id: p.file_id })).status, 404);
      });

      it('deleting a pending upload through the share routes aborts it in storage', async () => {
        const open = () => storedFiles().then((files) => files.filter((f) => f.includes('.cubby-multipart')));
        const before = await open();
        const p = (await post('/api/s3/presign', { filename: 'abandoned.txt', size: 3 })).body.data;
        assert.equal((await open()).length, before.length + 1, 'the upload is open in storage');
        const res = await t.json(`/api/admin/files/${p.file_id}`, { method: 'DELETE', headers: admin });
        assert.equal(res.status, 200);
        assert.deepEqual(await open(), before);
        assert.equal((await putTo(p.upload_url, Buffer.from('abc'), p.upload_headers)).status, 404);
      });

      it('the URL takes exactly the declared size; an object written behind its back is not committed', async () => {
        const p = (await post('/api/s3/presign', { filename: 'sized.bin', size: 100 })).body.data;
        assert.equal((await putTo(p.upload_url, Buffer.alloc(50), p.upload_headers)).status, 400);
        assert.equal((await putTo(p.upload_url, Buffer.alloc(150), p.upload_headers)).status, 413);
        // Bytes placed at the key without the URL are not the upload: commit finds no part.
        await (await driver()).write(p.storage_path, new Blob([new Uint8Array(100)]).stream());
        const res = await post('/api/s3/commit', { file_id: p.file_id, size: 100 });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(await row(p.file_id), undefined);
      });

      it('refuses a declared size over the limit and validates input', async () => {
        await setMaxUpload(1, 'MB');
        try {
          const big = await post('/api/s3/presign', { filename: 'big.bin', size: 2 * MiB });
          assert.equal(big.status, 413);
          assert.match(big.body.message, /1 MB/);
        } finally {
          await setMaxUpload(100, 'MB');
        }
        assert.equal((await post('/api/s3/presign', { size: 1 })).status, 400);
        assert.equal((await post('/api/s3/presign', { filename: 'a', size: -1 })).status, 400);
        assert.equal((await post('/api/s3/presign', { filename: 'a' })).status, 400, 'size is required');
        assert.equal(
          (await post('/api/s3/presign', { filename: 'a', size: 1, s3_config_id: 'nope' })).status,
          404,
        );
        assert.equal((await post('/api/s3/commit', {})).status, 400);
      });
    });

    describe('slugs', () => {
      it('409 for a taken slug, 400 for reserved or malformed ones', async () => {
        const taken = await post('/api/s3/presign', { filename: 'a.txt', size: 1, slug: 'hello-form' });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.error, 'CONFLICT');
        for (const slug of ['admin', 'API', 'has space', 'x'.repeat(51), 'dot.dot']) {
          const res = await post('/api/s3/presign', { filename: 'a.txt', size: 1, slug });
          assert.equal(res.status, 400, slug);
        }
        const reserved = await post('/api/s3/presign', { filename: 'a.txt', size: 1, slug: 'upload' });
        assert.match(reserved.body.message, /保留/);
        const random = await post('/api/s3/presign', { filename: 'a.txt', size: 1 });
        assert.match(random.body.data.slug, /^[A-Za-z0-9]{6,}$/);
      });
    });

    describe('multipart', () => {
      const partSize = 5 * MiB;
      const size = 2 * partSize + 1234;
      let whole: Buffer;
      before(async () => {
        whole = await bytesOf(size, 'movie');
      });
      const slice = (n: number) => whole.subarray((n - 1) * partSize, Math.min(n * partSize, size));

      const init = (headers: Headers = admin, extra: Record<string, unknown> = {}) =>
        post(
          '/api/s3/multipart/init',
          { filename: 'movie.mp4', size, part_size: partSize, ...extra },
          headers,
        );
      const urls = async (p: { file_id: string; upload_id: string }, numbers: number[], headers = admin) => {
        const res = await post('/api/s3/multipart/urls', { ...p, part_numbers: numbers }, headers);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return new Map<number, string>(
          res.body.data.urls.map((u: { partNumber: number; url: string }) => [u.partNumber, u.url]),
        );
      };
      const status = (p: { file_id: string; upload_id: string }, headers = admin) =>
        t.json(`/api/s3/multipart/status?file_id=${p.file_id}&upload_id=${encodeURIComponent(p.upload_id)}`, {
          headers,
        });

      it('uploads parts via presigned URLs, resumes from the ledger, and completes', async () => {
        const started = await init(admin, { password: 'pw', expires_in: 1, remark: 'parts' });
        assert.equal(started.status, 200, JSON.stringify(started.body));
        const p = started.body.data;
        assert.equal(p.part_count, 3);
        assert.equal(p.part_size, partSize);
        assert.equal(p.contentType, 'video/mp4');
        const ids = { file_id: p.file_id, upload_id: p.upload_id };

        const first = await urls(ids, [1, 2]);
        const put1 = await putTo(first.get(1)!, slice(1));
        assert.equal(put1.status, 200);
        const put2 = await putTo(first.get(2)!, slice(2));
        assert.equal(put2.status, 200);
        const wrongSize = await putTo((await urls(ids, [3])).get(3)!, slice(1));
        assert.notEqual(wrongSize.status, 200, 'a part URL is bound to its size');

        const recorded = await post('/api/s3/multipart/part', {
          ...ids,
          partNumber: 1,
          etag: put1.headers.get('etag'),
        });
        assert.equal(recorded.status, 200, JSON.stringify(recorded.body));
        assert.equal(recorded.body.data.size, partSize);
        const bogus = await post('/api/s3/multipart/part', { ...ids, partNumber: 3, etag: '"nope"' });
        assert.equal(bogus.status, 400);

        // After a reload the client asks what is there: exactly parts 1 and 2.
        const resumed = await status(ids);
        assert.equal(resumed.status, 200);
        assert.deepEqual(
          resumed.body.data.parts.map((x: { partNumber: number; size: number; etag: string }) => [
            x.partNumber,
            x.size,
            x.etag,
          ]),
          [
            [1, partSize, put1.headers.get('etag')],
            [2, partSize, put2.headers.get('etag')],
          ],
        );
        assert.equal(resumed.body.data.size, size);
        assert.equal(resumed.body.data.filename, 'movie.mp4');
        const ledger = await t.database.db.kysely
          .selectFrom('upload_parts')
          .innerJoin('upload_sessions', 'upload_sessions.id', 'upload_parts.session_id')
          .select('part_number')
          .where('upload_sessions.file_id', '=', ids.file_id)
          .orderBy('part_number')
          .execute();
        assert.deepEqual(
          ledger.map((l) => l.part_number),
          [1, 2],
          'the ledger caught up with storage',
        );

        const early = await post('/api/s3/multipart/complete', ids);
        assert.equal(early.status, 400);
        assert.match(early.body.message, /3/);

        const put3 = await putTo((await urls(ids, [3])).get(3)!, slice(3));
        assert.equal(put3.status, 200);
        const done = await post('/api/s3/multipart/complete', {
          ...ids,
          parts: [put1, put2, put3].map((r, i) => ({
            partNumber: i + 1,
            etag: r.headers.get('etag')!.replace(/"/g, ''),
          })),
        });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.data.size, size);
        assert.equal(done.body.data.requires_password, true);
        assert.equal(done.body.data.remark, 'parts');
        const stored = (await row(ids.file_id))!;
        assert.equal(stored.status, 'ready');
        assert.deepEqual(await readBack(stored.storage_path), { hash: sha256(whole), size });
        const sessions = await t.database.db.kysely
          .selectFrom('upload_sessions')
          .selectAll()
          .where('file_id', '=', ids.file_id)
          .execute();
        assert.equal(sessions.length, 0);
        assert.equal((await status(ids)).status, 409, 'finished');
      });

      it('aborts: the upload, its session and its record are gone', async () => {
        const p = (await init()).body.data;
        const ids = { file_id: p.file_id, upload_id: p.upload_id };
        assert.equal((await putTo((await urls(ids, [1])).get(1)!, slice(1))).status, 200);
        const res = await post('/api/s3/multipart/abort', ids);
        assert.equal(res.status, 200);
        assert.equal(res.body.data.status, 'aborted');
        assert.equal(await row(ids.file_id), undefined);
        await assert.rejects((await driver()).multipart.listParts(p.storage_path, p.upload_id), {
          code: 'NOT_FOUND',
        });
        assert.equal((await status(ids)).status, 404);
      });

      it('plans part sizes within S3 limits', async () => {
        const small = (
          await post('/api/s3/multipart/init', { filename: 's.bin', size: 3 * MiB, part_size: MiB })
        ).body.data;
        assert.deepEqual([small.part_size, small.part_count], [5 * MiB, 1]);
        await post('/api/s3/multipart/abort', { file_id: small.file_id, upload_id: small.upload_id });
        const out = await post('/api/s3/multipart/urls', {
          file_id: small.file_id,
          upload_id: small.upload_id,
          part_numbers: [1],
        });
        assert.equal(out.status, 404);
      });

      it('lets only the creator (or an admin) touch an upload', async () => {
        const mine = (await init(apiKey(writer.key))).body.data;
        const ids = { file_id: mine.file_id, upload_id: mine.upload_id };
        for (const [path, body] of [
          ['/api/s3/multipart/urls', { ...ids, part_numbers: [1] }],
          ['/api/s3/multipart/part', { ...ids, partNumber: 1, etag: 'x' }],
          ['/api/s3/multipart/complete', ids],
          ['/api/s3/multipart/abort', ids],
          ['/api/url/cancel', { file_id: ids.file_id }],
        ] as const) {
          const res = await post(path, body, apiKey(other.key));
          assert.equal(res.status, 403, path);
        }
        assert.equal((await status(ids, apiKey(other.key))).status, 403);
        const presigned = (await post('/api/s3/presign', { filename: 'k.txt', size: 1 }, apiKey(writer.key)))
          .body.data;
        assert.equal(
          (await post('/api/s3/commit', { file_id: presigned.file_id }, apiKey(other.key))).status,
          403,
        );
        assert.equal(
          (await post('/api/url/cancel', { file_id: presigned.file_id }, apiKey(writer.key))).status,
          200,
        );
        assert.equal((await status(ids, apiKey(writer.key))).status, 200);
        assert.equal((await post('/api/s3/multipart/abort', ids, admin)).status, 200, 'an admin may');
      });
    });

    describe('API key base paths', () => {
      it('keeps a key inside its base path', async () => {
        const headers = apiKey(team.key);
        const inside = await post('/api/s3/presign', { filename: 'a.txt', size: 1 }, headers);
        assert.equal(inside.status, 200);
        assert.match(inside.body.data.storage_path, /^\/team\/2026\/01\/[a-z0-9]{12}-a\.txt$/);
        const relative = await post(
          '/api/s3/presign',
          { filename: 'a.txt', size: 1, path: 'docs/x' },
          headers,
        );
        assert.match(relative.body.data.storage_path, /^\/team\/docs\/x\/2026\//);
        const absolute = await post(
          '/api/s3/presign',
          { filename: 'a.txt', size: 1, path: '/team/sub' },
          headers,
        );
        assert.match(absolute.body.data.storage_path, /^\/team\/sub\/2026\//);
        for (const path of ['/other', '/team-b', '../x', '/team/../etc', '/']) {
          const res = await post('/api/s3/presign', { filename: 'a.txt', size: 1, path }, headers);
          assert.equal(res.status, 403, path);
        }
        const invalid = await post('/api/s3/presign', { filename: 'a.txt', size: 1, path: '/../x' }, headers);
        assert.equal(invalid.status, 400);
        const form = new FormData();
        form.append('path', '/elsewhere');
        form.append('file', new Blob(['x']), 'x.txt');
        assert.equal((await upload(form, headers)).status, 403);
        const byAdmin = await post('/api/s3/presign', {
          filename: 'a.txt',
          size: 1,
          path: '/anywhere/../here',
        });
        assert.match(byAdmin.body.data.storage_path, /^\/here\/2026\//);
      });
    });

    describe('URL uploads', () => {
      it('presigns from metadata, commits with a new slug, and cancels', async () => {
        const content = Buffer.from('{"from":"url"}');
        const res = await post('/api/url/presign', {
          url: 'https://example.com/data/report.json?x=1',
          metadata: { filename: 'report.json', contentType: 'text/html', size: content.length },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const p = res.body.data;
        assert.equal(p.filename, 'report.json');
        assert.equal(p.contentType, 'application/json');
        assert.equal(p.size, content.length);
        assert.equal((await putTo(p.upload_url, content, p.upload_headers)).status, 200);
        const committed = await post('/api/url/commit', { file_id: p.file_id, slug: 'from-url' });
        assert.equal(committed.status, 200, JSON.stringify(committed.body));
        assert.equal(committed.body.data.slug, 'from-url');

        const noSize = await post('/api/url/presign', {
          url: 'ftp://example.com/a.txt',
          metadata: { filename: 'a.txt', size: 1 },
        });
        assert.equal(noSize.status, 400);

        const started = await post('/api/url/multipart/init', {
          url: 'https://example.com/v.mp4',
          metadata: { filename: 'v.mp4', size: 11 * MiB },
          part_size: 5 * MiB,
        });
        assert.equal(started.status, 200, JSON.stringify(started.body));
        assert.equal(started.body.data.presigned_urls.length, 3);
        assert.equal(started.body.data.total_size, 11 * MiB);
        const cancelled = await post('/api/url/cancel', { file_id: started.body.data.file_id });
        assert.equal(cancelled.status, 200);
        assert.equal(await row(started.body.data.file_id), undefined);
        assert.equal(
          (await post('/api/url/cancel', { file_id: p.file_id })).status,
          409,
          'a finished share is not cancelled',
        );
      });
    });

    describe('orphan job', () => {
      it('aborts idle multipart uploads and drops stale presigned ones after 24 h', async () => {
        const mp = (await post('/api/s3/multipart/init', { filename: 'idle.bin', size: 6 * MiB })).body.data;
        const ids = { file_id: mp.file_id, upload_id: mp.upload_id };
        const partUrl = (await post('/api/s3/multipart/urls', { ...ids, part_numbers: [1] })).body.data
          .urls[0].url;
        assert.equal((await putTo(partUrl, await bytesOf(5 * MiB, 'idle'))).status, 200);
        const ps = (await post('/api/s3/presign', { filename: 'stale.txt', size: 5 })).body.data;
        assert.equal((await putTo(ps.upload_url, Buffer.from('stale'), ps.upload_headers)).status, 200);

        t.clock.advance(12 * HOUR);
        const kept = (await post('/api/s3/multipart/init', { filename: 'active.bin', size: 6 * MiB })).body
          .data;
        t.clock.advance(12 * HOUR - 60_000);
        assert.equal(await t.services.uploads.purgeAbandonedUploads(), 0, 'nothing is 24 h old yet');
        t.clock.advance(HOUR + 60_000);
        admin = bearer(await t.adminToken());
        // The recent one keeps itself alive by being used.
        assert.equal((await status({ file_id: kept.file_id, upload_id: kept.upload_id })).status, 200);
        t.clock.advance(11 * HOUR);

        // Everything pending but the upload in use is abandoned by now (earlier tests left some too).
        const pending = await t.database.db.kysely
          .selectFrom('files')
          .select('id')
          .where('status', '=', 'pending')
          .where('id', '!=', kept.file_id)
          .execute();
        assert.ok(pending.length >= 2);
        assert.equal(await t.services.uploads.purgeAbandonedUploads(), pending.length);
        assert.equal(await row(mp.file_id), undefined);
        assert.equal(await row(ps.file_id), undefined);
        await assert.rejects((await driver()).multipart.listParts(mp.storage_path, mp.upload_id), {
          code: 'NOT_FOUND',
        });
        await assert.rejects((await driver()).stat(ps.storage_path), { code: 'NOT_FOUND' });
        assert.ok(await row(kept.file_id), 'an upload in use stays');
        assert.equal(await t.services.uploads.purgeAbandonedUploads(), 0);
        await post('/api/s3/multipart/abort', { file_id: kept.file_id, upload_id: kept.upload_id });
      });

      const status = (p: { file_id: string; upload_id: string }) =>
        t.json(`/api/s3/multipart/status?file_id=${p.file_id}&upload_id=${encodeURIComponent(p.upload_id)}`, {
          headers: admin,
        });
    });
  });
}

// ---- S3 (radosgw) ------------------------------------------------------------------------------

describe('uploads to S3 (radosgw)', { skip: S3_SKIP }, () => {
  let app: Awaited<ReturnType<typeof servedApp>>;
  let t: TestApp;
  let admin: Headers;
  let s3: S3Client;
  let bucket: string;
  let configId: string;

  before(async () => {
    app = await servedApp('sqlite');
    t = app.t;
    // Presigned URLs are signed with the app's clock; radosgw checks them against real time.
    t.clock.followRealTime();
    admin = bearer(await t.adminToken());
    s3 = s3AdminClient();
    bucket = await createBucket(s3, 'cubby-uploads');
    configId = await insertS3Config(t, bucket, { name: 'rgw', isPublic: true, defaultFolder: 'shares' });
  });

  after(async () => {
    if (bucket) await deleteBucket(s3, bucket);
    s3?.destroy();
    await app?.close();
  });

  const post = (path: string, json: unknown) => t.json(path, { method: 'POST', headers: admin, json });
  const stored = async (id: string) => {
    const file = await t.database.db.kysely
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const driver = await t.services.storageConfigs.driver(configId);
    return { file, ...(await hashOf((await driver.read(file.storage_path)).body)) };
  };

  it('form upload streams into the bucket', async () => {
    const content = await bytesOf(3 * MiB + 5, 'photo');
    const form = new FormData();
    form.append('s3_config_id', configId);
    form.append('file', new Blob([new Uint8Array(content)]), 'photo.jpg');
    const res = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const s = await stored(res.body.data.id);
    assert.deepEqual([s.hash, s.size], [sha256(content), content.length]);
    assert.equal(s.file.mimetype, 'image/jpeg');
  });

  it('upload-direct streams a raw body into the bucket, and override replaces the object', async () => {
    const content = await bytesOf(9 * MiB + 3, 'direct-s3');
    const put = (body: Uint8Array, query: string) =>
      t.json(`/api/upload-direct/clip.mp4?s3_config_id=${configId}&${query}`, {
        method: 'PUT',
        headers: admin,
        body: body as Uint8Array<ArrayBuffer>,
      });
    const res = await put(content, 'slug=direct-s3');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const first = await stored(res.body.data.id);
    assert.deepEqual([first.hash, first.size], [sha256(content), content.length]);
    assert.equal(first.file.mimetype, 'video/mp4');
    assert.match(first.file.storage_path, /^\/\d{4}\/\d{2}\/[a-z0-9]{12}-clip\.mp4$/);

    const again = await put(Buffer.from('short'), 'slug=direct-s3&override=true&original_filename=true');
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const second = await stored(again.body.data.id);
    assert.deepEqual([second.hash, second.size], [sha256(Buffer.from('short')), 5]);
    assert.match(second.file.storage_path, /^\/\d{4}\/\d{2}\/[a-z0-9]{12}\/clip\.mp4$/);
    const driver = await t.services.storageConfigs.driver(configId);
    await assert.rejects(driver.stat(first.file.storage_path), { code: 'NOT_FOUND' });
  });

  describe('form uploads larger than a part', () => {
    const setMaxUpload = async (mb: number) => {
      const res = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { max_upload_size: mb, max_upload_size_unit: 'MB' },
      });
      assert.equal(res.status, 200);
    };
    const pending = async () =>
      (await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? [];
    const objectCount = async () =>
      (await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).KeyCount ?? 0;
    const send = (file: ReadableStream<Uint8Array>) => {
      const { body, contentType } = formStream([
        { name: 's3_config_id', value: configId },
        { file: 'big.bin', body: file },
      ]);
      return t.json('/api/upload', {
        method: 'POST',
        headers: { ...admin, 'Content-Type': contentType },
        body,
        duplex: 'half',
      } as RequestInit);
    };

    it('streams 20 MiB in parts, byte for byte', async () => {
      const size = 20 * MiB + 9;
      const res = await send(generatedStream(size, 's3-big'));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const s = await stored(res.body.data.id);
      assert.deepEqual([s.hash, s.size], [generatedHash(size, 's3-big'), size]);
      assert.match(s.file.etag ?? '', /-3"$/, 'three parts of 8 MiB, 8 MiB and 4 MiB');
      assert.deepEqual(await pending(), []);
    });

    it('answers 413 past the limit and leaves neither an object nor a pending upload', async () => {
      const objects = await objectCount();
      await setMaxUpload(12);
      try {
        const res = await send(generatedStream(30 * MiB, 's3-over'));
        assert.equal(res.status, 413, JSON.stringify(res.body));
        assert.deepEqual(await pending(), [], 'the multipart upload was aborted');
        assert.equal(await objectCount(), objects);
      } finally {
        await setMaxUpload(100);
      }
    });

    it('aborts the multipart upload when the client goes away midway', async () => {
      const objects = await objectCount();
      const res = await send(droppedStream(20 * MiB, 's3-gone')).catch(() => null);
      assert.notEqual(res?.status, 200);
      assert.deepEqual(await pending(), [], 'the multipart upload was aborted before the answer');
      assert.equal(await objectCount(), objects);
    });
  });

  it('presign → fetch PUT → commit', async () => {
    const content = Buffer.from('presigned into radosgw');
    const p = (
      await post('/api/s3/presign', { s3_config_id: configId, filename: 'r.txt', size: content.length })
    ).body.data;
    assert.equal(p.provider_type, 'Other S3 Compatible');
    assert.ok(p.upload_url.startsWith(s3Env.endpoint!), p.upload_url);
    const put = await putTo(p.upload_url, content, p.upload_headers);
    assert.equal(put.status, 200, await put.text());
    const commit = await post('/api/s3/commit', { file_id: p.file_id, etag: put.headers.get('etag') });
    assert.equal(commit.status, 200, JSON.stringify(commit.body));
    const s = await stored(p.file_id);
    assert.deepEqual([s.hash, s.size, s.file.status], [sha256(content), content.length, 'ready']);
    // Single use: once committed, the signed URL no longer reaches the object.
    const late = await putTo(
      p.upload_url,
      Buffer.from('swapped in after commit'.slice(0, content.length)),
      p.upload_headers,
    );
    assert.equal(late.status, 404, await late.text());
    const after = await stored(p.file_id);
    assert.deepEqual([after.hash, after.size], [sha256(content), content.length]);
  });

  it('presign of an empty file commits an empty object', async () => {
    const p = (await post('/api/s3/presign', { s3_config_id: configId, filename: 'empty.txt', size: 0 })).body
      .data;
    assert.equal((await putTo(p.upload_url, Buffer.alloc(0), p.upload_headers)).status, 200);
    const commit = await post('/api/s3/commit', { file_id: p.file_id });
    assert.equal(commit.status, 200, JSON.stringify(commit.body));
    const s = await stored(p.file_id);
    assert.deepEqual([s.size, s.file.status], [0, 'ready']);
  });

  it('multipart: parts through presigned URLs, status, complete', async () => {
    const size = 10 * MiB + 77;
    const whole = await bytesOf(size, 'webm');
    const p = (await post('/api/s3/multipart/init', { s3_config_id: configId, filename: 'v.webm', size }))
      .body.data;
    assert.deepEqual([p.part_size, p.part_count], [5 * MiB, 3]);
    const ids = { file_id: p.file_id, upload_id: p.upload_id };
    const urls = (await post('/api/s3/multipart/urls', { ...ids, part_numbers: [1, 2, 3] })).body.data
      .urls as Array<{
      partNumber: number;
      url: string;
    }>;
    const etags: string[] = [];
    for (const { partNumber, url } of urls.slice(0, 2)) {
      const body = whole.subarray((partNumber - 1) * 5 * MiB, Math.min(partNumber * 5 * MiB, size));
      const res = await putTo(url, body);
      assert.equal(res.status, 200, await res.text());
      etags.push(res.headers.get('etag')!);
    }
    const status = await t.json(
      `/api/s3/multipart/status?file_id=${ids.file_id}&upload_id=${encodeURIComponent(ids.upload_id)}`,
      {
        headers: admin,
      },
    );
    assert.deepEqual(
      status.body.data.parts.map((x: { partNumber: number }) => x.partNumber),
      [1, 2],
    );
    const last = await putTo(urls[2]!.url, whole.subarray(10 * MiB));
    assert.equal(last.status, 200);
    const done = await post('/api/s3/multipart/complete', ids);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const s = await stored(p.file_id);
    assert.deepEqual([s.hash, s.size, s.file.status], [sha256(whole), size, 'ready']);
  });
});
