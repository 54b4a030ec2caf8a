/**
 * The SFTP driver against a real OpenSSH server (test/support/sshd.ts, on 127.0.0.1): the shared
 * contract, then what only SFTP has: passwords, keys and host keys, an unreachable server, a missing
 * root, links on the server's side, the connection pool, connections dropped mid-transfer, and a
 * 1 GiB file through bounded memory.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageError, type StorageErrorCode, type StorageErrorReason } from '../../src/storage/driver.ts';
import {
  SFTP_CAPABILITIES,
  SftpDriver,
  type SftpDriverConfig,
} from '../../src/storage/drivers/sftp/sftp-driver.ts';
import { freePort } from '../support/server-process.ts';
import { startTestSshd, type TestSshd } from '../support/sshd.ts';
import {
  type DriverHarness,
  droppedStream,
  expectCode,
  generatedHash,
  generatedStream,
  hashStream,
  readAll,
  readText,
  runDriverContract,
  ShiftableClock,
  streamOf,
} from './contract.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const MiB = 1024 * 1024;

let sshd: TestSshd | undefined;
let starting: Promise<TestSshd> | undefined;
/** The one sshd of this file, started on first use. */
const server = (): Promise<TestSshd> => (starting ??= startTestSshd().then((s) => (sshd = s)));
after(() => sshd?.close());

/** A driver on a fresh root folder, signed in with the plain test key. */
async function sftpDriver(
  extra: Partial<SftpDriverConfig> = {},
): Promise<{ driver: SftpDriver; root: string; config: SftpDriverConfig }> {
  const s = await server();
  const root = await s.makeRoot();
  const config: SftpDriverConfig = {
    host: s.host,
    port: s.port,
    username: s.username,
    root,
    hostKeyFingerprint: null,
    privateKey: s.privateKey,
    ...extra,
  };
  return { driver: new SftpDriver(config), root, config };
}

async function sftpHarness(): Promise<DriverHarness> {
  const clock = new ShiftableClock();
  const { driver, root } = await sftpDriver({ clock });
  return {
    driver,
    clock,
    close: async () => {
      await driver.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

runDriverContract('sftp', sftpHarness, SFTP_CAPABILITIES);

async function expectFailure(
  promise: Promise<unknown>,
  code: StorageErrorCode,
  reason: StorageErrorReason,
  secrets: string[] = [],
): Promise<StorageError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof StorageError, `expected a StorageError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.reason, reason, caught.message);
  for (const secret of secrets) assert.ok(!caught.message.includes(secret), 'no secret in the message');
  return caught;
}

/** Every name below `dir` on the server's disk, hidden ones included. */
async function allNames(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  return entries.map(String).sort();
}

describe('sftp driver: signing in and reaching the server', () => {
  let s: TestSshd;
  before(async () => {
    s = await server();
  });

  it('signs in with a password, with a key, and with a key sealed by its passphrase', async () => {
    const logins: Array<Partial<SftpDriverConfig>> = [
      { password: s.password, privateKey: undefined },
      { privateKey: s.privateKey },
      { privateKey: s.sealedKey, passphrase: s.passphrase },
    ];
    for (const login of logins) {
      const { driver } = await sftpDriver(login);
      try {
        await driver.write('/hello.txt', streamOf('hello'));
        assert.equal(await readText(driver, '/hello.txt'), 'hello');
      } finally {
        await driver.close();
      }
    }
  });

  it("refuses a wrong password or passphrase with FORBIDDEN 'auth', naming no secret", async () => {
    const wrong = 'wrong-Password-123';
    const { driver } = await sftpDriver({ password: wrong, privateKey: undefined });
    await expectFailure(driver.stat('/'), 'FORBIDDEN', 'auth', [wrong]);
    await driver.close();
    const sealed = await sftpDriver({ privateKey: s.sealedKey, passphrase: 'not the passphrase' });
    await expectFailure(sealed.driver.stat('/'), 'FORBIDDEN', 'auth', ['not the passphrase']);
    await sealed.driver.close();
    const garbage = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n-----END OPENSSH PRIVATE KEY-----\n';
    const broken = await sftpDriver({ privateKey: garbage });
    await expectFailure(broken.driver.stat('/'), 'FORBIDDEN', 'auth', ['not a key']);
    await broken.driver.close();
    // An account the server does not know, with the right key: refused the same way.
    const stranger = await sftpDriver({ username: 'no-such-user-4711' });
    await expectFailure(stranger.driver.stat('/'), 'FORBIDDEN', 'auth');
    assert.equal(stranger.driver.hostKey(), s.hostKeyFingerprint, 'the host key is seen before signing in');
    await stranger.driver.close();
  });

  it("answers UNAVAILABLE 'unreachable' within seconds when nothing listens", async () => {
    const { driver } = await sftpDriver({ port: await freePort() });
    const started = Date.now();
    await expectFailure(driver.stat('/'), 'UNAVAILABLE', 'unreachable');
    assert.ok(Date.now() - started < 5000);
    await driver.close();
  });

  it("answers UNAVAILABLE 'unreachable' on the connect timeout when the server never answers", async () => {
    // A listener that accepts and says nothing, as a firewall that swallows packets would.
    const silent = await import('node:net').then((net) => net.createServer(() => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const { driver } = await sftpDriver({ port, tuning: { readyTimeoutMs: 800 } });
    const started = Date.now();
    await expectFailure(driver.stat('/'), 'UNAVAILABLE', 'unreachable');
    assert.ok(Date.now() - started < 3000, `${Date.now() - started} ms`);
    await driver.close();
    silent.close();
  });

  it("answers UNAVAILABLE 'folder_missing' when the root folder is not there, or is a file", async () => {
    const { driver, root } = await sftpDriver();
    await driver.close();
    for (const missing of [nodePath.join(root, 'no', 'such'), nodePath.join(root, 'file.txt')]) {
      await fs.writeFile(nodePath.join(root, 'file.txt'), 'x');
      const other = (await sftpDriver({ root: missing })).driver;
      await expectFailure(other.stat('/'), 'UNAVAILABLE', 'folder_missing');
      await other.close();
    }
  });

  it('serves "/" as its root: the whole server, paths as they are there', async () => {
    const { driver: inside, root } = await sftpDriver();
    const { driver: whole } = await sftpDriver({ root: '/' });
    try {
      await inside.write('/a.txt', streamOf('through the root folder'));
      assert.equal(await readText(whole, `${root}/a.txt`), 'through the root folder');
      assert.equal((await whole.stat('/')).isDirectory, true);
    } finally {
      await inside.close();
      await whole.close();
    }
  });
});

describe('sftp driver: host keys', () => {
  let s: TestSshd;
  before(async () => {
    s = await server();
  });

  it('records the host key it saw when none is pinned, as ssh-keygen -lf prints it', async () => {
    const { driver } = await sftpDriver();
    assert.equal(driver.hostKey(), undefined, 'nothing seen before the first connection');
    await driver.stat('/');
    assert.equal(driver.hostKey(), s.hostKeyFingerprint);
    await driver.close();
  });

  it('works with the right key pinned (padding or not)', async () => {
    for (const pinned of [s.hostKeyFingerprint, `${s.hostKeyFingerprint}=`]) {
      const { driver } = await sftpDriver({ hostKeyFingerprint: pinned });
      await driver.write('/pinned.txt', streamOf('ok'));
      assert.equal(await readText(driver, '/pinned.txt'), 'ok');
      await driver.close();
    }
  });

  it("refuses a server whose key is not the pinned one: FORBIDDEN 'host_key', naming the new key", async () => {
    const pinned = 'SHA256:' + 'A'.repeat(43);
    const { driver } = await sftpDriver({ hostKeyFingerprint: pinned, password: s.password });
    const error = await expectFailure(driver.stat('/'), 'FORBIDDEN', 'host_key', [s.password]);
    assert.match(error.message, /changed/);
    assert.ok(error.message.includes(s.hostKeyFingerprint), error.message);
    // Every later call checks again: no connection was kept.
    await expectFailure(driver.read('/x'), 'FORBIDDEN', 'host_key');
    await driver.close();
  });
});

describe('sftp driver: confinement', () => {
  let driver: SftpDriver;
  let root: string;
  let outside: string;
  before(async () => {
    ({ driver, root } = await sftpDriver());
    outside = await fs.mkdtemp(nodePath.join(nodePath.dirname(root), 'outside-'));
    await fs.writeFile(nodePath.join(outside, 'secret.txt'), 'secret');
  });
  after(async () => {
    await driver.close();
  });

  it('refuses paths above the root, whether written or encoded', async () => {
    await expectCode(driver.stat('/../outside'), 'INVALID_PATH');
    await expectCode(driver.read('/a/../../secret.txt'), 'INVALID_PATH');
    // Driver paths arrive decoded: "%2e%2e" is a name like any other, inside the root.
    await expectCode(driver.read(`/%2e%2e/${nodePath.basename(outside)}/secret.txt`), 'NOT_FOUND');
    await driver.write('/%2e%2e/kept.txt', streamOf('inside'));
    assert.equal(await fs.readFile(nodePath.join(root, '%2e%2e', 'kept.txt'), 'utf8'), 'inside');
  });

  it('never follows a link on the server, whether it leads out of the root or inside it', async () => {
    await driver.write('/real/inside.txt', streamOf('inside'));
    await fs.symlink(outside, nodePath.join(root, 'escape'));
    await fs.symlink(nodePath.join(root, 'real'), nodePath.join(root, 'alias'));
    await fs.symlink(nodePath.join(outside, 'secret.txt'), nodePath.join(root, 'real', 'file-link.txt'));
    for (const link of ['/escape', '/alias']) {
      await expectCode(driver.read(`${link}/secret.txt`), 'FORBIDDEN');
      await expectCode(driver.read(`${link}/inside.txt`), 'FORBIDDEN');
      await expectCode(driver.stat(link), 'FORBIDDEN');
      await expectCode(driver.list(link), 'FORBIDDEN');
      await expectCode(driver.write(`${link}/new.txt`, streamOf('x')), 'FORBIDDEN');
      await expectCode(driver.write(`${link}/deeper/new.txt`, streamOf('x')), 'FORBIDDEN');
      await expectCode(driver.mkdir(`${link}/folder`), 'FORBIDDEN');
      await expectCode(driver.remove(`${link}/secret.txt`), 'FORBIDDEN');
      await expectCode(driver.copy(link, '/copied'), 'FORBIDDEN');
      await expectCode(driver.move(link, '/moved'), 'FORBIDDEN');
      await expectCode(driver.copy('/real/inside.txt', `${link}/into.txt`), 'FORBIDDEN');
      await expectCode(driver.multipart.init(`${link}/big.bin`), 'FORBIDDEN');
    }
    const refused = await driver.read('/real/file-link.txt').catch((error: unknown) => error);
    assert.ok(refused instanceof StorageError);
    assert.equal(refused.code, 'FORBIDDEN');
    assert.equal(refused.reason, 'permission');
    // Links are not listed, and a copied folder leaves them out.
    assert.deepEqual(
      (await driver.list('/real')).entries.map((e) => e.name),
      ['inside.txt'],
    );
    const rootNames = (await driver.list('/')).entries.map((e) => e.name);
    assert.ok(!rootNames.includes('escape') && !rootNames.includes('alias'), rootNames.join(','));
    await driver.copy('/real', '/real-copy');
    assert.deepEqual(await fs.readdir(nodePath.join(root, 'real-copy')), ['inside.txt']);
    // Removing a folder that holds a link removes the link, never what it points at.
    await driver.remove('/real', { recursive: true });
    assert.equal(await fs.readFile(nodePath.join(outside, 'secret.txt'), 'utf8'), 'secret');
    assert.deepEqual(await fs.readdir(outside), ['secret.txt']);
    assert.equal(await fs.readlink(nodePath.join(root, 'escape')), outside);
  });

  it('lists a folder only once no link is on its way: a link to a folder, or one above it, is refused', async () => {
    await fs.mkdir(nodePath.join(root, 'kept', 'sub'), { recursive: true });
    await fs.writeFile(nodePath.join(root, 'kept', 'sub', 'inner.txt'), 'inner');
    await fs.writeFile(nodePath.join(root, 'kept', 'file.txt'), 'file');
    await fs.symlink(nodePath.join(root, 'kept'), nodePath.join(root, 'kept-alias'));
    await fs.symlink(outside, nodePath.join(root, 'kept', 'out'));
    for (const link of ['/kept-alias', '/kept-alias/sub', '/kept/out']) {
      const refused = await driver.list(link).catch((error: unknown) => error);
      assert.ok(refused instanceof StorageError, link);
      assert.equal(refused.code, 'FORBIDDEN', link);
      assert.equal(refused.reason, 'permission', link);
    }
    await expectCode(driver.list('/kept/missing'), 'NOT_FOUND');
    await expectCode(driver.list('/kept/file.txt'), 'NOT_A_DIRECTORY');
    assert.deepEqual(
      (await driver.list('/kept/sub')).entries.map((e) => e.name),
      ['inner.txt'],
    );
  });

  it('lists a folder of 1,000 entries whole and page by page, in byte order of UTF-8 names', async () => {
    const dir = nodePath.join(root, 'big');
    await fs.mkdir(dir);
    // Above U+FFFF next to U+E000 and up: UTF-16 order and byte order differ there.
    const names = ['😀 smile', 'Ａ wide', '\ue000 private', 'é', 'z'];
    for (let i = 0; i < 995; i++) names.push(`f-${i}`);
    await Promise.all(names.map((name) => fs.writeFile(nodePath.join(dir, name), name)));
    const sorted = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual(
      (await driver.list('/big')).entries.map((e) => e.name),
      sorted,
    );
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await driver.list('/big', { limit: 300, ...(cursor ? { cursor } : {}) });
      paged.push(...page.entries.map((e) => e.name));
      cursor = page.cursor;
    } while (cursor);
    assert.deepEqual(paged, sorted);
  });

  it('hides its own files and refuses them as paths', async () => {
    await fs.writeFile(nodePath.join(root, '.cubby-tmp-leftover'), 'half');
    assert.ok(!(await driver.list('/')).entries.some((e) => e.name.startsWith('.cubby-')));
    await expectCode(driver.read('/.cubby-tmp-leftover'), 'INVALID_PATH');
    await expectCode(driver.write('/.cubby-multipart/x', streamOf('x')), 'INVALID_PATH');
  });

  it('sweeps temp files older than the limit, anywhere below the root, and no others', async () => {
    await fs.mkdir(nodePath.join(root, 'deep', 'er'), { recursive: true });
    const old = nodePath.join(root, 'deep', 'er', '.cubby-tmp-old');
    await fs.writeFile(old, 'crashed write');
    const past = new Date(Date.now() - 3 * 3600_000);
    await fs.utimes(old, past, past);
    await fs.writeFile(nodePath.join(root, 'deep', '.cubby-tmp-fresh'), 'a write under way');
    assert.equal(await driver.sweepTemp(3600_000), 1);
    assert.deepEqual(await fs.readdir(nodePath.join(root, 'deep', 'er')), []);
    assert.deepEqual((await fs.readdir(nodePath.join(root, 'deep'))).sort(), ['.cubby-tmp-fresh', 'er']);
  });
});

describe('sftp driver: connections', () => {
  it('shares at most four connections between many calls, and closes idle ones', async () => {
    const s = await server();
    const proxy = await startTcpProxy(`http://127.0.0.1:${s.port}`);
    const { driver } = await sftpDriver({
      port: proxy.port,
      tuning: { idleMs: 300 },
    });
    try {
      await driver.write('/f.txt', streamOf('x'));
      await Promise.all(Array.from({ length: 40 }, () => driver.stat('/f.txt')));
      assert.ok(proxy.accepted() <= 4, `${proxy.accepted()} connections`);
      // A download holds its session: the others still answer.
      const held = await driver.read('/f.txt');
      await driver.stat('/f.txt');
      await readAll(held.body);
      for (let i = 0; i < 100 && proxy.open() > 0; i++) await sleep(20);
      assert.equal(proxy.open(), 0, 'idle connections are closed');
      assert.equal(await readText(driver, '/f.txt'), 'x', 'and opened again when needed');
    } finally {
      await driver.close();
      for (let i = 0; i < 100 && proxy.open() > 0; i++) await sleep(20);
      assert.equal(proxy.open(), 0, 'close() ends every connection');
      await proxy.close();
    }
  });

  it('fails a read cut off by the server going away with UNAVAILABLE, then reconnects', async () => {
    const s = await server();
    const { driver, root } = await sftpDriver();
    try {
      const size = 32 * MiB;
      await driver.write('/big.bin', generatedStream(size, 'drop-read'));
      const reader = (await driver.read('/big.bin')).body.getReader();
      assert.ok((await reader.read()).value);
      await s.stop();
      const started = Date.now();
      const error = await (async () => {
        try {
          for (;;) if ((await reader.read()).done) return undefined;
        } catch (caught) {
          return caught;
        }
      })();
      assert.ok(error instanceof StorageError, `a short body must fail: ${String(error)}`);
      assert.equal(error.code, 'UNAVAILABLE');
      assert.ok(Date.now() - started < 5000);
      await expectFailure(driver.stat('/big.bin'), 'UNAVAILABLE', 'unreachable');
      await s.start();
      assert.deepEqual(await hashStream((await driver.read('/big.bin')).body), {
        sha256: generatedHash(size, 'drop-read'),
        bytes: size,
      });
      assert.deepEqual(await allNames(root), ['big.bin']);
    } finally {
      await s.start().catch(() => undefined);
      await driver.close();
    }
  });

  it('fails a write cut off by the server going away with UNAVAILABLE, stores nothing, then reconnects', async () => {
    const s = await server();
    const { driver, root } = await sftpDriver();
    try {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          // After 4 MiB the server goes away; then the body carries on.
          if (sent === 4 * MiB) await s.stop();
          if (sent >= 64 * MiB) return controller.close();
          sent += 256 * 1024;
          controller.enqueue(new Uint8Array(256 * 1024).fill(1));
        },
      });
      const started = Date.now();
      await expectFailure(driver.write('/cut.bin', body), 'UNAVAILABLE', 'unreachable');
      assert.ok(Date.now() - started < 10_000);
      assert.ok(sent < 64 * MiB, 'the write stopped when the connection did');
      await s.start();
      assert.deepEqual((await driver.list('/')).entries, [], 'nothing half-written is listed');
      // The temp file the server made is hidden (and swept once old).
      assert.ok((await allNames(root)).every((n) => n.startsWith('.cubby.tmp-')));
      await driver.write('/after.txt', streamOf('back'));
      assert.equal(await readText(driver, '/after.txt'), 'back');
    } finally {
      await s.start().catch(() => undefined);
      await driver.close();
    }
  });
});

describe('sftp driver: writes', () => {
  it("fails with the body's own error when the sender goes away, storing nothing", async () => {
    const { driver, root } = await sftpDriver();
    try {
      await assert.rejects(driver.write('/gone.bin', droppedStream(3 * MiB, 'gone')), /client went away/);
      assert.deepEqual(await allNames(root), [], 'the temp file is removed');
      const { uploadId } = await driver.multipart.init('/gone-parts.bin');
      await assert.rejects(
        driver.multipart.uploadPart('/gone-parts.bin', uploadId, 1, droppedStream(MiB, 'p'), {
          size: 5 * MiB,
        }),
        /client went away/,
      );
      assert.deepEqual(await driver.multipart.listParts('/gone-parts.bin', uploadId), []);
    } finally {
      await driver.close();
    }
  });

  it('writes a body of large odd-sized chunks byte for byte (each sent as several requests at once)', async () => {
    const { driver, root } = await sftpDriver();
    try {
      // 7 chunks of 700,001 bytes: more than the bytes kept in flight, none a multiple of a request.
      const chunks = Array.from({ length: 7 }, (_, i) => Buffer.alloc(700_001, `chunk ${i};`));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      const expected = Buffer.concat(chunks);
      const { size } = await driver.write('/odd.bin', body);
      assert.equal(size, expected.length);
      assert.ok((await fs.readFile(nodePath.join(root, 'odd.bin'))).equals(expected));
    } finally {
      await driver.close();
    }
  });

  it('gives a rewrite of the same size in the same second a new ETag and a later time', async () => {
    const { driver } = await sftpDriver();
    try {
      const etags = new Set<string>();
      let last = 0;
      for (let i = 0; i < 3; i++) {
        const { etag } = await driver.write('/same.txt', streamOf(`v${i}`));
        etags.add(etag!);
        const modified = (await driver.stat('/same.txt')).modified!.getTime();
        assert.ok(modified > last, 'each version is dated after the one it replaced');
        last = modified;
      }
      assert.equal(etags.size, 3);
      assert.ok(last - Date.now() < 5000, 'never far in the future');
    } finally {
      await driver.close();
    }
  });
});

describe('sftp driver: a 1 GiB file through bounded memory', () => {
  it('writes and reads back 1 GiB (sha256 equal) with RSS growing by less than 64 MiB', async (t) => {
    const { driver, root } = await sftpDriver();
    const size = 1024 * MiB;
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const written = await driver.write('/huge.bin', generatedStream(size, 'gib'), { size });
      assert.equal(written.size, size);
      const read = await driver.read('/huge.bin');
      assert.deepEqual(await hashStream(read.body), { sha256: generatedHash(size, 'gib'), bytes: size });
    } finally {
      clearInterval(sampler);
      await driver.close();
      await fs.rm(root, { recursive: true, force: true });
    }
    const growth = (peak - base) / MiB;
    t.diagnostic(`RSS growth ${growth.toFixed(1)} MiB`);
    assert.ok(growth < 64, `RSS grew by ${growth.toFixed(1)} MiB`);
  });
});
