/**
 * The WebDAV driver against real WebDAV servers started here on 127.0.0.1 (test/support/
 * webdav-servers.ts): the shared contract on Apache httpd's mod_dav and on `rclone serve webdav`,
 * then what only WebDAV has: refused credentials, an unreachable or missing folder, TLS checks,
 * connections dropped mid-transfer, confinement to the configured folder, temp-file sweeping, the
 * listing bound, a 1 GiB round trip in bounded memory, a server that ignores Range, and PROPFIND
 * answers as servers spell them.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StorageError } from '../../src/storage/driver.ts';
import { WEBDAV_CAPABILITIES, WebdavDriver } from '../../src/storage/drivers/webdav/webdav-driver.ts';
import { WebdavClient } from '../../src/storage/drivers/webdav/webdav-client.ts';
import { type DavResource, parseMultistatus } from '../../src/storage/drivers/webdav/webdav-propfind.ts';
import type { WebdavDriverConfig } from '../../src/storage/drivers/webdav/webdav-settings.ts';
import { DEFAULT_WEBDAV_TUNING } from '../../src/storage/drivers/webdav/webdav-tuning.ts';
import { freePort } from '../support/server-process.ts';
import {
  DAV_PASSWORD,
  startApacheDav,
  startRcloneDav,
  type TestWebdavServer,
} from '../support/webdav-servers.ts';
import { type CubbyDavServer, startCubbyDav } from '../support/cubby-dav.ts';
import {
  expectCode,
  generatedHash,
  generatedStream,
  hashStream,
  readText,
  runDriverContract,
  ShiftableClock,
  streamOf,
} from './contract.ts';

const MiB = 1024 * 1024;

function config(server: TestWebdavServer, extra: Partial<WebdavDriverConfig> = {}): WebdavDriverConfig {
  return {
    endpoint: server.url,
    username: server.username,
    password: server.password,
    rootFolder: 'cubby root',
    tlsInsecureSkipVerify: false,
    ...extra,
  };
}

/** A driver on `server` whose root folder exists (made through a driver on the endpoint itself). */
async function driverOn(
  server: TestWebdavServer,
  extra: Partial<WebdavDriverConfig> = {},
): Promise<WebdavDriver> {
  const base = new WebdavDriver({ ...config(server, extra), rootFolder: '' });
  const folder = extra.rootFolder ?? 'cubby root';
  if (folder) await base.mkdir(`/${folder}`).catch(() => undefined);
  await base.close();
  return new WebdavDriver(config(server, extra));
}

async function expectFailure(
  promise: Promise<unknown>,
  code: StorageError['code'],
  reason: StorageError['reason'],
): Promise<StorageError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof StorageError, `expected a StorageError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.reason, reason, caught.message);
  assert.ok(!caught.message.includes(DAV_PASSWORD), 'the message names no password');
  return caught;
}

const davAuth = (server: TestWebdavServer) => ({
  Authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`,
});

const isCubby = (server: TestWebdavServer): server is CubbyDavServer => 'app' in server;

const SERVERS: Array<[string, () => Promise<TestWebdavServer>]> = [
  ['Apache mod_dav', startApacheDav],
  ['rclone serve webdav', () => startRcloneDav()],
  ["Cubby's own /dav", startCubbyDav],
];

for (const [label, start] of SERVERS) {
  describe(`WebDAV driver on ${label}`, () => {
    let server: TestWebdavServer;
    before(async () => {
      server = await start();
    });
    after(async () => {
      await server?.close();
    });

    runDriverContract(
      `webdav (${label})`,
      async () => {
        const clock = new ShiftableClock();
        const driver = await driverOn(server, { clock });
        return { driver, clock, close: () => driver.close() };
      },
      WEBDAV_CAPABILITIES,
    );

    describe('failures say why', () => {
      it('refuses a wrong password: FORBIDDEN, reason auth', async () => {
        const driver = new WebdavDriver(config(server, { password: 'wrong' }));
        try {
          await expectFailure(driver.stat('/'), 'FORBIDDEN', 'auth');
          await expectFailure(driver.write('/x.txt', streamOf('x')), 'FORBIDDEN', 'auth');
        } finally {
          await driver.close();
        }
      });

      it('names a missing configured folder: UNAVAILABLE, reason folder_missing', async () => {
        const driver = new WebdavDriver(config(server, { rootFolder: 'no such folder' }));
        try {
          await expectFailure(driver.stat('/'), 'UNAVAILABLE', 'folder_missing');
          await expectFailure(driver.list('/'), 'UNAVAILABLE', 'folder_missing');
          await expectFailure(driver.write('/a/b.txt', streamOf('x')), 'UNAVAILABLE', 'folder_missing');
        } finally {
          await driver.close();
        }
      });

      it('answers UNAVAILABLE, reason unreachable, when nothing listens', async () => {
        const port = await freePort();
        const driver = new WebdavDriver({ ...config(server), endpoint: `http://127.0.0.1:${port}/` });
        try {
          const started = Date.now();
          await expectFailure(driver.stat('/'), 'UNAVAILABLE', 'unreachable');
          assert.ok(Date.now() - started < 5000);
        } finally {
          await driver.close();
        }
      });
    });

    describe('confinement', () => {
      let driver: WebdavDriver;
      before(async () => {
        driver = await driverOn(server, { rootFolder: 'confined' });
        await mkdir(path.join(server.dataDir, 'outside'), { recursive: true });
        await writeFile(path.join(server.dataDir, 'outside', 'secret.txt'), 'secret');
        await driver.write('/inside.txt', streamOf('inside'));
      });
      after(async () => {
        await driver.close();
      });

      it('refuses .. and keeps encoded dots as literal names', async () => {
        await expectCode(driver.read('/../outside/secret.txt'), 'INVALID_PATH');
        await expectCode(driver.read('/%2e%2e/outside/secret.txt'), 'NOT_FOUND');
        await expectCode(driver.read('/%2E%2E%2Foutside%2Fsecret.txt'), 'NOT_FOUND');
        await driver.write('/%2e%2e', streamOf('a literal name'));
        assert.equal(await readText(driver, '/%2e%2e'), 'a literal name');
        assert.ok((await readdir(path.join(server.dataDir, 'confined'))).includes('%2e%2e'));
        assert.deepEqual(await readdir(path.join(server.dataDir, 'outside')), ['secret.txt']);
      });

      it('does not follow a link on the server that points outside the folder', async () => {
        await symlink(path.join(server.dataDir, 'outside'), path.join(server.dataDir, 'confined', 'link'));
        await symlink(
          path.join(server.dataDir, 'outside', 'secret.txt'),
          path.join(server.dataDir, 'confined', 'file-link'),
        );
        await assert.rejects(readText(driver, '/file-link'));
        await assert.rejects(readText(driver, '/link/secret.txt'));
        await assert.rejects(driver.list('/link'));
        const names = (await driver.list('/')).entries.map((e) => e.name);
        assert.ok(names.includes('inside.txt'));
      });

      it('hides its temp files of today and of older versions, refuses them as paths, sweeps them', async () => {
        // Left through the server itself, so that rclone's cached listing knows them.
        const put = (name: string) =>
          fetch(new URL(`confined/${name}`, server.url), {
            method: 'PUT',
            body: 'half',
            headers: davAuth(server),
          });
        const cubby = isCubby(server);
        const today = await put('.cubby.tmp-leftover');
        assert.ok(today.status === 201 || today.status === 204, `PUT answered ${today.status}`);
        const older = await put('.cubby-tmp-older');
        if (cubby) assert.equal(older.status, 400, 'a Cubby refuses the names of its own files');
        else assert.ok(older.status === 201 || older.status === 204, `PUT answered ${older.status}`);
        assert.ok(!(await driver.list('/')).entries.some((e) => e.name.startsWith('.cubby')));
        await expectCode(driver.read('/.cubby.tmp-leftover'), 'INVALID_PATH');
        await expectCode(driver.read('/.cubby-tmp-older'), 'INVALID_PATH');
        assert.equal(await driver.sweepTemp(60_000), 0, 'a fresh temp file stays');
        // A Cubby lists neither: its own sweep takes the driver's leftovers (below).
        assert.equal(await driver.sweepTemp(0), cubby ? 0 : 2, 'old ones go');
        const left = await readdir(path.join(server.dataDir, 'confined'));
        assert.deepEqual(
          left.filter((name) => name.startsWith('.cubby')),
          cubby ? ['.cubby.tmp-leftover'] : [],
        );
      });
    });

    describe('dropped connections', () => {
      let driver: WebdavDriver;
      before(async () => {
        driver = await driverOn(server, { rootFolder: 'dropped', tuning: { socketTimeoutMs: 5000 } });
      });
      after(async () => {
        await driver.close();
      });

      it('fails a read cut off by the server with UNAVAILABLE, then reconnects', async () => {
        const size = 64 * MiB;
        await driver.write('/big.bin', generatedStream(size, 'drop'), { size });
        const result = await driver.read('/big.bin');
        const reader = result.body.getReader();
        await reader.read();
        const started = Date.now();
        await server.stop();
        await expectFailure(
          (async () => {
            for (;;) if ((await reader.read()).done) throw new Error('the body ended as if whole');
          })(),
          'UNAVAILABLE',
          'unreachable',
        );
        assert.ok(Date.now() - started < 5000, 'within seconds');
        await server.start();
        const again = await driver.read('/big.bin');
        assert.deepEqual(await hashStream(again.body), { sha256: generatedHash(size, 'drop'), bytes: size });
      });

      it('fails a write cut off by the server with UNAVAILABLE, leaves nothing listed, then reconnects', async () => {
        let sent = 0;
        const source = generatedStream(256 * MiB, 'cut').getReader();
        let stopped: Promise<void> | undefined;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { value, done } = await source.read();
            if (done) return controller.close();
            sent += value.length;
            if (sent > 8 * MiB && !stopped) stopped = server.stop();
            controller.enqueue(value);
          },
        });
        const started = Date.now();
        await expectFailure(driver.write('/cut.bin', body), 'UNAVAILABLE', 'unreachable');
        assert.ok(Date.now() - started < 10_000, 'within seconds');
        await stopped;
        await server.start();
        await expectCode(driver.stat('/cut.bin'), 'NOT_FOUND');
        assert.deepEqual(
          (await driver.list('/')).entries.map((e) => e.name),
          ['big.bin'],
        );
        await driver.write('/after.txt', streamOf('back'));
        assert.equal(await readText(driver, '/after.txt'), 'back');
      });
    });

    describe('listing bound', () => {
      it('refuses a folder past maxListEntries with TOO_LARGE', async () => {
        const driver = await driverOn(server, { rootFolder: 'bounded', tuning: { maxListEntries: 5 } });
        try {
          for (let i = 0; i < 6; i++) await driver.write(`/f${i}`, streamOf('x'));
          await expectCode(driver.list('/'), 'TOO_LARGE');
        } finally {
          await driver.close();
        }
      });
    });

    describe('after an upgrade', () => {
      it('finishes an upload an older version began in /.cubby-multipart', async (t) => {
        // A Cubby never held one: it refuses the name (below).
        if (isCubby(server)) return t.skip('a Cubby refuses .cubby- names');
        const uploadId = 'c0ffee'.padEnd(32, '0');
        const folder = `upgraded/.cubby-multipart/${uploadId}`;
        const bytes = 'begun before the upgrade';
        const md5 = createHash('md5').update(bytes).digest('hex');
        const send = async (method: string, name: string, body?: string) => {
          const res = await fetch(new URL(name, server.url), {
            method,
            headers: davAuth(server),
            body: body ?? null,
          });
          assert.ok(res.status === 201 || res.status === 204, `${method} ${name} answered ${res.status}`);
        };
        for (const dir of ['upgraded', 'upgraded/.cubby-multipart', folder]) await send('MKCOL', `${dir}/`);
        await send(
          'PUT',
          `${folder}/meta.json`,
          JSON.stringify({ path: '/old.bin', created: new Date().toISOString() }),
        );
        await send('PUT', `${folder}/p00001-0123456789abcdef.bin`, bytes);
        await send('PUT', `${folder}/p00001-0123456789abcdef.${md5}`, '');
        const driver = await driverOn(server, { rootFolder: 'upgraded' });
        try {
          assert.deepEqual(
            (await driver.multipart.listUploads(10)).map((u) => [u.path, u.uploadId]),
            [['/old.bin', uploadId]],
          );
          const parts = await driver.multipart.listParts('/old.bin', uploadId);
          assert.deepEqual(parts, [{ partNumber: 1, etag: `"${md5}"`, size: bytes.length }]);
          await driver.multipart.complete('/old.bin', uploadId, [{ partNumber: 1, etag: `"${md5}"` }]);
          assert.equal(await readText(driver, '/old.bin'), bytes);
          assert.deepEqual(await driver.multipart.listUploads(10), []);
          assert.deepEqual(await readdir(path.join(server.dataDir, 'upgraded', '.cubby-multipart')), []);
        } finally {
          await driver.close();
        }
      });
    });
  });
}

describe("A Cubby's WebDAV driver on another Cubby's /dav, as that Cubby's people see it", () => {
  let server: CubbyDavServer;
  let driver: WebdavDriver;
  let admin: Record<string, string>;
  before(async () => {
    server = await startCubbyDav();
    driver = await driverOn(server, { rootFolder: 'from-a' });
    admin = { Authorization: `Bearer ${await server.app.adminToken()}` };
  });
  after(async () => {
    await driver?.close();
    await server?.close();
  });
  const names = async (at: string) => {
    const { status, body } = await server.app.json(`/api/admin/fs/list?path=${encodeURIComponent(at)}`, {
      headers: admin,
    });
    assert.equal(status, 200);
    return (body.data.items as Array<{ name: string }>).map((item) => item.name);
  };
  const propfind = async (at: string) => {
    const res = await fetch(new URL(at, server.url), {
      method: 'PROPFIND',
      headers: { ...davAuth(server), Depth: '1' },
    });
    assert.equal(res.status, 207);
    return [...(await res.text()).matchAll(/<D:href>([^<]*)<\/D:href>/gi)].map((m) =>
      decodeURIComponent(m[1]!),
    );
  };

  it("shows none of the driver's files in its listings, and takes them by exact path", async () => {
    await driver.write('/doc.txt', streamOf('doc'));
    const { uploadId } = await driver.multipart.init('/big.bin');
    await driver.multipart.uploadPart('/big.bin', uploadId, 1, streamOf('one part'), { size: 8 });
    // A temp file a write cut off for good leaves behind.
    const put = await fetch(new URL('from-a/.cubby.tmp-leftover', server.url), {
      method: 'PUT',
      body: 'half',
      headers: davAuth(server),
    });
    assert.equal(put.status, 201);
    const root = path.join(server.dataDir, 'from-a');
    assert.ok((await readdir(root)).includes('.cubby.multipart'), 'the parts are there');

    assert.deepEqual(await names('/'), ['from-a']);
    assert.deepEqual(await names('/from-a'), ['doc.txt']);
    for (const at of ['', 'from-a/']) {
      const hrefs = await propfind(at);
      assert.ok(hrefs.length > 0 && !hrefs.some((href) => href.includes('.cubby')), hrefs.join(' '));
    }
    // By exact path the upload's folder lists its parts, as the driver reads them.
    const inside = await propfind(`from-a/.cubby.multipart/${uploadId}/`);
    assert.ok(
      inside.some((href) => href.endsWith('/meta.json')),
      inside.join(' '),
    );
    assert.ok(
      inside.some((href) => /\/p00001-[0-9a-f]{16}\.bin$/.test(href)),
      inside.join(' '),
    );
    assert.equal((await driver.multipart.listParts('/big.bin', uploadId)).length, 1);
    // A copy of the folder leaves them out, as listings do.
    const copy = await fetch(new URL('from-a/', server.url), {
      method: 'COPY',
      headers: { ...davAuth(server), Destination: new URL('copy-of-a/', server.url).href, Depth: 'infinity' },
    });
    assert.equal(copy.status, 201);
    assert.deepEqual(await readdir(path.join(server.dataDir, 'copy-of-a')), ['doc.txt']);
    await driver.multipart.abort('/big.bin', uploadId);
    assert.deepEqual(await readdir(path.join(root, '.cubby.multipart')), []);
  });

  it('still refuses its own .cubby- names to its people, on /dav and the fs API', async () => {
    const dav = (method: string, name: string) =>
      fetch(new URL(name, server.url), {
        method,
        headers: davAuth(server),
        body: method === 'PUT' ? 'x' : null,
      });
    assert.equal((await dav('PUT', 'from-a/.cubby-tmp-mine')).status, 400);
    assert.equal((await dav('MKCOL', '.cubby-multipart/')).status, 400);
    const mkdir = await server.app.json('/api/admin/fs/mkdir', {
      method: 'POST',
      headers: admin,
      json: { path: '/from-a/.cubby-mine' },
    });
    assert.equal(mkdir.status, 400);
    assert.deepEqual(
      (await readdir(server.dataDir, { recursive: true })).filter((name) => name.includes('.cubby-')),
      [],
    );
  });

  it("sweeps the driver's old temp files itself, since it does not list them to the driver", async () => {
    const sweep = (maxAgeMs: number) => server.app.services.objects.sweepTemp(server.configId, maxAgeMs);
    assert.equal(await sweep(60_000), 0, 'a fresh one stays');
    assert.equal(await sweep(0), 1, 'an old one goes');
    assert.ok(!(await readdir(path.join(server.dataDir, 'from-a'))).includes('.cubby.tmp-leftover'));
    assert.equal(await readText(driver, '/doc.txt'), 'doc');
  });
});

describe('WebDAV driver over TLS (rclone with a self-signed certificate)', () => {
  let server: TestWebdavServer;
  before(async () => {
    server = await startRcloneDav({ tls: true });
  });
  after(async () => {
    await server?.close();
  });

  it('refuses the certificate: UNAVAILABLE, reason tls', async () => {
    const driver = new WebdavDriver(config(server, { rootFolder: '' }));
    try {
      await expectFailure(driver.stat('/'), 'UNAVAILABLE', 'tls');
    } finally {
      await driver.close();
    }
  });

  it('accepts it with tls_insecure_skip_verify', async () => {
    const driver = new WebdavDriver(config(server, { rootFolder: '', tlsInsecureSkipVerify: true }));
    try {
      await driver.write('/tls.txt', streamOf('over tls'));
      assert.equal(await readText(driver, '/tls.txt'), 'over tls');
    } finally {
      await driver.close();
    }
  });
});

describe('WebDAV driver with a 1 GiB file (Apache mod_dav)', () => {
  let server: TestWebdavServer;
  let driver: WebdavDriver;
  before(async () => {
    server = await startApacheDav();
    driver = await driverOn(server);
  });
  after(async () => {
    await driver?.close();
    await server?.close();
  });

  it('writes and reads it back byte for byte, the process growing by less than 64 MiB', async (t) => {
    const size = 1024 * MiB;
    const expected = generatedHash(size, 'gib');
    globalThis.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const written = await driver.write('/gib.bin', generatedStream(size, 'gib'), { size });
      assert.equal(written.size, size);
      const read = await driver.read('/gib.bin');
      assert.equal(read.size, size);
      assert.deepEqual(await hashStream(read.body), { sha256: expected, bytes: size });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    const growth = (peak - baseline) / MiB;
    t.diagnostic(`RSS grew by ${growth.toFixed(1)} MiB`);
    assert.ok(growth < 64, `RSS grew by ${growth.toFixed(1)} MiB`);
    await driver.remove('/gib.bin');
  });
});

describe('WebDAV driver on a server that ignores Range (Apache, Range dropped)', () => {
  let server: TestWebdavServer;
  let driver: WebdavDriver;
  before(async () => {
    server = await startApacheDav();
    await (await driverOn(server)).close();
    driver = new WebdavDriver(config(server, { endpoint: server.url.replace('/dav/', '/norange/') }));
  });
  after(async () => {
    await driver?.close();
    await server?.close();
  });

  it('cuts the asked range out of the whole file the server sends', async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    await driver.write('/whole.bin', streamOf(data));
    const got = await driver.read('/whole.bin', { range: { start: 100_000, end: 200_009 } });
    assert.deepEqual(got.range, { start: 100_000, end: 200_009 });
    assert.equal(got.contentLength, 100_010);
    assert.equal(got.size, 300_000);
    const bytes = Buffer.from(await new Response(got.body).arrayBuffer());
    assert.ok(bytes.equals(data.subarray(100_000, 200_010)));
    await expectCode(driver.read('/whole.bin', { range: { start: 300_000 } }), 'INVALID_RANGE');
  });
});

describe('PROPFIND answers', () => {
  const client = new WebdavClient(
    {
      endpoint: 'https://dav.example:8443/remote.php/dav/',
      username: 'u',
      password: 'p',
      rootFolder: 'shared folder',
      tlsInsecureSkipVerify: false,
    },
    DEFAULT_WEBDAV_TUNING,
  );
  after(() => client.close());

  it('matches hrefs given as paths or absolute URLs, escaped either way, to the folder asked about', () => {
    const nameIn = client.namesIn('/a b');
    assert.equal(nameIn('/remote.php/dav/shared%20folder/a%20b/'), '');
    assert.equal(nameIn('https://dav.example:8443/remote.php/dav/shared folder/a%20b/x%23y.txt'), 'x#y.txt');
    assert.equal(nameIn('/remote.php/dav/shared%20folder/a%20b/%E4%B8%AD'), '中');
    assert.equal(nameIn('/remote.php/dav/shared%20folder/a%20b/deeper/x'), null, 'not directly inside');
    assert.equal(nameIn('/remote.php/dav/shared%20folder/other/x'), null, 'another folder');
    assert.equal(nameIn('https://elsewhere.example/remote.php/dav/shared%20folder/a%20b/x'), null);
    assert.equal(nameIn('/remote.php/dav/shared%20folder/a%20b/%E4'), null, 'does not decode');
  });

  it('reads a multistatus body split anywhere, keeping only found properties', async () => {
    const xml = Buffer.from(
      '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:x="urn:x">' +
        '<d:response><d:href>/f/%E4%B8%AD.txt</d:href>' +
        '<d:propstat><d:prop><d:getcontentlength>12</d:getcontentlength>' +
        '<d:getetag>W/"abc"</d:getetag><d:resourcetype/>' +
        '<d:getlastmodified>Sun, 29 Nov 2026 07:00:00 GMT</d:getlastmodified></d:prop>' +
        '<d:status>HTTP/1.1 200 OK</d:status></d:propstat>' +
        '<d:propstat><d:prop><d:getcontenttype/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>' +
        '</d:response>' +
        '<d:response><d:href><![CDATA[/f/sub/]]></d:href><d:propstat><d:prop>' +
        '<d:resourcetype><d:collection/></d:resourcetype><x:getetag>"not DAV"</x:getetag></d:prop>' +
        '<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>' +
        '<d:response><d:href>/f/gone</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>' +
        '</d:multistatus>',
    );
    const found: DavResource[] = [];
    // One byte at a time: every tag, escape and multi-byte character is cut somewhere.
    const bytes = (async function* () {
      for (let i = 0; i < xml.length; i++) yield xml.subarray(i, i + 1);
    })();
    await parseMultistatus(bytes, (resource) => void found.push(resource), 'test');
    assert.deepEqual(found, [
      {
        href: '/f/%E4%B8%AD.txt',
        isCollection: false,
        size: 12,
        etag: 'W/"abc"',
        modified: new Date('2026-11-29T07:00:00Z'),
      },
      { href: '/f/sub/', isCollection: true },
    ]);
  });

  it('fails an answer that is not XML with UNAVAILABLE', async () => {
    const html = (async function* () {
      yield Buffer.from('<html><body>Login</body>');
      yield Buffer.from('</html>');
    })();
    await expectCode(
      parseMultistatus(html, () => undefined, 'test'),
      'UNAVAILABLE',
    );
  });
});
