/**
 * The FTP driver on a real pure-ftpd (test/support/ftpd.ts): the shared contract over plain FTP and
 * over explicit TLS, then what only FTP has: the LIST fallback, ranged reads that leave the
 * connection usable, sign-in and TLS failures with their reasons, dropped connections, links on the
 * server, and a 1 GiB file in bounded memory.
 */
import assert from 'node:assert/strict';
import { access, chown, lchown, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  FTP_CAPABILITIES,
  FtpDriver,
  type FtpDriverConfig,
} from '../../src/storage/drivers/ftp/ftp-driver.ts';
import { StorageError, type StorageErrorCode, type StorageErrorReason } from '../../src/storage/driver.ts';
import { type FtpSettings, ftpDriverConfig } from '../../src/storage/drivers/ftp/ftp-settings.ts';
import { startTestFtpd, type TestFtpd } from '../support/ftpd.ts';
import { freePort } from '../support/server-process.ts';
import {
  type DriverHarness,
  ShiftableClock,
  expectCode,
  generatedHash,
  generatedStream,
  hashStream,
  readAll,
  readText,
  runDriverContract,
  streamOf,
} from './contract.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const MiB = 1024 * 1024;

/** The driver config a stored FTP config of `server` gives (its settings JSON and sealed password). */
function configOf(server: TestFtpd, extra: Partial<FtpDriverConfig> = {}): FtpDriverConfig {
  const settings: FtpSettings = {
    host: server.host,
    port: server.port,
    username: server.username,
    root: server.root,
    tls: server.certFile ? 'explicit' : 'none',
    tls_insecure_skip_verify: Boolean(server.certFile),
  };
  const deps = { configId: 'ftp-test', publicBaseUrl: 'http://127.0.0.1', signingSecret: 'unused' };
  return { ...ftpDriverConfig(settings, { password: server.password }, deps), ...extra };
}

function harnessOn(server: () => TestFtpd, extra: Partial<FtpDriverConfig> = {}) {
  return async (): Promise<DriverHarness & { driver: FtpDriver }> => {
    const clock = new ShiftableClock();
    const driver = new FtpDriver({ ...configOf(server(), extra), clock });
    return { driver, clock, close: () => driver.close() };
  };
}

let plain: TestFtpd;
let secure: TestFtpd;
before(async () => {
  [plain, secure] = await Promise.all([startTestFtpd(), startTestFtpd({ tls: true })]);
});
after(async () => {
  await Promise.all([plain?.close(), secure?.close()]);
});

runDriverContract(
  'ftp (pure-ftpd)',
  harnessOn(() => plain),
  FTP_CAPABILITIES,
);
runDriverContract(
  'ftps (pure-ftpd, explicit TLS)',
  harnessOn(() => secure),
  FTP_CAPABILITIES,
);

/** Rejects with a StorageError of `code` and `reason` whose message holds no password. */
async function expectFailure(
  promise: Promise<unknown>,
  code: StorageErrorCode,
  reason: StorageErrorReason,
  password: string,
): Promise<StorageError> {
  let caught: unknown;
  await promise.catch((error: unknown) => (caught = error));
  assert.ok(caught instanceof StorageError, `expected StorageError(${code}), got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.reason, reason, caught.message);
  assert.ok(!caught.message.includes(password), 'the message holds no password');
  assert.ok(!String(caught.cause).includes(password), 'the cause holds no password');
  return caught;
}

describe('ftp driver on pure-ftpd', () => {
  let driver: FtpDriver;
  before(() => {
    driver = new FtpDriver(configOf(plain));
  });
  after(async () => {
    await driver.close();
  });

  describe('listing', () => {
    // Above U+FFFF next to U+E000 and up: UTF-16 order and the byte order of UTF-8 differ there.
    const names = ['b.txt', 'a.txt', 'Zeta', '中文', 'a b', 'a#b', 'sub', '😀 smile', 'Ａ wide'];
    const sorted = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    before(async () => {
      for (const name of names) {
        if (name === 'sub') await driver.mkdir(`/listing/${name}`);
        else await driver.write(`/listing/${name}`, streamOf(name));
      }
    });

    it('uses MLSD where the server offers it: exact modification times', async () => {
      const { entries } = await driver.list('/listing');
      assert.deepEqual(
        entries.map((e) => e.name),
        sorted,
      );
      const file = entries.find((e) => e.name === 'a.txt')!;
      assert.ok(file.modified instanceof Date && Math.abs(file.modified.getTime() - Date.now()) < 120_000);
      assert.equal(file.etag, (await driver.stat('/listing/a.txt')).etag);
    });

    it('falls back to LIST parsing when MLSD is not used: same names, order, sizes and pages', async () => {
      const listing = new FtpDriver(configOf(plain, { listing: 'list' }));
      try {
        const first = await listing.list('/listing', { limit: 5 });
        const second = await listing.list('/listing', { cursor: first.cursor!, limit: 5 });
        assert.equal(second.cursor, undefined);
        const entries = [...first.entries, ...second.entries];
        assert.deepEqual(
          entries.map((e) => e.name),
          sorted,
        );
        assert.deepEqual(
          entries.map((e) => [e.isDirectory, e.size]),
          sorted.map((n) => (n === 'sub' ? [true, 0] : [false, Buffer.byteLength(n)])),
        );
        // LIST shows times to the minute at best: the driver does not pretend to know them.
        assert.equal(entries[0]!.modified, null);
        assert.equal((await listing.stat('/listing/中文')).size, Buffer.byteLength('中文'));
        assert.equal(await readText(listing, '/listing/a b'), 'a b');
        await expectCode(listing.stat('/listing/missing'), 'NOT_FOUND');
        await expectCode(listing.list('/listing/a.txt'), 'NOT_A_DIRECTORY');
      } finally {
        await listing.close();
      }
    });
  });

  describe('ranged reads', () => {
    const size = 5 * MiB;
    before(async () => {
      await driver.write('/ranged/big.bin', generatedStream(size, 'ranged'));
    });

    it('stop after the range end and leave the one connection usable for the next call', async () => {
      // One connection only, counted on the wire: a transfer not ended cleanly would leave the
      // connection out of step (a late reply taken as the next command's) or closed and replaced.
      const proxy = await startTcpProxy(`ftp://${plain.host}:${plain.port}`);
      const single = new FtpDriver({
        ...configOf(plain),
        port: proxy.port,
        maxClients: 1,
      });
      try {
        const whole = await readAll((await single.read('/ranged/big.bin')).body);
        for (const [start, end] of [
          [0, 99],
          [MiB, 2 * MiB - 1],
          [size - 10, size - 1],
        ] as const) {
          const got = await single.read('/ranged/big.bin', { range: { start, end } });
          assert.deepEqual(got.range, { start, end });
          assert.deepEqual(await readAll(got.body), whole.subarray(start, end + 1));
          assert.equal((await single.stat('/ranged/big.bin')).size, size, 'the next call works');
        }
        // Readers that stop after their first chunk: each transfer is cut while the server still
        // sends (pure-ftpd then answers a command sent at once with 500, and ends the transfer
        // with a line of that same code). Every next call gets its own answer.
        for (let i = 0; i < 12; i++) {
          const reader = (await single.read('/ranged/big.bin')).body.getReader();
          await reader.read();
          await reader.cancel();
          assert.equal((await single.stat('/ranged/big.bin')).size, size, `the call after cut ${i}`);
          assert.deepEqual(
            (await single.list('/ranged')).entries.map((e) => e.name),
            ['big.bin'],
          );
        }
        assert.equal(
          (await hashStream((await single.read('/ranged/big.bin')).body)).sha256,
          generatedHash(size, 'ranged'),
        );
        assert.equal(proxy.accepted(), 1, 'every call ran on the one control connection');
      } finally {
        await single.close();
        await proxy.close();
      }
    });
  });

  describe('failures say why', () => {
    it('a wrong password: FORBIDDEN, reason auth', async () => {
      const wrong = new FtpDriver({ ...configOf(plain), password: 'not-the-Password-42' });
      try {
        await expectFailure(wrong.stat('/'), 'FORBIDDEN', 'auth', 'not-the-Password-42');
      } finally {
        await wrong.close();
      }
    });

    it('a port nothing listens on: UNAVAILABLE, reason unreachable', async () => {
      const nowhere = new FtpDriver({ ...configOf(plain), port: await freePort() });
      try {
        const started = Date.now();
        await expectFailure(nowhere.list('/'), 'UNAVAILABLE', 'unreachable', plain.password);
        assert.ok(Date.now() - started < 5000);
      } finally {
        await nowhere.close();
      }
    });

    it('a root folder that does not exist: UNAVAILABLE, reason folder_missing', async () => {
      const missing = new FtpDriver({ ...configOf(plain), root: '/no-such-folder' });
      try {
        await expectFailure(missing.stat('/'), 'UNAVAILABLE', 'folder_missing', plain.password);
      } finally {
        await missing.close();
      }
    });

    it('FTPS with a self-signed certificate and verification on: UNAVAILABLE, reason tls', async () => {
      const strict = new FtpDriver({ ...configOf(secure), tlsInsecureSkipVerify: false });
      try {
        await expectFailure(strict.stat('/'), 'UNAVAILABLE', 'tls', secure.password);
      } finally {
        await strict.close();
      }
    });

    it('explicit TLS asked of a server without TLS: UNAVAILABLE, reason tls', async () => {
      const noTls = new FtpDriver({ ...configOf(plain), tls: 'explicit', tlsInsecureSkipVerify: true });
      try {
        await expectFailure(noTls.stat('/'), 'UNAVAILABLE', 'tls', plain.password);
      } finally {
        await noTls.close();
      }
    });
  });

  describe('a dropped connection', () => {
    it('mid-read fails UNAVAILABLE within seconds; the next call reconnects', async () => {
      await driver.write('/dropped/read.bin', generatedStream(40 * MiB, 'drop'));
      const reader = (await driver.read('/dropped/read.bin')).body.getReader();
      await reader.read();
      const started = Date.now();
      await plain.stop();
      try {
        await assert.rejects(
          (async () => {
            for (;;) if ((await reader.read()).done) break;
          })(),
          (error: unknown) => error instanceof StorageError && error.code === 'UNAVAILABLE',
        );
        assert.ok(Date.now() - started < 5000, `failed after ${Date.now() - started} ms`);
      } finally {
        await plain.start();
      }
      assert.equal((await driver.stat('/dropped/read.bin')).size, 40 * MiB);
    });

    it('mid-write fails UNAVAILABLE, lists nothing half-written, and the next write works', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === 4) await gate;
          if (sent === 8) return controller.close();
          sent++;
          controller.enqueue(new Uint8Array(256 * 1024).fill(sent));
        },
      });
      const writing = driver.write('/dropped/write.bin', body);
      writing.catch(() => undefined);
      while (sent < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      await plain.stop();
      const started = Date.now();
      release();
      try {
        await expectCode(writing, 'UNAVAILABLE');
        assert.ok(Date.now() - started < 5000, `failed after ${Date.now() - started} ms`);
      } finally {
        await plain.start();
      }
      assert.deepEqual(
        (await driver.list('/dropped')).entries.map((e) => e.name),
        ['read.bin'],
      );
      await expectCode(driver.stat('/dropped/write.bin'), 'NOT_FOUND');
      // The server kept the cut temp file (hidden); a sweep removes it.
      const folder = path.join(plain.home, 'storage', 'dropped');
      const temps = (await readdir(folder)).filter((n) => n.startsWith('.cubby.tmp-'));
      assert.equal(await driver.sweepTemp(0), temps.length);
      assert.deepEqual((await readdir(folder)).sort(), ['read.bin']);
      await driver.write('/dropped/write.bin', streamOf('whole'));
      assert.equal(await readText(driver, '/dropped/write.bin'), 'whole');
    });
  });

  describe('confinement', () => {
    before(async () => {
      const outside = path.join(plain.home, 'outside');
      await writeFile(path.join(outside, 'secret.txt'), 'secret');
      const inside = path.join(plain.home, 'storage', 'jail');
      await mkdir(inside, { recursive: true });
      await writeFile(path.join(inside, 'plain.txt'), 'plain');
      // Relative links: they lead out of the driver's root inside the server's own view.
      await symlink('../../outside', path.join(inside, 'escape'));
      await symlink('../../outside/secret.txt', path.join(inside, 'secret.txt'));
      // As if the FTP user had made them (it may remove what is its own).
      await chown(inside, 65534, 65534);
      for (const name of ['plain.txt', 'escape', 'secret.txt'])
        await lchown(path.join(inside, name), 65534, 65534);
    });

    it('never lists, stats, reads, enters or writes through a link on the server', async () => {
      assert.deepEqual(
        (await driver.list('/jail')).entries.map((e) => e.name),
        ['plain.txt'],
      );
      await expectCode(driver.stat('/jail/secret.txt'), 'FORBIDDEN');
      await expectCode(driver.read('/jail/secret.txt'), 'FORBIDDEN');
      await expectCode(driver.stat('/jail/escape'), 'FORBIDDEN');
      await expectCode(driver.list('/jail/escape'), 'FORBIDDEN');
      await expectCode(driver.read('/jail/escape/secret.txt'), 'FORBIDDEN');
      await expectCode(driver.write('/jail/escape/new.txt', streamOf('x')), 'FORBIDDEN');
      await expectCode(driver.remove('/jail/escape/secret.txt'), 'FORBIDDEN');
      assert.deepEqual(await readdir(path.join(plain.home, 'outside')), ['secret.txt']);
    });

    it('lists a folder only when no link is on its way, and tells a missing folder from a file', async () => {
      const inside = path.join(plain.home, 'storage', 'jail');
      await mkdir(path.join(inside, 'real', 'sub'), { recursive: true });
      await symlink('real', path.join(inside, 'alias'));
      for (const name of ['real', 'real/sub']) await chown(path.join(inside, name), 65534, 65534);
      await lchown(path.join(inside, 'alias'), 65534, 65534);
      for (const link of ['/jail/escape', '/jail/alias', '/jail/alias/sub']) {
        await expectCode(driver.list(link), 'FORBIDDEN');
      }
      await expectCode(driver.list('/jail/missing'), 'NOT_FOUND');
      await expectCode(driver.list('/jail/plain.txt'), 'NOT_A_DIRECTORY');
      assert.deepEqual(
        (await driver.list('/jail/real')).entries.map((e) => e.name),
        ['sub'],
      );
    });

    it('refuses paths above the root and takes %2e%2e as a plain name', async () => {
      await expectCode(driver.stat('/../outside/secret.txt'), 'INVALID_PATH');
      await expectCode(driver.read('/jail/../../outside/secret.txt'), 'INVALID_PATH');
      await expectCode(driver.read('/%2e%2e/outside/secret.txt'), 'NOT_FOUND');
      await driver.write('/%2e%2e/x.txt', streamOf('literal'));
      await access(path.join(plain.home, 'storage', '%2e%2e', 'x.txt'));
      assert.deepEqual(await readdir(path.join(plain.home, 'outside')), ['secret.txt']);
    });

    it('removes a folder holding links without touching what they point at', async () => {
      await driver.remove('/jail', { recursive: true });
      await expectCode(driver.stat('/jail'), 'NOT_FOUND');
      assert.deepEqual(await readdir(path.join(plain.home, 'outside')), ['secret.txt']);
    });
  });
});

describe('ftp driver: a 1 GiB file in bounded memory', () => {
  it('writes and reads back 1 GiB (sha256 equal) with RSS growth under 64 MiB', async (t) => {
    const driver = new FtpDriver(configOf(plain));
    const size = 1024 * MiB;
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    try {
      const written = await driver.write('/huge/1gib.bin', generatedStream(size, 'gib'), { size });
      assert.equal(written.size, size);
      const read = await driver.read('/huge/1gib.bin');
      assert.deepEqual(await hashStream(read.body), { sha256: generatedHash(size, 'gib'), bytes: size });
    } finally {
      clearInterval(sampler);
      await driver.remove('/huge', { recursive: true }).catch(() => undefined);
      await driver.close();
    }
    const growth = (peak - baseline) / MiB;
    t.diagnostic(`RSS growth ${growth.toFixed(1)} MiB`);
    assert.ok(growth < 64, `RSS grew by ${growth.toFixed(1)} MiB`);
  });
});
