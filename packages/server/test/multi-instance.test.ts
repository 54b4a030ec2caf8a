/**
 * Several instances behind a load balancer (issue 15): three compiled Cubby processes on one
 * PostgreSQL database and one radosgw bucket, with the same SECRET_KEY, behind nginx running
 * deploy/cubby.nginx.conf. Fails (never skips) when nginx, PostgreSQL or S3 is missing.
 *
 * The cluster is started once (test/support/cluster.ts); each scenario leaves every instance running.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { type Cluster, startCluster } from './support/cluster.ts';

const MiB = 1024 * 1024;
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

type Answer = { status: number; body: Buffer };

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

async function json(url: string, init: RequestInit & { json?: unknown } = {}) {
  const { json: body, ...rest } = init;
  const res = await fetch(url, {
    ...rest,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...rest.headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** `count` requests at once; the answers in order. */
const all = (count: number, request: () => Promise<Answer>) =>
  Promise.all(Array.from({ length: count }, request));

describe('several instances behind nginx (PostgreSQL, S3)', { timeout: 180_000 }, () => {
  let cluster: Cluster;
  const at = (path: string) => `${cluster.origin}${path}`;

  before(async () => {
    cluster = await startCluster(3);
  });
  after(async () => {
    await cluster?.close();
  });

  /** A file share stored through `origin` (nginx unless an instance is named). */
  async function upload(slug: string, body: Uint8Array, query = '', origin = cluster.origin) {
    return send(`${origin}/api/upload-direct/${slug}.bin?slug=${slug}${query}`, {
      method: 'PUT',
      headers: cluster.admin,
      body: body as Uint8Array<ArrayBuffer>,
    });
  }

  describe('a view limit holds across instances', () => {
    it('a paste with max views 10, read by 600 concurrent requests: exactly 10 get it', async () => {
      const made = await json(at('/api/paste'), {
        method: 'POST',
        headers: cluster.admin,
        json: { content: 'ten readers only', maxViews: 10 },
      });
      assert.equal(made.status, 201, made.text);
      const answers = await all(600, () => send(at(`/api/raw/${made.body.data.slug}`)));
      const winners = answers.filter((a) => a.status === 200 && a.body.toString() === 'ten readers only');
      assert.equal(winners.length, 10);
      const others = answers.filter((a) => a.status !== 200).map((a) => a.status);
      assert.equal(others.length, 590, 'every other reader is refused');
      assert.ok(
        others.every((s) => s === 410 || s === 404),
        `used up: 410 once known, 404 once forgotten; got ${[...new Set(others)]}`,
      );
    });

    it('a file share with max views 10, downloaded by 600 concurrent requests: exactly 10 get it', async () => {
      const content = randomBytes(4096);
      const stored = await upload('ten-downloads', content, '&max_views=10');
      assert.equal(stored.status, 200, stored.body.toString());
      const answers = await all(600, () => send(at('/api/file-download/ten-downloads')));
      const winners = answers.filter((a) => a.status === 200 && a.body.equals(content));
      assert.equal(winners.length, 10);
      const others = answers.filter((a) => a.status !== 200).map((a) => a.status);
      assert.equal(others.length, 590, 'every other download is refused');
      assert.ok(
        others.every((s) => s === 410 || s === 404),
        `used up: 410 or 404; got ${[...new Set(others)]}`,
      );
    });
  });

  it('a multipart upload initialised on A, its parts sent to B and C, completed on A', async () => {
    const [a, b, c] = cluster.instances;
    const mount = await json(`${a!.origin}/api/admin/mounts`, {
      method: 'POST',
      headers: cluster.admin,
      json: { name: 'cluster', mount_path: '/cluster', storage_config_id: cluster.storageConfigId },
    });
    assert.equal(mount.status, 201, mount.text);
    const parts = [randomBytes(5 * MiB), randomBytes(MiB + 17)];
    const whole = Buffer.concat(parts);
    const init = await json(`${a!.origin}/api/admin/fs/multipart/init`, {
      method: 'POST',
      headers: cluster.admin,
      json: { path: '/cluster/', filename: 'spread.bin', fileName: 'spread.bin', fileSize: whole.length },
    });
    assert.equal(init.status, 200, init.text);
    const { uploadId, key } = init.body.data;
    const sent = await Promise.all(
      [b!, c!].map(async (instance, i) => {
        const query = new URLSearchParams({
          path: '/cluster/spread.bin',
          uploadId,
          key,
          partNumber: String(i + 1),
          isLastPart: String(i === parts.length - 1),
        });
        const res = await json(`${instance.origin}/api/admin/fs/multipart/part?${query}`, {
          method: 'POST',
          headers: { ...cluster.admin, 'Content-Type': 'application/octet-stream' },
          body: parts[i] as Uint8Array<ArrayBuffer>,
        });
        assert.equal(res.status, 200, `part ${i + 1} on ${instance.name}: ${res.text}`);
        return { partNumber: i + 1, etag: res.body.data.etag as string };
      }),
    );
    const done = await json(`${a!.origin}/api/admin/fs/multipart/complete`, {
      method: 'POST',
      headers: cluster.admin,
      json: { path: '/cluster/spread.bin', uploadId, key, parts: sent, fileSize: whole.length },
    });
    assert.equal(done.status, 200, done.text);
    for (const instance of cluster.instances) {
      const read = await send(`${instance.origin}/api/admin/fs/download?path=/cluster/spread.bin`, {
        headers: cluster.admin,
      });
      assert.equal(read.status, 200, `${instance.name}: ${read.body.toString().slice(0, 200)}`);
      assert.equal(sha256(read.body), sha256(whole), `read back through ${instance.name}`);
    }
  });

  describe('every instance is equal', () => {
    it('10 failed logins spread over the three: the 11th is refused on any of them', async () => {
      const login = (origin: string) =>
        json(`${origin}/api/admin/login`, {
          method: 'POST',
          json: { username: 'nobody-here', password: 'wrong password' },
        });
      const origins = cluster.instances.map((instance) => instance.origin);
      for (let i = 0; i < 10; i++) {
        const res = await login(origins[i % origins.length]!);
        assert.equal(res.status, 401, `attempt ${i + 1}: ${res.text}`);
      }
      for (const origin of origins) {
        const refused = await login(origin);
        assert.equal(refused.status, 429, `${origin}: ${refused.text}`);
      }
    });

    it('a setting, a storage config, a mount and a file changed through A are seen through B and C at once', async () => {
      const [a, ...others] = cluster.instances;
      const admin = { headers: cluster.admin };
      // A mount whose listings are cached for 5 minutes: only the notes can make B see a new file.
      const mount = await json(`${a!.origin}/api/admin/mounts`, {
        method: 'POST',
        ...admin,
        json: {
          name: 'shared',
          mount_path: '/shared',
          storage_config_id: cluster.storageConfigId,
          cache_ttl: 300,
        },
      });
      assert.equal(mount.status, 201, mount.text);
      const names = async (origin: string) => {
        const res = await json(`${origin}/api/admin/fs/list?path=/shared/`, admin);
        assert.equal(res.status, 200, res.text);
        return (res.body.data.items as { name: string }[]).map((item) => item.name);
      };
      // B and C list (and so cache) the folder before the file is written.
      for (const other of others)
        assert.ok(!(await names(other.origin)).includes('from-a.txt'), `${other.name} lists it without`);

      const setting = await json(`${a!.origin}/api/admin/system-settings`, {
        method: 'PUT',
        ...admin,
        json: { max_upload_size: 321 },
      });
      assert.equal(setting.status, 200, setting.text);
      const renamed = await json(`${a!.origin}/api/s3-configs/${cluster.storageConfigId}`, {
        method: 'PUT',
        ...admin,
        json: { name: 'renamed through A' },
      });
      assert.equal(renamed.status, 200, renamed.text);
      const remounted = await json(`${a!.origin}/api/admin/mounts/${mount.body.data.id}`, {
        method: 'PUT',
        ...admin,
        json: { remark: 'changed through A' },
      });
      assert.equal(remounted.status, 200, remounted.text);
      const written = await json(`${a!.origin}/api/admin/fs/update`, {
        method: 'POST',
        ...admin,
        json: { path: '/shared/from-a.txt', content: 'written through A' },
      });
      assert.equal(written.status, 200, written.text);
      const writtenAt = Date.now();

      for (const other of others) {
        const limit = await json(`${other.origin}/api/system/max-upload-size`);
        assert.equal(limit.body.data.max_upload_size, 321, `${other.name}: the setting`);
        const config = await json(`${other.origin}/api/s3-configs/${cluster.storageConfigId}`, admin);
        assert.equal(config.body.data.name, 'renamed through A', `${other.name}: the storage config`);
        const seen = await json(`${other.origin}/api/admin/mounts/${mount.body.data.id}`, admin);
        assert.equal(seen.body.data.remark, 'changed through A', `${other.name}: the mount`);
        // The listing B and C cached must be forgotten within 1 s of the write.
        for (;;) {
          if ((await names(other.origin)).includes('from-a.txt')) break;
          assert.ok(
            Date.now() - writtenAt < 1000,
            `${other.name} still lists the folder without the file after 1 s`,
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });

    it('each periodic job runs once per interval across the three (job_runs)', async () => {
      const db = new pg.Client({ connectionString: cluster.databaseUrl });
      await db.connect();
      try {
        const runs = async () => {
          const { rows } = await db.query<{ runs: number }>(
            "SELECT runs FROM job_runs WHERE name = 'purge expired and used-up pastes'",
          );
          return Number(rows[0]?.runs ?? 0);
        };
        // Started once the first run is in (5 s after an instance starts).
        for (let t = 0; (await runs()) === 0; t++) {
          assert.ok(t < 200, 'the job never ran');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const first = await runs();
        const started = Date.now();
        while ((await runs()) < first + 3) await new Promise((resolve) => setTimeout(resolve, 100));
        const elapsed = Date.now() - started;
        // Once per interval: 3 more runs take at least 2 intervals. Three instances each running it
        // on their own would make 3 runs in about one interval.
        assert.ok(
          elapsed >= 2 * cluster.jobIntervalMs - 250,
          `3 runs in ${elapsed} ms with a ${cluster.jobIntervalMs} ms interval`,
        );
      } finally {
        await db.end();
      }
    });
  });

  describe('under load', () => {
    /** What a load run did: every request's outcome, uploads with what they sent. */
    interface Outcome {
      op: 'read paste' | 'read file' | 'upload';
      status: number;
      ok: boolean;
      error?: string;
      slug?: string;
      sent?: Buffer;
    }

    /**
     * 32 clients through nginx, each reading a paste, reading a file and uploading a new small file in
     * turn, until `stop()`; `outcomes` grows as they go, `done` resolves when all have stopped.
     */
    async function startLoad(tag: string) {
      const paste = await json(at('/api/paste'), {
        method: 'POST',
        headers: cluster.admin,
        json: { content: `${tag} paste` },
      });
      assert.equal(paste.status, 201, paste.text);
      const fileContent = randomBytes(64 * 1024);
      assert.equal((await upload(`${tag}-read`, fileContent)).status, 200);
      let stopped = false;
      const outcomes: Outcome[] = [];
      let n = 0;
      const waiters: { target: number; resolve: () => void }[] = [];
      const record = (o: Outcome) => {
        outcomes.push(o);
        for (const w of waiters.filter((w) => outcomes.length >= w.target)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      };
      const client = async (c: number) => {
        for (let round = 0; !stopped; round++) {
          const kind = (c + round) % 3;
          if (kind === 0) {
            const r = await send(at(`/api/raw/${paste.body.data.slug}`)).catch((e: Error) => e);
            const ok = !(r instanceof Error) && r.status === 200 && r.body.toString() === `${tag} paste`;
            record({ op: 'read paste', status: r instanceof Error ? 0 : r.status, ok });
          } else if (kind === 1) {
            const r = await send(at(`/api/file-download/${tag}-read`)).catch((e: Error) => e);
            const ok = !(r instanceof Error) && r.status === 200 && r.body.equals(fileContent);
            record({ op: 'read file', status: r instanceof Error ? 0 : r.status, ok });
          } else {
            const slug = `${tag}-${n++}`;
            const sent = randomBytes(32 * 1024 + (n % 7) * 1000);
            const r = await upload(slug, sent).catch((e: Error) => e);
            const status = r instanceof Error ? 0 : r.status;
            record({
              op: 'upload',
              status,
              ok: status === 200,
              slug,
              sent,
              ...(r instanceof Error ? { error: r.message } : {}),
            });
          }
        }
      };
      const done = Promise.all(Array.from({ length: 32 }, (_, c) => client(c)));
      return {
        outcomes,
        /** Resolves once `count` more requests have been answered. */
        more: (count: number) =>
          new Promise<void>((resolve) => waiters.push({ target: outcomes.length + count, resolve })),
        stop: async () => {
          stopped = true;
          await done;
          return outcomes;
        },
      };
    }

    /** Every upload answered 2xx reads back whole; any other one is no share, or a whole one. */
    async function checkUploads(outcomes: Outcome[]) {
      const uploads = outcomes.filter((o) => o.op === 'upload');
      for (const o of uploads) {
        const read = await send(at(`/api/file-download/${o.slug}`));
        if (o.ok) {
          assert.equal(read.status, 200, `upload ${o.slug} was answered 200 but reads ${read.status}`);
          assert.ok(read.body.equals(o.sent!), `upload ${o.slug} reads back whole`);
        } else {
          // Cut by the crash: either never stored, or stored whole before the answer was lost.
          assert.ok(
            read.status === 404 || (read.status === 200 && read.body.equals(o.sent!)),
            `failed upload ${o.slug} (${o.status} ${o.error ?? ''}) is no partial share: ${read.status}`,
          );
        }
      }
      return uploads;
    }

    const summary = (outcomes: Outcome[]) =>
      JSON.stringify(
        outcomes
          .filter((o) => !o.ok)
          .slice(0, 10)
          .map(({ op, status, error }) => ({ op, status, error })),
      );

    it('kill -9 of one instance while 32 clients read and upload: the others answer, reads are retried, no upload lost', async () => {
      const load = await startLoad('crash');
      const victim = cluster.instances[1]!;
      let outcomes: Outcome[];
      let atKill: number;
      try {
        await load.more(300);
        assert.equal(await cluster.stop(1, 'SIGKILL'), null, 'killed');
        atKill = load.outcomes.length;
        await load.more(600);
      } finally {
        outcomes = await load.stop();
      }
      try {
        const reads = outcomes.filter((o) => o.op !== 'upload');
        // A read the killed instance had begun to answer is cut (no proxy can resend half an
        // answer); any other is retried on another instance: none is answered 502/503.
        const failedReads = reads.filter((o) => !o.ok);
        assert.ok(
          failedReads.every((o) => o.status === 0) && failedReads.length <= 32,
          `reads are retried: ${summary(reads)}`,
        );
        assert.ok(outcomes.slice(atKill).filter((o) => o.ok).length >= 550, 'the two others keep answering');
        for (const other of [cluster.instances[0]!, cluster.instances[2]!]) {
          assert.equal((await fetch(`${other.origin}/api/health`)).status, 200, `${other.name} is healthy`);
        }
        await assert.rejects(fetch(`${victim.origin}/api/health`), `${victim.name} is gone`);
        const uploads = await checkUploads(outcomes);
        assert.ok(uploads.filter((o) => o.ok).length > 100, 'uploads went on');
        // Only what was in flight on the killed instance may have failed.
        assert.ok(uploads.filter((o) => !o.ok).length <= 32, summary(uploads));
      } finally {
        await cluster.restart(1);
      }
    });

    it('a rolling restart (SIGTERM one at a time, back before the next) under load: no request fails', async () => {
      const load = await startLoad('rolling');
      let outcomes: Outcome[];
      try {
        await load.more(100);
        for (let i = 0; i < cluster.instances.length; i++) {
          const { name } = cluster.instances[i]!;
          assert.equal(await cluster.stop(i, 'SIGTERM'), 0, `${name} drained and exited 0`);
          await load.more(50);
          await cluster.restart(i);
          // The documented procedure (deploy/cubby.nginx.conf): nginx left the instance out while it
          // drained; wait until it takes it back before the next one drains.
          await new Promise((resolve) => setTimeout(resolve, cluster.failTimeoutMs + 500));
          await load.more(50);
        }
      } finally {
        outcomes = await load.stop();
      }
      assert.deepEqual(
        outcomes.filter((o) => !o.ok).length,
        0,
        `${summary(outcomes)}\nnginx: ${cluster
          .nginxLog()
          .split('\n')
          .filter((line) => line.includes('[error]') && !line.includes('connect() failed'))
          .slice(-10)
          .join('\n')}`,
      );
      await checkUploads(outcomes);
    });
  });
  // Last: it moves instance A's clock a day on, which ends the admin's session there.
  it("a killed instance's unfinished multipart upload is aborted by the job on another", async () => {
    const [a, b] = cluster.instances;
    const init = await json(`${b!.origin}/api/admin/fs/multipart/init`, {
      method: 'POST',
      headers: cluster.admin,
      json: { path: '/cluster/', filename: 'stray.bin', fileSize: 6 * MiB },
    });
    assert.equal(init.status, 200, init.text);
    const { uploadId, key } = init.body.data;
    const query = new URLSearchParams({ uploadId, key, partNumber: '1' });
    const part = await json(`${b!.origin}/api/admin/fs/multipart/part?${query}`, {
      method: 'POST',
      headers: { ...cluster.admin, 'Content-Type': 'application/octet-stream' },
      body: randomBytes(5 * MiB),
    });
    assert.equal(part.status, 200, part.text);
    const pending = async () =>
      (
        (await cluster.s3.send(new ListMultipartUploadsCommand({ Bucket: cluster.bucket }))).Uploads ?? []
      ).map((upload) => upload.UploadId);
    assert.ok((await pending()).includes(uploadId), 'the upload is open in the bucket');
    assert.equal(await cluster.stop(1, 'SIGKILL'), null, 'killed');
    try {
      // A day later for A: the upload is a stray (no session knows it), and the job aborts it.
      const moved = await json(`${a!.origin}/api/__test__/clock`, {
        method: 'POST',
        json: { advanceMs: 25 * 3600_000 },
      });
      assert.equal(moved.status, 200, moved.text);
      const started = Date.now();
      while ((await pending()).includes(uploadId)) {
        assert.ok(Date.now() - started < 10 * cluster.jobIntervalMs, 'the job never aborted it');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await cluster.restart(1);
    }
  });
});
