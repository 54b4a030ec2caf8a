/**
 * The S3 driver against a real S3-compatible server (radosgw on 127.0.0.1): the shared contract,
 * then what only S3 has: provider presets, credential and connection failures, the root prefix,
 * directory markers, multipart streaming and multipart copy. Each run works in its own bucket
 * (with the CORS rules a browser upload needs) and deletes it at the end.
 *
 * Needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (S3_REGION defaults to us-east-1).
 * Without them the suite fails and says how to start radosgw; it never skips.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import {
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { StorageError } from '../../src/storage/driver.ts';
import { createBucket, deleteBucket, s3AdminClient, s3Env } from '../support/s3.ts';
import { S3Driver } from '../../src/storage/drivers/s3/s3-driver.ts';
import { DRIVER_REGISTRY } from '../../src/storage/registry.ts';
import {
  resolveS3ClientSettings,
  S3_PROVIDER_PRESETS,
  type S3DriverConfig,
} from '../../src/storage/drivers/s3/s3-settings.ts';
import {
  type DriverHarness,
  droppedStream,
  expectCode,
  generatedHash,
  generatedStream,
  hashStream,
  readText,
  runDriverContract,
  ShiftableClock,
  streamOf,
} from './contract.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/** Polls `done` for up to five seconds. */
async function waitFor(done: () => boolean, message: string): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await sleep(50);
  assert.ok(done(), message);
}

const MiB = 1024 * 1024;
const { endpoint, accessKeyId, secretAccessKey, region } = s3Env;

const HOW_TO_START = `The S3 driver suite needs a real S3-compatible server; S3_ENDPOINT is not set.
Start radosgw on 127.0.0.1 (Debian 12, as root):
  apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common
  CEPH_DIR=/tmp/ceph-test RGW_PORT=7480 S3_AK=testak S3_SK=testsecret bash .ci/start-ceph.sh
then run the tests with
  S3_ENDPOINT=http://127.0.0.1:7480 S3_ACCESS_KEY_ID=testak S3_SECRET_ACCESS_KEY=testsecret
(stop it with CEPH_DIR=/tmp/ceph-test bash .ci/stop-ceph.sh)`;

function driverConfig(bucket: string, extra: Partial<S3DriverConfig> = {}): S3DriverConfig {
  return {
    endpoint,
    region,
    bucket,
    accessKeyId,
    secretAccessKey,
    pathStyle: true,
    rootPrefix: 'cubby root',
    provider: 'other',
    ...extra,
  };
}

describe('S3 provider presets', () => {
  it('signs R2 with region "auto", path-style, and requires its endpoint', () => {
    const r2 = resolveS3ClientSettings({
      provider: 'cloudflare-r2',
      endpoint: 'https://acc.r2.cloudflarestorage.com/',
      region: 'eu',
      pathStyle: false,
    });
    assert.deepEqual(
      [r2.region, r2.forcePathStyle, r2.endpoint],
      ['auto', true, 'https://acc.r2.cloudflarestorage.com'],
    );
    assert.throws(() => resolveS3ClientSettings({ provider: 'cloudflare-r2', region: '', pathStyle: true }));
  });

  it('derives the B2 endpoint from its region, and the region from its endpoint', () => {
    const fromRegion = resolveS3ClientSettings({
      provider: 'backblaze-b2',
      region: 'us-west-004',
      pathStyle: false,
    });
    assert.equal(fromRegion.endpoint, 'https://s3.us-west-004.backblazeb2.com');
    const fromEndpoint = resolveS3ClientSettings({
      provider: 'backblaze-b2',
      endpoint: 'https://s3.eu-central-003.backblazeb2.com',
      region: '',
      pathStyle: true,
    });
    assert.equal(fromEndpoint.region, 'eu-central-003');
    assert.ok(
      S3_PROVIDER_PRESETS['backblaze-b2'].socketTimeoutMs > S3_PROVIDER_PRESETS['aws-s3'].socketTimeoutMs,
    );
  });

  it('leaves AWS on its standard endpoints, and requires an endpoint for other services', () => {
    const aws = resolveS3ClientSettings({ provider: 'aws-s3', region: 'eu-west-1', pathStyle: false });
    assert.deepEqual([aws.endpoint, aws.region, aws.forcePathStyle], [undefined, 'eu-west-1', false]);
    assert.equal(
      resolveS3ClientSettings({ provider: 'aws-s3', region: '', pathStyle: false }).region,
      'us-east-1',
    );
    assert.throws(() => resolveS3ClientSettings({ provider: 'other', region: 'x', pathStyle: true }));
  });
});

if (!endpoint) {
  describe('S3 driver against radosgw', () => {
    it('needs a running S3-compatible server', () => {
      assert.fail(HOW_TO_START);
    });
  });
} else {
  const admin = s3AdminClient();
  let bucket = '';
  const harnesses: S3Driver[] = [];

  before(async () => {
    bucket = await createBucket(admin, 'cubby-test', { cors: true });
  });
  after(async () => {
    for (const driver of harnesses) await driver.close();
    if (bucket) await deleteBucket(admin, bucket);
    admin.destroy();
  });

  runDriverContract(
    's3 (radosgw)',
    async (): Promise<DriverHarness> => {
      const clock = new ShiftableClock();
      const driver = new S3Driver(driverConfig(bucket, { clock }));
      return { driver, clock, close: () => driver.close() };
    },
    DRIVER_REGISTRY.S3.capabilities,
  );

  describe('S3 driver: S3 specifics', () => {
    let driver: S3Driver;
    before(() => {
      driver = new S3Driver(driverConfig(bucket, { rootPrefix: 'specifics' }));
      harnesses.push(driver);
    });

    const pendingUploads = async (prefix: string): Promise<string[]> => {
      const out = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
      return (out.Uploads ?? []).map((u) => u.Key!);
    };

    const keysUnder = async (prefix: string): Promise<string[]> => {
      const out = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (out.Contents ?? []).map((o) => o.Key!).sort();
    };

    it('answers FORBIDDEN for a wrong secret, and never puts the secret in the message', async () => {
      const secret = 'wrong-secret-do-not-log-me';
      const wrong = new S3Driver(driverConfig(bucket, { secretAccessKey: secret }));
      harnesses.push(wrong);
      const attempts = [() => wrong.stat('/x.txt'), () => wrong.write('/x.txt', streamOf('x'), { size: 1 })];
      for (const attempt of attempts) {
        await assert.rejects(attempt(), (error: unknown) => {
          assert.ok(error instanceof StorageError);
          assert.equal(error.code, 'FORBIDDEN');
          assert.ok(!error.message.includes(secret) && !error.message.includes(accessKeyId));
          return true;
        });
      }
    });

    it('answers UNAVAILABLE when the server cannot be reached or the bucket is missing', async () => {
      const closed = new S3Driver(driverConfig(bucket, { endpoint: 'http://127.0.0.1:9' }));
      const noBucket = new S3Driver(driverConfig(`missing-${randomBytes(4).toString('hex')}`));
      harnesses.push(closed, noBucket);
      await expectCode(closed.stat('/x.txt'), 'UNAVAILABLE');
      await expectCode(closed.list('/'), 'UNAVAILABLE');
      await expectCode(noBucket.list('/'), 'UNAVAILABLE');
    });

    it('answers UNAVAILABLE when the endpoint answers something that is not S3 (a web page)', async () => {
      let answer = { status: 200, type: 'text/plain', body: 'Hello' };
      const page = http.createServer((req, res) => {
        req.resume();
        res.writeHead(answer.status, { 'Content-Type': answer.type }).end(answer.body);
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = page.address() as AddressInfo;
        const other = new S3Driver(driverConfig(bucket, { endpoint: `http://127.0.0.1:${port}` }));
        harnesses.push(other);
        for (const body of ['Hello', '{"status":"ok"}', '<?xml version="1.0"?><Broken><Tag>']) {
          answer = { status: 200, type: 'text/plain', body };
          await expectCode(other.list('/'), 'UNAVAILABLE');
          await expectCode(other.multipart.init('/x.txt'), 'UNAVAILABLE');
        }
        answer = { status: 400, type: 'text/html', body: '<h1>Bad request</h1>' };
        await expectCode(other.stat('/x.txt'), 'UNAVAILABLE');
        await expectCode(other.write('/x.txt', streamOf('x'), { size: 1 }), 'UNAVAILABLE');
      } finally {
        await new Promise((resolve) => page.close(resolve));
      }
    });

    it('keeps each config inside its root prefix', async () => {
      const a = new S3Driver(driverConfig(bucket, { rootPrefix: '/tenant a/' }));
      const b = new S3Driver(driverConfig(bucket, { rootPrefix: 'tenant b' }));
      harnesses.push(a, b);
      await a.write('/shared name.txt', streamOf('from a'));
      await b.write('/shared name.txt', streamOf('from b'));
      assert.equal(await readText(a, '/shared name.txt'), 'from a');
      assert.equal(await readText(b, '/shared name.txt'), 'from b');
      assert.deepEqual(
        (await a.list('/')).entries.map((e) => e.name),
        ['shared name.txt'],
      );
      assert.deepEqual(await keysUnder('tenant a/'), ['tenant a/shared name.txt']);
      await a.remove('/shared name.txt');
      assert.equal(await readText(b, '/shared name.txt'), 'from b');
    });

    it('works on the bucket root with an empty prefix', async () => {
      const whole = new S3Driver(driverConfig(bucket, { rootPrefix: '' }));
      harnesses.push(whole);
      await whole.write('/at-root.txt', streamOf('root'));
      assert.deepEqual(await keysUnder('at-root'), ['at-root.txt']);
      assert.ok((await whole.list('/')).entries.some((e) => e.name === 'at-root.txt' && !e.isDirectory));
      await whole.remove('/at-root.txt');
    });

    it('makes a directory as a zero-byte "dir/" marker', async () => {
      await driver.mkdir('/marked');
      const head = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: 'specifics/marked/' }));
      assert.equal(head.ContentLength, 0);
      await driver.write('/marked/f.txt', streamOf('f'));
      assert.deepEqual(
        (await driver.list('/marked')).entries.map((e) => e.name),
        ['f.txt'],
        'the marker is not listed',
      );
    });

    it('skips keys that no path can name', async () => {
      await admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'specifics/odd/ok.txt', Body: 'ok' }));
      await admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'specifics/odd//double.txt', Body: 'x' }));
      await admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'specifics/odd/../dots.txt', Body: 'x' }));
      assert.deepEqual(
        (await driver.list('/odd')).entries.map((e) => e.name),
        ['ok.txt'],
      );
    });

    it('sends a large body of known size as a multipart upload with a bounded queue', async () => {
      const small = new S3Driver(
        driverConfig(bucket, {
          rootPrefix: 'specifics',
          tuning: { singlePutMaxBytes: MiB, partSize: 5 * MiB },
        }),
      );
      harnesses.push(small);
      const size = 11 * MiB;
      const result = await small.write('/multi.bin', generatedStream(size, 'multi'), { size });
      assert.match(result.etag ?? '', /-3"$/, 'three parts of 5 MiB, 5 MiB and 1 MiB');
      assert.equal(result.size, size);
      assert.equal((await small.stat('/multi.bin')).etag, result.etag);
      assert.equal(
        (await hashStream((await small.read('/multi.bin')).body)).sha256,
        generatedHash(size, 'multi'),
      );
    });

    it('leaves neither an object nor a pending upload when a multipart body runs over its size', async () => {
      const small = new S3Driver(
        driverConfig(bucket, {
          rootPrefix: 'specifics',
          tuning: { singlePutMaxBytes: MiB, partSize: 5 * MiB },
        }),
      );
      harnesses.push(small);
      await expectCode(
        small.write('/over.bin', generatedStream(12 * MiB, 'o'), { size: 6 * MiB }),
        'TOO_LARGE',
      );
      await expectCode(small.stat('/over.bin'), 'NOT_FOUND');
      assert.deepEqual(await pendingUploads('specifics/over.bin'), [], 'aborted before write() settles');
    });

    it('streams a body of unknown size in parts, and one that fits a part as a single PutObject', async () => {
      const small = new S3Driver(
        driverConfig(bucket, { rootPrefix: 'specifics', tuning: { partSize: 5 * MiB } }),
      );
      harnesses.push(small);
      const size = 11 * MiB + 3;
      const result = await small.write('/unknown.bin', generatedStream(size, 'unknown'));
      assert.match(result.etag ?? '', /-3"$/, 'parts of 5 MiB, 5 MiB and 1 MiB + 3 bytes');
      assert.equal(result.size, size);
      assert.equal((await small.stat('/unknown.bin')).etag, result.etag);
      assert.equal(
        (await hashStream((await small.read('/unknown.bin')).body)).sha256,
        generatedHash(size, 'unknown'),
      );
      const single = await small.write('/fits.bin', generatedStream(5 * MiB - 1, 'fits'));
      assert.doesNotMatch(single.etag ?? '', /-\d+"$/, 'not a multipart ETag');
      assert.equal(single.size, 5 * MiB - 1);
      assert.equal(
        (await hashStream((await small.read('/fits.bin')).body)).sha256,
        generatedHash(5 * MiB - 1, 'fits'),
      );
    });

    it('aborts the multipart upload when the body fails after some parts went out', async () => {
      const small = new S3Driver(
        driverConfig(bucket, { rootPrefix: 'specifics', tuning: { partSize: 5 * MiB } }),
      );
      harnesses.push(small);
      await assert.rejects(small.write('/gone.bin', droppedStream(12 * MiB, 'gone')), /client went away/);
      await expectCode(small.stat('/gone.bin'), 'NOT_FOUND');
      assert.deepEqual(await pendingUploads('specifics/gone.bin'), []);
    });

    describe('reads, watched on the wire', () => {
      const size = 48 * MiB;
      let proxy: TcpProxy;
      let watched: S3Driver;
      before(async () => {
        proxy = await startTcpProxy(endpoint!);
        watched = new S3Driver(driverConfig(bucket, { rootPrefix: 'specifics', endpoint: proxy.endpoint }));
        harnesses.push(watched);
        await driver.write('/wire.bin', generatedStream(size, 'wire'), { size });
      });
      after(() => proxy.close());

      it('holds the backend back while the reader waits, then delivers every byte', async () => {
        const start = proxy.bytesDown();
        const reader = (await watched.read('/wire.bin')).body.getReader();
        const hash = createHash('sha256');
        let bytes = 0;
        const first = await reader.read();
        hash.update(first.value!);
        bytes += first.value!.length;
        await sleep(500);
        const held = proxy.bytesDown() - start;
        // Socket buffers on both sides of the proxy hold a few MiB; the rest must wait for the reader.
        assert.ok(held < 16 * MiB, `${held} bytes came down while the reader waited`);
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
          hash.update(next.value);
          bytes += next.value.length;
        }
        assert.equal(bytes, size);
        assert.equal(hash.digest('hex'), generatedHash(size, 'wire'));
      });

      it('closes the backend connection when the reader cancels', async () => {
        const start = proxy.bytesDown();
        const reader = (await watched.read('/wire.bin')).body.getReader();
        await reader.read();
        const during = proxy.open();
        await reader.cancel();
        await waitFor(() => proxy.open() === during - 1, 'the connection was not closed');
        await sleep(200);
        assert.ok(proxy.bytesDown() - start < size / 2, 'the rest of the body was not drained');
      });

      it('reads one object after another on one kept connection', async () => {
        await driver.write('/small.txt', new Blob(['kept']).stream(), { size: 4 });
        const before = proxy.accepted();
        for (let i = 0; i < 3; i++) {
          assert.equal(await new Response((await watched.read('/small.txt')).body).text(), 'kept');
        }
        assert.ok(proxy.accepted() - before <= 1, `${proxy.accepted() - before} connections for 3 reads`);
      });

      it('errors the body when the connection breaks midway, never ends it short', async () => {
        const result = await watched.read('/wire.bin');
        proxy.cutAfter(4 * MiB);
        await assert.rejects(hashStream(result.body));
      });
    });

    it('copies an object above the single-copy limit part by part', async () => {
      const copier = new S3Driver(
        driverConfig(bucket, {
          rootPrefix: 'specifics',
          tuning: { copyMaxBytes: 5 * MiB, copyPartSize: 5 * MiB },
        }),
      );
      harnesses.push(copier);
      const size = 11 * MiB + 7;
      await copier.write('/big-source.bin', generatedStream(size, 'copy'), { size });
      await copier.copy('/big-source.bin', '/big-copy.bin');
      const copied = await copier.read('/big-copy.bin');
      assert.equal(copied.size, size);
      assert.equal((await hashStream(copied.body)).sha256, generatedHash(size, 'copy'));
      assert.match((await copier.stat('/big-copy.bin')).etag ?? '', /-3"$/);
    });

    it('gives public URLs under the custom host only when one is configured', () => {
      const cdn = new S3Driver(
        driverConfig(bucket, { rootPrefix: 'pub', customHost: 'https://cdn.example/' }),
      );
      harnesses.push(cdn);
      assert.equal(
        cdn.publicUrl('/a b/文件 #1.txt')?.href,
        'https://cdn.example/pub/a%20b/%E6%96%87%E4%BB%B6%20%231.txt',
      );
      assert.equal(driver.publicUrl('/x'), undefined);
    });
  });
}
