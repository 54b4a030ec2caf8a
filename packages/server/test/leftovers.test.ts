/**
 * What a crash leaves behind, and the sweeps that clear it: the real server process killed with
 * SIGKILL mid-upload and started again on the same DATA_DIR (the partial temp file is gone and the
 * slug free), then the sweep rules on both databases — a dead writer's temp files and uploads go at
 * once, an unknown writer's by age or silence, a live upload's never; presigned uploads keep their
 * 24-hour rule.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatTag, THIS_PROCESS } from '../src/lib/process-tag.ts';
import { createLogger } from '../src/logger.ts';
import { FilesRepository } from '../src/modules/files/files.repository.ts';
import { UploadsRepository } from '../src/modules/uploads/uploads.repository.ts';
import { UploadsService } from '../src/modules/uploads/uploads.service.ts';
import { DIALECTS } from './support/databases.ts';
import { freePort, startServer, waitFor } from './support/server-process.ts';
import { ADMIN, bearer, createTestApp, fileRow, type TestApp } from './support/test-app.ts';

const MiB = 1024 * 1024;
const HOUR = 3600_000;

/** Every file below `root`, hidden ones included. */
async function filesBelow(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => nodePath.join(e.parentPath, e.name));
}
const tempFiles = async (root: string) =>
  (await filesBelow(root)).filter((f) => nodePath.basename(f).startsWith('.cubby-tmp-'));

/** Polls `check` until it holds (the state of another process or of the disk), failing after `ms`. */
async function until(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The pid of a process that has exited: a writer that is surely gone. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const boundary = 'leftover-boundary';
const formHead = (slug: string, filename: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="slug"\r\n\r\n${slug}\r\n` +
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`;
const formTail = `\r\n--${boundary}--\r\n`;

describe('after kill -9 mid-upload (real server process)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'cubby-crash-'));
  });
  after(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('a restart removes the partial temp file and frees the slug', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: ADMIN.password };
    const storage = nodePath.join(dataDir, 'storage');
    const login = async () => {
      const res = await fetch(`${origin}/api/admin/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      return bearer(((await res.json()) as { data: { token: string } }).data.token);
    };

    const first = startServer(env);
    await waitFor(first, (out) => out.includes('Cubby is serving'));
    const admin = await login();
    const req = http.request(`${origin}/api/upload`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    req.on('error', () => undefined); // the server dies under it
    req.write(formHead('crashed', 'big.bin'));
    req.write(Buffer.alloc(2 * MiB, 1));
    await until(async () => (await tempFiles(storage)).length === 1, 'the upload to reach the disk');
    first.child.kill('SIGKILL');
    await first.exited;
    req.destroy();
    assert.equal((await tempFiles(storage)).length, 1, 'the crash left the partial file');

    const second = startServer(env);
    await waitFor(second, (out) => out.includes('Cubby is serving'));
    try {
      assert.deepEqual(await tempFiles(storage), [], 'removed on start');
      const form = new FormData();
      form.append('slug', 'crashed');
      form.append('file', new Blob(['after the crash']), 'again.txt');
      const res = await fetch(`${origin}/api/upload`, { method: 'POST', headers: await login(), body: form });
      assert.equal(res.status, 200, 'the slug is free again');
      assert.equal(((await res.json()) as { data: { slug: string } }).data.slug, 'crashed');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`crash leftovers (${dialect})`, () => {
    let t: TestApp;
    let root: string;
    let configId: string;
    before(async () => {
      t = await createTestApp(dialect);
      const config = (await t.services.storageConfigs.repo.findDefault())!;
      configId = config.id;
      root = JSON.parse(config.settings).root_path;
      await fs.mkdir(root, { recursive: true });
    });
    after(() => t.close());

    const db = () => t.database.db.kysely;
    const findFile = (id: string) =>
      db().selectFrom('files').select('id').where('id', '=', id).executeTakeFirst();
    const otherMachine = () => formatTag({ machine: '0123456789', pid: process.pid, start: 'abcdef01' });
    const tempName = (owner: string) => `.cubby-tmp-${owner}-${randomUUID().slice(0, 8)}`;
    const age = (file: string, ms: number) =>
      fs.utimes(file, new Date(Date.now() - ms), new Date(Date.now() - ms));

    /** A pending streamed upload as a process tagged `owner` would have left it (heartbeat: now). */
    const leftUpload = async (owner: string, slug: string) => {
      const now = t.clock.now().toISOString();
      const row = fileRow({ storage_config_id: configId, slug, status: 'pending', created_at: now });
      await db().insertInto('files').values(row).execute();
      await db()
        .insertInto('streamed_uploads')
        .values({ file_id: row.id, owner, heartbeat_at: now })
        .execute();
      return row.id;
    };

    it('removes a dead writer’s temp files at once, an unknown writer’s only when old, and nothing else', async () => {
      const dead = formatTag({ ...THIS_PROCESS, pid: await deadPid() });
      const predecessor = formatTag({ ...THIS_PROCESS, start: 'ffffffff' });
      await fs.mkdir(nodePath.join(root, 'team/2026'), { recursive: true });
      await fs.mkdir(nodePath.join(root, '.cubby-multipart/0123'), { recursive: true });
      const place = async (dir: string, name: string, oldMs = 0) => {
        const file = nodePath.join(root, dir, name);
        await fs.writeFile(file, 'partial');
        if (oldMs) await age(file, oldMs);
        return file;
      };
      const gone = [
        await place('team/2026', tempName(dead)),
        await place('', tempName(predecessor)),
        await place('.cubby-multipart/0123', tempName(dead)),
        await place('', tempName(otherMachine()), 7 * HOUR),
        await place('', '.cubby-tmp-0123456789abcdef01234567', 7 * HOUR),
      ];
      const kept = [
        await place('', tempName(otherMachine())),
        await place('team', '.cubby-tmp-0123456789abcdef01234567'),
        await place('team', 'report.pdf', 30 * 24 * HOUR),
      ];
      assert.equal(await t.services.uploads.removeLeftoverTemps(), gone.length);
      const left = await filesBelow(root);
      for (const file of gone) assert.ok(!left.includes(file), `${file} removed`);
      for (const file of kept) assert.ok(left.includes(file), `${file} kept`);
      for (const file of kept) await fs.rm(file);
    });

    it('frees a dead process’s uploads at once, a silent one after the stale bound, and leaves presigned ones', async () => {
      const deadOwner = formatTag({ ...THIS_PROCESS, pid: await deadPid() });
      const crashed = await leftUpload(deadOwner, `crashed-${dialect}`);
      const elsewhere = await leftUpload(otherMachine(), `elsewhere-${dialect}`);
      const admin = bearer(await t.adminToken());
      const presigned = await t.json('/api/s3/presign', {
        method: 'POST',
        headers: admin,
        json: { filename: 'p.txt', size: 1 },
      });
      assert.equal(presigned.status, 200);

      assert.equal(await t.services.uploads.freeOrphanedStreams(), 1);
      assert.equal(await findFile(crashed), undefined);
      assert.ok(await findFile(elsewhere), 'another machine’s upload may still be alive');
      const again = new FormData();
      again.append('slug', `crashed-${dialect}`);
      again.append('file', new Blob(['x']), 'x.txt');
      assert.equal(
        (await t.json('/api/upload', { method: 'POST', headers: admin, body: again })).status,
        200,
      );

      t.clock.advance(60_000);
      assert.equal(await t.services.uploads.freeOrphanedStreams(), 0, 'silent for a minute is not enough');
      t.clock.advance(2 * 60_000);
      assert.equal(await t.services.uploads.freeOrphanedStreams(), 1);
      assert.equal(await findFile(elsewhere), undefined);
      assert.ok(await findFile(presigned.body.data.file_id), 'a presigned upload keeps its 24 hours');
    });

    it('never touches a live upload: its temp file stays, and its heartbeat keeps it from going stale', async () => {
      // A second service over the same database stands for another process: it sees the upload
      // only through the ledger, kept fresh by the heartbeat.
      const writer = new UploadsService({
        files: new FilesRepository(db()),
        uploads: new UploadsRepository(db()),
        storageConfigs: t.services.storageConfigs,
        objects: t.services.objects,
        settings: t.services.settings,
        clock: t.clock,
        logger: createLogger('silent'),
        streamTiming: { heartbeatMs: 20 },
        place: (principal, configId, folder) => t.services.vfs.shareUploadFolder(principal, configId, folder),
      });
      let feed!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
      const enc = new TextEncoder();
      feed.enqueue(enc.encode(formHead(`live-${dialect}`, 'live.bin')));
      feed.enqueue(new Uint8Array(MiB));
      const admin = (await t.services.auth.resolveSession(await t.adminToken()))!;
      const upload = writer.formUpload(admin, {
        body,
        contentType: `multipart/form-data; boundary=${boundary}`,
      });
      await until(async () => (await tempFiles(root)).length === 1, 'the upload to reach the disk');
      const [temp] = await tempFiles(root);
      await age(temp!, 48 * HOUR);

      t.clock.advance(10 * 60_000);
      const beat = t.clock.now().toISOString();
      await until(
        async () =>
          (await db().selectFrom('streamed_uploads').select('heartbeat_at').executeTakeFirst())
            ?.heartbeat_at === beat,
        'a heartbeat',
      );
      assert.equal(await t.services.uploads.freeOrphanedStreams(), 0);
      assert.equal(await writer.removeLeftoverTemps(), 0);
      assert.equal(await t.services.uploads.removeLeftoverTemps(), 0);
      assert.deepEqual(await tempFiles(root), [temp], 'the live write’s file stays');

      feed.enqueue(enc.encode(formTail));
      feed.close();
      const row = await upload;
      assert.equal(row.status, 'ready');
      assert.equal(row.size, MiB);
      assert.deepEqual(await tempFiles(root), []);
      assert.equal(
        (await db().selectFrom('streamed_uploads').select('file_id').execute()).length,
        0,
        'off the ledger once finished',
      );
    });
  });
}
