/**
 * The local-disk driver: the shared contract (with its presigned URLs served by the real routes on a
 * real HTTP server), then what only a disk has: confinement to the root, hidden internals, no
 * partial files, and the presign routes' own rules.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { serveApp } from '../../src/http/node-server.ts';
import { localLinkRoutes } from '../../src/modules/storage-links/local-links.routes.ts';
import { SignedLinks } from '../../src/vfs/signed-links.ts';
import { DRIVER_REGISTRY } from '../../src/storage/registry.ts';
import { LocalDriver } from '../../src/storage/drivers/local/local-driver.ts';
import {
  buildLocalPresignUrl,
  LOCAL_PRESIGN_MOUNT,
  parseLocalPresignQuery,
  verifyLocalSignature,
} from '../../src/storage/drivers/local/local-signature.ts';
import {
  type DriverHarness,
  ShiftableClock,
  expectCode,
  gatedStream,
  generatedStream,
  readAll,
  readText,
  runDriverContract,
  streamOf,
} from './contract.ts';

const SECRET = 'test-signing-secret-0123456789abcdef';

interface LocalHarness extends DriverHarness {
  driver: LocalDriver;
  root: string;
  baseUrl: string;
  app: Hono;
}

/** A driver on a fresh temp folder, with the presign routes served on a random 127.0.0.1 port. */
async function localHarness(): Promise<LocalHarness> {
  const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'cubby-local-driver-'));
  const clock = new ShiftableClock();
  const app = new Hono();
  // The routes find the driver (made below, once the port is known) by its config id.
  app.route(
    LOCAL_PRESIGN_MOUNT,
    localLinkRoutes(
      new SignedLinks({
        localDriver: async (id) => (id === driver.configId ? driver : undefined),
        driver: async (id) => (id === driver.configId ? driver : undefined),
        secret: SECRET,
        clock,
      }),
    ),
  );
  // Served as main.ts serves the app (connection handling included).
  let server!: Server;
  await new Promise<void>((resolve) => {
    server = serveApp({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const driver = new LocalDriver({
    root: nodePath.join(root, 'storage'),
    configId: 'cfg 1',
    publicBaseUrl: baseUrl,
    signingSecret: SECRET,
    clock,
  });
  return {
    driver,
    clock,
    root,
    baseUrl,
    app,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

runDriverContract('local', localHarness, DRIVER_REGISTRY.LOCAL.capabilities);

/** Every file under a folder, hidden ones included. */
async function allFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => nodePath.relative(dir, nodePath.join(e.parentPath, e.name)));
}

describe('local driver: disk specifics', () => {
  let h: LocalHarness;
  let storage: string;
  before(async () => {
    h = await localHarness();
    storage = nodePath.join(h.root, 'storage');
    await h.driver.stat('/'); // creates the root folder
  });
  after(() => h.close());

  it('never follows a link, whether it leads out of the root or inside it', async () => {
    const outside = nodePath.join(h.root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(nodePath.join(outside, 'secret.txt'), 'secret');
    await h.driver.write('/real/inside.txt', streamOf('inside'));
    await fs.symlink(outside, nodePath.join(storage, 'escape'));
    await fs.symlink(nodePath.join(storage, 'real'), nodePath.join(storage, 'alias'));
    await fs.symlink(nodePath.join(outside, 'secret.txt'), nodePath.join(storage, 'real', 'file-link.txt'));
    for (const link of ['/escape', '/alias']) {
      await expectCode(h.driver.read(`${link}/secret.txt`), 'FORBIDDEN');
      await expectCode(h.driver.read(`${link}/inside.txt`), 'FORBIDDEN');
      await expectCode(h.driver.stat(link), 'FORBIDDEN');
      await expectCode(h.driver.list(link), 'FORBIDDEN');
      await expectCode(h.driver.write(`${link}/new.txt`, streamOf('x')), 'FORBIDDEN');
      await expectCode(h.driver.write(`${link}/deeper/new.txt`, streamOf('x')), 'FORBIDDEN');
      await expectCode(h.driver.mkdir(`${link}/folder`), 'FORBIDDEN');
      await expectCode(h.driver.remove(`${link}/secret.txt`), 'FORBIDDEN');
      await expectCode(h.driver.remove(link), 'FORBIDDEN');
      await expectCode(h.driver.copy(link, '/copied'), 'FORBIDDEN');
      await expectCode(h.driver.move(link, '/moved'), 'FORBIDDEN');
      await expectCode(
        h.driver.multipart.init(`${link}/big.bin`).then(async ({ uploadId }) => {
          await h.driver.multipart.uploadPart(`${link}/big.bin`, uploadId, 1, streamOf('p'), { size: 1 });
          const parts = await h.driver.multipart.listParts(`${link}/big.bin`, uploadId);
          return h.driver.multipart.complete(`${link}/big.bin`, uploadId, parts);
        }),
        'FORBIDDEN',
      );
    }
    // A link to a file is no file either: not read, not listed, not copied with its folder.
    await expectCode(h.driver.read('/real/file-link.txt'), 'FORBIDDEN');
    assert.deepEqual(
      (await h.driver.list('/real')).entries.map((e) => e.name),
      ['inside.txt'],
    );
    await h.driver.copy('/real', '/real-copy');
    assert.deepEqual(await fs.readdir(nodePath.join(storage, 'real-copy')), ['inside.txt']);
    const rootNames = (await h.driver.list('/')).entries.map((e) => e.name);
    assert.ok(!rootNames.includes('escape') && !rootNames.includes('alias'), rootNames.join(','));
    // Nothing outside changed, and the links are still there as they were.
    assert.deepEqual(await fs.readdir(outside), ['secret.txt']);
    assert.equal(await fs.readlink(nodePath.join(storage, 'escape')), outside);
    await h.driver.remove('/real-copy', { recursive: true });
    // Removing the folder that holds a link removes the link, never what it points at.
    await h.driver.remove('/real', { recursive: true });
    assert.equal(await fs.readFile(nodePath.join(outside, 'secret.txt'), 'utf8'), 'secret');
    await fs.rm(nodePath.join(storage, 'escape'));
    await fs.rm(nodePath.join(storage, 'alias'));
  });

  it('a link swapped in while requests run never leads a read or a write out of the root', async () => {
    // Another process flips "/swap" between a real folder and a link to a folder outside, as fast as
    // it can, while reads, writes and folder creations go through it.
    const outside = nodePath.join(h.root, 'swap-outside');
    await fs.mkdir(outside);
    await fs.writeFile(nodePath.join(outside, 'a.txt'), 'OUTSIDE');
    await h.driver.write('/swap-real/a.txt', streamOf('inside'));
    await fs.symlink(outside, nodePath.join(storage, 'swap-link'));
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); process.chdir(${JSON.stringify(storage)});
         const end = Date.now() + 4000;
         let stray = 0;
         while (Date.now() < end) {
           for (const side of ['swap-real', 'swap-link']) {
             try { fs.renameSync(side, 'swap'); fs.renameSync('swap', side); }
             catch { try { fs.renameSync('swap', 'stray-' + stray++); } catch {} }
           }
         }`,
      ],
      { stdio: 'ignore' },
    );
    const flipped = new Promise((resolve) => flipper.on('exit', resolve));
    let running = true;
    void flipped.then(() => (running = false));
    const reads: string[] = [];
    let writes = 0;
    let i = 0;
    while (running) {
      const n = i++;
      const batch = await Promise.allSettled([
        readText(h.driver, '/swap/a.txt').then((text) => reads.push(text)),
        h.driver.write(`/swap/w-${n}.txt`, streamOf('w')).then(() => writes++),
        h.driver.mkdir(`/swap/d-${n}`),
        h.driver.stat('/swap/a.txt'),
      ]);
      assert.equal(batch.length, 4);
    }
    await flipped;
    assert.ok(reads.length > 20 && writes > 20, `${reads.length} reads and ${writes} writes went through`);
    assert.deepEqual([...new Set(reads)], ['inside'], 'a read came from outside the root');
    assert.deepEqual(await fs.readdir(outside), ['a.txt'], 'something was written outside the root');
    await fs.rm(nodePath.join(storage, 'swap-link'));
    for (const name of await fs.readdir(storage)) {
      if (name === 'swap-real' || name === 'swap' || name.startsWith('stray-'))
        await h.driver.remove(`/${name}`, { recursive: true });
    }
  });

  it('hides its multipart area and temp files, and refuses their names as paths', async () => {
    const { uploadId } = await h.driver.multipart.init('/hidden/upload.bin');
    await h.driver.multipart.uploadPart('/hidden/upload.bin', uploadId, 1, streamOf('part'), { size: 4 });
    const rootNames = (await h.driver.list('/')).entries.map((e) => e.name);
    assert.ok(!rootNames.some((n) => n.startsWith('.cubby-')), rootNames.join(','));
    assert.ok((await fs.readdir(storage)).includes('.cubby-multipart'), 'the parts are on disk');
    await expectCode(h.driver.list('/.cubby-multipart'), 'INVALID_PATH');
    await expectCode(h.driver.read(`/.cubby-multipart/${uploadId}/meta.json`), 'INVALID_PATH');
    await expectCode(h.driver.write('/a/.cubby-tmp-x', streamOf('x')), 'INVALID_PATH');
    await expectCode(h.driver.multipart.listParts('/hidden/upload.bin', '../../etc'), 'NOT_FOUND');
    await h.driver.multipart.abort('/hidden/upload.bin', uploadId);
    assert.deepEqual(await fs.readdir(nodePath.join(storage, '.cubby-multipart')), []);
  });

  it('leaves no temp file behind after a refused or failed write', async () => {
    await h.driver.mkdir('/clean');
    await expectCode(h.driver.write('/clean/over.bin', streamOf('0123456789'), { size: 3 }), 'TOO_LARGE');
    const failing = new ReadableStream<Uint8Array>({
      pull: (c) => c.error(new Error('broken client')),
    });
    await assert.rejects(h.driver.write('/clean/broken.bin', failing));
    assert.deepEqual(await allFiles(nodePath.join(storage, 'clean')), []);
  });

  it('shows a reader the old content until a write completes', async () => {
    await h.driver.write('/atomic.txt', streamOf('old'));
    const slow = gatedStream('new ', 'content');
    const writing = h.driver.write('/atomic.txt', slow.body);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await readText(h.driver, '/atomic.txt'), 'old');
    slow.release();
    await writing;
    assert.equal(await readText(h.driver, '/atomic.txt'), 'new content');
  });

  it('answers NOT_A_DIRECTORY when a parent of the path is a file', async () => {
    await h.driver.write('/plain.txt', streamOf('f'));
    await expectCode(h.driver.write('/plain.txt/child.txt', streamOf('x')), 'NOT_A_DIRECTORY');
    await expectCode(h.driver.list('/plain.txt'), 'NOT_A_DIRECTORY');
  });

  it('keeps the ETag across reads and changes it on every write, even of the same bytes', async () => {
    const first = await h.driver.write('/etag.txt', streamOf('same'));
    assert.equal((await h.driver.stat('/etag.txt')).etag, first.etag);
    const read = await h.driver.read('/etag.txt');
    await read.body.cancel();
    assert.equal(read.etag, first.etag);
    const second = await h.driver.write('/etag.txt', streamOf('same'));
    assert.notEqual(second.etag, first.etag);
  });
});

describe('local presigned URLs: signature rules', () => {
  const clock = { now: () => new Date('2026-06-01T00:00:00Z') };
  const exp = Math.floor(clock.now().getTime() / 1000) + 60;
  const signed = (overrides: Record<string, string> = {}) => {
    const url = buildLocalPresignUrl(
      'http://127.0.0.1:1/prefix/',
      { op: 'put', configId: 'c1', key: '/a b/文件 #?%.txt', exp, size: 10, contentType: 'text/plain' },
      SECRET,
    );
    for (const [name, value] of Object.entries(overrides)) url.searchParams.set(name, value);
    return parseLocalPresignQuery('put', 'c1', (name) => url.searchParams.get(name) ?? undefined)!;
  };

  it('builds URLs under the mount path of the public base URL', () => {
    const url = buildLocalPresignUrl(
      'https://cubby.example/base/',
      { op: 'get', configId: 'c1', key: '/x', exp },
      SECRET,
    );
    assert.equal(url.origin + url.pathname, `https://cubby.example/base${LOCAL_PRESIGN_MOUNT}/c1/get`);
  });

  it('accepts an untouched URL before its expiry', () => {
    assert.deepEqual(verifyLocalSignature(signed(), SECRET, clock), { ok: true });
  });

  it('refuses any change to a signed field', () => {
    for (const [name, value] of [
      ['key', '/a b/other.txt'],
      ['exp', String(exp + 3600)],
      ['size', '11'],
      ['ct', 'text/html'],
    ] as const) {
      assert.deepEqual(verifyLocalSignature(signed({ [name]: value }), SECRET, clock), {
        ok: false,
        reason: 'BAD_SIGNATURE',
      });
    }
    const params = signed();
    assert.equal(verifyLocalSignature({ ...params, op: 'get' }, SECRET, clock).ok, false);
    assert.equal(verifyLocalSignature({ ...params, configId: 'c2' }, SECRET, clock).ok, false);
    assert.equal(verifyLocalSignature(params, 'another secret', clock).ok, false);
  });

  it('refuses a malformed signature and an expired URL', () => {
    assert.deepEqual(verifyLocalSignature(signed({ sig: 'abc' }), SECRET, clock), {
      ok: false,
      reason: 'MALFORMED',
    });
    const params = signed();
    assert.deepEqual(verifyLocalSignature({ ...params, sig: params.sig.toUpperCase() }, SECRET, clock), {
      ok: false,
      reason: 'MALFORMED',
    });
    const later = { now: () => new Date((exp + 1) * 1000) };
    assert.deepEqual(verifyLocalSignature(params, SECRET, later), { ok: false, reason: 'EXPIRED' });
  });
});

describe('local presign routes', () => {
  let h: LocalHarness;
  before(async () => {
    h = await localHarness();
  });
  after(() => h.close());

  it('checks the signature before reading a byte of the body', async () => {
    const url = await h.driver.presignPut('/early.txt', {
      expiresIn: 60,
      contentType: 'text/plain',
      size: 4,
    });
    url.searchParams.set('sig', '0'.repeat(64));
    let pulled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          pulled = true;
          c.enqueue(new TextEncoder().encode('data'));
          c.close();
        },
      },
      { highWaterMark: 0 }, // pulled only when someone reads
    );
    const res = await h.app.request(url.pathname + url.search, {
      method: 'PUT',
      body,
      headers: { 'Content-Type': 'text/plain' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, 'FORBIDDEN');
    assert.equal(pulled, false, 'the body was not touched');
    await expectCode(h.driver.stat('/early.txt'), 'NOT_FOUND');
  });

  it('cuts off a streamed body (no Content-Length) at the signed size with 413, leaving no file', async () => {
    const url = await h.driver.presignPut('/streamed.bin', {
      expiresIn: 60,
      contentType: 'application/octet-stream',
      size: 1024 * 1024,
    });
    const res = await fetch(url, {
      method: 'PUT',
      body: generatedStream(8 * 1024 * 1024, 'flood'),
      headers: { 'Content-Type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    // The server may close the connection before the client has sent everything; either way it refused.
    // (@hono/node-server replaces the global Response, so fetch's answers are not `instanceof Response`.)
    if (res instanceof Error) assert.match(String(res), /fetch failed/);
    else assert.equal((res as Response).status, 413);
    await expectCode(h.driver.stat('/streamed.bin'), 'NOT_FOUND');
    assert.deepEqual(await allFiles(nodePath.join(h.root, 'storage')), []);
  });

  it('stores a streamed body of exactly the signed size', async () => {
    const size = 3 * 1024 * 1024 + 5;
    const url = await h.driver.presignPut('/exact.bin', {
      expiresIn: 60,
      contentType: 'application/x-test',
      size,
    });
    const res = await fetch(url, {
      method: 'PUT',
      body: generatedStream(size, 'exact'),
      headers: { 'Content-Type': 'application/x-test' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 200);
    assert.equal((await h.driver.stat('/exact.bin')).size, size);
  });

  it('answers HEAD with the size and ETag and no body', async () => {
    await h.driver.write('/head.txt', streamOf('twelve bytes'));
    const url = await h.driver.presignGet('/head.txt', { expiresIn: 60 });
    const res = await fetch(url, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), '12');
    assert.equal(res.headers.get('etag'), (await h.driver.stat('/head.txt')).etag);
  });

  it('serves suffix ranges and answers 416 with the size for a range past the end', async () => {
    await h.driver.write('/ranges.txt', streamOf('0123456789'));
    const url = await h.driver.presignGet('/ranges.txt', { expiresIn: 60 });
    const suffix = await fetch(url, { headers: { Range: 'bytes=-3' } });
    assert.equal(suffix.status, 206);
    assert.equal(suffix.headers.get('content-range'), 'bytes 7-9/10');
    assert.equal(await suffix.text(), '789');
    const past = await fetch(url, { headers: { Range: 'bytes=10-' } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), 'bytes */10');
    await past.arrayBuffer();
  });

  it('serves downloads so that they never run as pages of this origin', async () => {
    await h.driver.write('/page.html', streamOf('<script>alert(1)</script>'));
    const url = await h.driver.presignGet('/page.html', {
      expiresIn: 60,
      disposition: 'inline',
      contentType: 'text/html',
    });
    const res = await fetch(url);
    assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    await res.arrayBuffer();
  });

  it('answers 404 for a config it does not know, after the signature', async () => {
    const url = await h.driver.presignGet('/x.txt', { expiresIn: 60 });
    const other = new URL(url.href.replace('/cfg%201/', '/cfg%202/'));
    assert.equal((await fetch(other)).status, 403, 'the config id is signed');
    const missing = buildLocalPresignUrl(
      h.baseUrl,
      { op: 'get', configId: 'gone', key: '/x.txt', exp: Math.floor(Date.now() / 1000) + 60 },
      SECRET,
    );
    assert.equal((await fetch(missing)).status, 404);
  });

  it('refuses a part URL for an aborted upload with 404', async () => {
    const { uploadId } = await h.driver.multipart.init('/aborted.bin');
    const url = await h.driver.presignPart('/aborted.bin', uploadId, 1, { expiresIn: 60, size: 4 });
    await h.driver.multipart.abort('/aborted.bin', uploadId);
    const res = await fetch(url, { method: 'PUT', body: 'data' });
    assert.equal(res.status, 404);
  });

  it('streams a download range without reading the whole file', async () => {
    await h.driver.write('/big.bin', generatedStream(4 * 1024 * 1024, 'dl'));
    const url = await h.driver.presignGet('/big.bin', { expiresIn: 60 });
    const res = await fetch(url, { headers: { Range: 'bytes=1048576-1048585' } });
    assert.equal(res.status, 206);
    const expected = await readAll(
      (await h.driver.read('/big.bin', { range: { start: 1048576, end: 1048585 } })).body,
    );
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), expected);
  });
});
