/**
 * Crash safety (issue 15): the real server process is killed with SIGKILL while writes are in flight —
 * form uploads of file shares (local disk and S3), an fs upload spooled before its path arrives, relay
 * multipart uploads with one part sent and the next streaming (local disk and S3), and a large paste
 * body — then started again on the same DATA_DIR and database, on SQLite and on PostgreSQL:
 * - the database passes its integrity check (SQLite's own checks; on both, no row refers to a
 *   missing one), and what was finished before the crash is all there;
 * - nothing partial is listed: no share, paste or file in the admin lists, public routes or mount
 *   listings for an interrupted write, and its slug is free again;
 * - the leftovers are cleared by the jobs: temp files and streamed uploads at start, the spooled form
 *   and the unfinished multipart uploads (local folders, and on S3 checked with ListMultipartUploads)
 *   once 24 hours old (the clock moved through the test hooks, the jobs run through /__test__/sweep).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from './support/databases.ts';
import { createBucket, deleteBucket, s3AdminClient, s3ConfigBody, s3Env } from './support/s3.ts';
import { freePort, type RunningProcess, serverEnv, startServer, waitFor } from './support/server-process.ts';
import { ADMIN } from './support/test-app.ts';

const MiB = 1024 * 1024;
const DAY_AND_HOUR = 25 * 3600_000;

/** Every file below `root`, hidden ones included. */
async function filesBelow(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => nodePath.join(e.parentPath, e.name));
}
const named = async (root: string, test: (name: string) => boolean) =>
  (await filesBelow(root)).filter((f) => test(nodePath.basename(f)));
const isTemp = (name: string) => name.startsWith('.cubby-tmp-');

/** Polls `check` until it holds (the state of another process, the disk or the bucket). */
async function until(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A request whose body is written piece by piece and never finished: the server dies under it. */
function openRequest(url: string, headers: Record<string, string>) {
  const req = http.request(url, { method: 'POST', headers });
  req.on('error', () => undefined);
  req.on('response', (res) => res.resume());
  return {
    write: (chunk: string | Buffer) => new Promise<void>((resolve) => req.write(chunk, () => resolve())),
    destroy: () => req.destroy(),
  };
}

const boundary = 'crash-boundary';
const field = (name: string, value: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (filename: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`;

/** Rows that refer to a row that is not there, by reference (empty when the database is consistent). */
async function danglingReferences(db: Kysely<Database>): Promise<string[]> {
  const refs: Array<[string, string, string, string]> = [
    ['sessions', 'user_id', 'users', 'id'],
    ['user_paths', 'user_id', 'users', 'id'],
    ['app_passwords', 'user_id', 'users', 'id'],
    ['recovery_codes', 'user_id', 'users', 'id'],
    ['passkeys', 'user_id', 'users', 'id'],
    ['passkey_challenges', 'user_id', 'users', 'id'],
    ['files', 'storage_config_id', 'storage_configs', 'id'],
    ['upload_sessions', 'file_id', 'files', 'id'],
    ['upload_sessions', 'storage_config_id', 'storage_configs', 'id'],
    ['upload_parts', 'session_id', 'upload_sessions', 'id'],
    ['file_view_tokens', 'file_id', 'files', 'id'],
    ['streamed_uploads', 'file_id', 'files', 'id'],
    ['mounts', 'storage_config_id', 'storage_configs', 'id'],
  ];
  const found: string[] = [];
  for (const [table, column, target, key] of refs) {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from ${sql.table(table)} t
      where t.${sql.ref(column)} is not null
        and not exists (select 1 from ${sql.table(target)} r where r.${sql.ref(key)} = t.${sql.ref(column)})
    `.execute(db);
    if (Number(rows[0]!.n) > 0) found.push(`${table}.${column} → ${target}: ${rows[0]!.n}`);
  }
  return found;
}

/** SQLite's own checks: the file is sound and no foreign key is broken. */
async function sqliteChecks(db: Kysely<Database>): Promise<void> {
  const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  assert.deepEqual(
    integrity.rows.map((r) => r.integrity_check),
    ['ok'],
  );
  const keys = await sql`pragma foreign_key_check`.execute(db);
  assert.deepEqual(keys.rows, [], 'no broken foreign key');
}

for (const dialect of DIALECTS) {
  describe(`kill -9 mid-write, then restart on the same data (${dialect})`, () => {
    let database: TestDatabase;
    let s3: S3Client | undefined;
    let bucket: string | undefined;
    let server: RunningProcess | undefined;
    const env: Record<string, string> = {};

    before(async () => {
      database = await createTestDatabase(dialect);
      const port = await freePort();
      Object.assign(env, serverEnv(database, port, ADMIN.password));
      if (s3Env.endpoint) {
        s3 = s3AdminClient();
        bucket = await createBucket(s3, 'cubby-crash');
      }
    });
    after(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      if (s3 && bucket) await deleteBucket(s3, bucket);
      s3?.destroy();
      await database.destroy();
    });

    it('starts again, consistent, lists nothing partial, and its jobs clear the leftovers', async (t) => {
      if (!s3) t.diagnostic('S3_ENDPOINT is not set: the S3 writes are left out');
      const origin = `http://127.0.0.1:${env.PORT}`;
      const storage = nodePath.join(database.dataDir, 'storage');
      const spoolDir = nodePath.join(database.dataDir, 'tmp', 'fs-uploads');
      const db = database.db.kysely;
      let token = '';
      const call = async (method: string, route: string, body?: unknown) => {
        const res = await fetch(`${origin}${route}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await res.json()) as { data: unknown; message: string };
        return { status: res.status, data: json.data as Record<string, unknown> & Array<never> };
      };
      const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
        const res = await call(method, route, body);
        assert.ok(res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.data)}`);
        return res.data as T;
      };
      const start = async () => {
        server = startServer(env);
        await waitFor(server, (out) => out.includes('Cubby is serving'));
        token = (await api<{ token: string }>('POST', '/api/admin/login', ADMIN)).token;
      };
      const s3Uploads = async () =>
        s3 ? ((await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []) : [];
      const relayFolders = () => fs.readdir(nodePath.join(storage, '.cubby-multipart')).catch(() => []);

      await start();
      const local = await api<Array<{ id: string; is_default: unknown }>>('GET', '/api/s3-configs');
      const localId = local.find((c) => c.is_default)!.id;
      await api('POST', '/api/admin/mounts', {
        name: 'disk',
        storage_config_id: localId,
        mount_path: '/disk',
      });
      let s3Id: string | undefined;
      if (s3) {
        s3Id = (await api<{ id: string }>('POST', '/api/s3-configs', s3ConfigBody('radosgw', bucket!))).id;
        await api('POST', '/api/admin/mounts', {
          name: 'bucket',
          storage_config_id: s3Id,
          mount_path: '/bucket',
        });
      }

      // What is finished before the crash must all be there after it.
      const kept = await api<{ slug: string }>('POST', '/api/paste', { content: 'written before the crash' });
      const keptForm = new FormData();
      keptForm.append('slug', 'kept-file');
      keptForm.append('file', new Blob(['kept bytes']), 'kept.txt');
      const keptFile = await fetch(`${origin}/api/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: keptForm,
      });
      assert.equal(keptFile.status, 200);

      // ---- the writes in flight at the kill ----
      const auth = { Authorization: `Bearer ${token}` };
      const form = { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
      const open: Array<ReturnType<typeof openRequest>> = [];
      const s3Before = (await s3Uploads()).length;

      // A file share streamed to local disk: its temp file is on the disk.
      const shareLocal = openRequest(`${origin}/api/upload`, form);
      open.push(shareLocal);
      await shareLocal.write(field('slug', 'crash-local') + fileHead('crash-local.bin'));
      await shareLocal.write(Buffer.alloc(2 * MiB, 1));
      await until(async () => (await named(storage, isTemp)).length === 1, 'the share upload’s temp file');

      // A file share streamed to S3: past one part, so the write is a multipart upload in the bucket.
      if (s3) {
        const shareS3 = openRequest(`${origin}/api/upload`, form);
        open.push(shareS3);
        await shareS3.write(
          field('s3_config_id', s3Id!) + field('slug', 'crash-s3') + fileHead('crash-s3.bin'),
        );
        for (let i = 0; i < 10; i++) await shareS3.write(Buffer.alloc(MiB, 2));
        await until(
          async () => (await s3Uploads()).length === s3Before + 1,
          'the S3 write’s multipart upload',
        );
      }

      // An fs upload whose file comes before its path: spooled in the data folder.
      const spooled = openRequest(`${origin}/api/admin/fs/upload`, form);
      open.push(spooled);
      await spooled.write(fileHead('crash-spooled.bin'));
      await spooled.write(Buffer.alloc(MiB, 3));
      await until(
        async () =>
          (await filesBelow(spoolDir)).length === 1 &&
          (await fs.stat((await filesBelow(spoolDir))[0]!)).size > 0,
        'the spooled form',
      );

      // Relay multipart uploads: part 1 sent, part 2 streaming.
      const relays = [{ mount: '/disk' }, ...(s3 ? [{ mount: '/bucket' }] : [])];
      for (const relay of relays) {
        const init = await api<{ uploadId: string; key: string }>('POST', '/api/admin/fs/multipart/init', {
          path: relay.mount,
          filename: 'crash-relay.bin',
          fileSize: 10 * MiB,
        });
        const query = (n: number) =>
          `?key=${encodeURIComponent(init.key)}&uploadId=${encodeURIComponent(init.uploadId)}&partNumber=${n}`;
        const part = await fetch(`${origin}/api/admin/fs/multipart/part${query(1)}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/octet-stream' },
          body: Buffer.alloc(5 * MiB, 4),
        });
        assert.equal(part.status, 200, await part.clone().text());
        const second = openRequest(`${origin}/api/admin/fs/multipart/part${query(2)}`, {
          ...auth,
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(5 * MiB),
        });
        open.push(second);
        await second.write(Buffer.alloc(MiB, 5));
      }
      const relayBefore = await relayFolders();
      assert.equal(relayBefore.length, 1, 'the local relay upload has its folder');
      if (s3) assert.equal((await s3Uploads()).length, s3Before + 2, 'and the S3 one its upload');

      // A large paste, its body half sent.
      const paste = openRequest(`${origin}/api/paste`, {
        ...auth,
        'Content-Type': 'application/json',
        'Content-Length': String(4 * MiB),
      });
      open.push(paste);
      await paste.write('{"content":"');
      await paste.write('x'.repeat(2 * MiB));

      server!.child.kill('SIGKILL');
      await server!.exited;
      for (const req of open) req.destroy();

      // ---- what the crash left ----
      assert.equal((await named(storage, isTemp)).length >= 1, true, 'the crash left temp files');
      assert.equal((await filesBelow(spoolDir)).length, 1, 'and the spooled form');
      if (dialect === 'sqlite') await sqliteChecks(db);
      assert.deepEqual(await danglingReferences(db), []);

      // ---- restart on the same data ----
      await start();
      assert.equal((await fetch(`${origin}/api/health`)).status, 200);
      if (dialect === 'sqlite') await sqliteChecks(db);
      assert.deepEqual(await danglingReferences(db), []);
      assert.deepEqual(await named(storage, isTemp), [], 'temp files removed at start');
      const pending = await db
        .selectFrom('files')
        .select('filename')
        .where('status', '!=', 'ready')
        .execute();
      assert.deepEqual(pending, [], 'the interrupted share uploads are freed at start');

      // Nothing partial is listed: admin lists, public routes, mount listings.
      const files = await api<{ files: Array<{ filename: string }> }>('GET', '/api/admin/files?limit=100');
      assert.deepEqual(
        files.files.map((f) => f.filename),
        ['kept.txt'],
      );
      const pastes = await api<Array<{ slug: string }>>('GET', '/api/admin/pastes?limit=100');
      assert.deepEqual(
        pastes.map((p) => p.slug),
        [kept.slug],
      );
      assert.equal((await fetch(`${origin}/api/paste/${kept.slug}`)).status, 200);
      assert.equal((await fetch(`${origin}/api/public/files/kept-file`)).status, 200);
      for (const slug of ['crash-local', 'crash-s3']) {
        assert.equal((await fetch(`${origin}/api/public/files/${slug}`)).status, 404, slug);
        assert.equal((await fetch(`${origin}/api/file-download/${slug}`)).status, 404, slug);
      }
      for (const relay of relays) {
        const listing = await api<{ items: Array<{ name: string }> }>(
          'GET',
          `/api/admin/fs/list?path=${encodeURIComponent(relay.mount)}`,
        );
        const names = listing.items.map((i) => i.name);
        assert.deepEqual(
          names.filter((n) => n.startsWith('crash') || n.startsWith('.cubby')),
          [],
          `${relay.mount}: ${names.join(', ')}`,
        );
      }

      // The interrupted slugs are free again.
      const again = new FormData();
      again.append('slug', 'crash-local');
      again.append('file', new Blob(['after the crash']), 'again.txt');
      const retried = await fetch(`${origin}/api/upload`, { method: 'POST', headers: auth, body: again });
      assert.equal(retried.status, 200);

      // ---- the jobs, a day later ----
      const early = await api<Record<string, number>>('POST', '/api/__test__/sweep');
      assert.equal(early.purgeAbandonedUploads, 0, 'an unfinished upload is left alone for a day');
      assert.deepEqual(await relayFolders(), relayBefore);
      await api('POST', '/api/__test__/clock', { advanceMs: DAY_AND_HOUR });
      const swept = await api<Record<string, number>>('POST', '/api/__test__/sweep');
      assert.equal(swept.removeLeftoverSpools, 1);
      assert.equal(swept.purgeAbandonedUploads, relays.length + (s3 ? 1 : 0));
      assert.deepEqual(await filesBelow(spoolDir), [], 'the spooled form is gone');
      assert.deepEqual(await relayFolders(), [], 'the local relay upload is aborted');
      assert.deepEqual(
        (await s3Uploads()).map((u) => u.Key),
        [],
        'no unfinished multipart upload in the bucket',
      );
      assert.deepEqual(await danglingReferences(db), []);
      if (dialect === 'sqlite') await sqliteChecks(db);

      server!.child.kill('SIGTERM');
      assert.equal(await server!.exited, 0);
    });
  });
}
