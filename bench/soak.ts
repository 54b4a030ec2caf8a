/**
 * Soak (issue 15): a mixed load against ONE real server process for N minutes — paste writes and
 * reads, small file-share uploads and downloads, fs listings of a mounted folder, WebDAV PUT and GET —
 * at a modest concurrency, printing every minute the requests per second, the errors by kind and the
 * server's resident memory (/proc/<pid>/status), and at the end the RSS growth per million requests
 * from the end of the warm-up to the end. Goal: 0 errors and < 5 MB per million requests over 30
 * minutes. What it creates it deletes again as it goes (at most RING pastes and files live at once),
 * so the growth it measures is the server's, not the data's.
 *
 *   npm run soak -- [--minutes 30] [--concurrency 12] [--storage local|s3] [--db sqlite|pg]
 *                   [--warmup-minutes 1] [--report-seconds 60] [--record]
 *
 * `--storage s3` uses the S3 server S3_ENDPOINT names (radosgw) with a throwaway bucket; `--db pg` a
 * throwaway database on the PostgreSQL server DATABASE_URL names. `--record` writes the run to
 * bench/RESULTS.md. Exits 1 when the goal is not met.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  type BenchServer,
  ADMIN_PASSWORD,
  adminApi as api,
  adminToken,
  machine,
  ok,
  startServer,
  writeSection,
} from './lib/harness.ts';
import { s3ConfigBody, withBucket, withS3Server } from './lib/s3.ts';
import { rss } from './lib/streams.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '12' },
    storage: { type: 'string', default: 'local' },
    db: { type: 'string', default: 'sqlite' },
    'warmup-minutes': { type: 'string', default: '1' },
    'report-seconds': { type: 'string', default: '60' },
    record: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(args.minutes);
const CONCURRENCY = Number(args.concurrency);
const WARMUP_MS = Number(args['warmup-minutes']) * 60_000;
const REPORT_MS = Number(args['report-seconds']) * 1000;
const STORAGE = args.storage === 's3' ? 's3' : 'local';
const DB = args.db === 'pg' || args.db === 'postgres' ? 'pg' : 'sqlite';
const GOAL_MB_PER_MILLION = 5;
/** Pastes and files kept alive at once; older ones are deleted as new ones come. */
const RING = 200;
/** WebDAV files overwritten in turn. */
const DAV_FILES = 50;
/** Files in the listed folder. */
const LISTED_FILES = 100;

if (!(MINUTES > 0) || !(CONCURRENCY > 0) || CONCURRENCY > 64) {
  console.error(
    'usage: npm run soak -- --minutes N [--concurrency 1..64] [--storage local|s3] [--db sqlite|pg]',
  );
  process.exit(2);
}

const BASIC = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const pasteText = (n: number) =>
  `# Soak ${n}\n\n` + 'Some **markdown** text for the soak test.\n'.repeat(20 + (n % 60));
const fileBytes = (n: number) => randomBytes(1024 * (1 + (n % 64)));

/** A throwaway PostgreSQL database on the server DATABASE_URL names; its URL and a way to drop it. */
async function throwawayDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl)
    throw new Error('--db pg needs DATABASE_URL (a PostgreSQL server the soak may create a database on)');
  const name = `cubby_soak_${randomBytes(6).toString('hex')}`;
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

interface Counters {
  requests: number;
  errors: Map<string, number>;
}

class Soak {
  private n = 0;
  private readonly pastes: Array<{ id: number; slug: string }> = [];
  private readonly files: Array<{ id: string; slug: string }> = [];
  private readonly davWritten = new Set<number>();
  readonly total: Counters = { requests: 0, errors: new Map() };
  window: Counters = { requests: 0, errors: new Map() };

  constructor(
    private readonly server: BenchServer,
    private readonly token: string,
    private readonly mountPath: string,
    private readonly configId: string | undefined,
  ) {}

  private get bearer() {
    return { Authorization: `Bearer ${this.token}` };
  }

  private error(kind: string) {
    for (const c of [this.total, this.window]) c.errors.set(kind, (c.errors.get(kind) ?? 0) + 1);
  }

  /** One request: counted, its body read to the end, a non-2xx or a network failure an error of its kind. */
  private async call(op: string, path: string, init: RequestInit = {}): Promise<Response | undefined> {
    this.total.requests++;
    this.window.requests++;
    try {
      const res = await fetch(`${this.server.base}${path}`, init);
      if (!res.ok) {
        await res.arrayBuffer().catch(() => undefined);
        this.error(`${op} ${res.status}`);
        return undefined;
      }
      return res;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      this.error(`${op} ${cause?.code ?? (error as Error).name}`);
      return undefined;
    }
  }

  private async json<T>(op: string, path: string, init: RequestInit = {}): Promise<T | undefined> {
    const res = await this.call(op, path, init);
    if (!res) return undefined;
    return ((await res.json()) as { data: T }).data;
  }

  private pick<T>(list: T[]): T | undefined {
    return list[Math.floor(Math.random() * list.length)];
  }

  /** One of the newer half of a ring: never one a concurrent write is about to delete. */
  private recent<T>(ring: T[]): T | undefined {
    return this.pick(ring.slice(-RING / 2));
  }

  async pasteWrite() {
    const n = this.n++;
    const made = await this.json<{ id: number; slug: string }>('paste write', '/api/paste', {
      method: 'POST',
      headers: { ...this.bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: pasteText(n), remark: `soak ${n}` }),
    });
    if (made) await this.keep(this.pastes, made, 'paste delete', '/api/admin/pastes/');
  }

  /** Adds a share to its ring; when the ring is full, its oldest is deleted through `route` + id. */
  private async keep<T extends { id: number | string; slug: string }>(
    ring: Array<{ id: T['id']; slug: string }>,
    made: T,
    op: string,
    route: string,
  ) {
    ring.push({ id: made.id, slug: made.slug });
    if (ring.length <= RING) return;
    const old = ring.shift()!;
    await this.call(op, `${route}${old.id}`, { method: 'DELETE', headers: this.bearer });
  }

  async pasteRead() {
    const paste = this.recent(this.pastes);
    if (!paste) return this.pasteWrite();
    const route = Math.random() < 0.5 ? `/api/paste/${paste.slug}` : `/api/raw/${paste.slug}`;
    const res = await this.call('paste read', route);
    await res?.arrayBuffer();
  }

  async upload() {
    const n = this.n++;
    const form = new FormData();
    if (this.configId) form.append('s3_config_id', this.configId);
    form.append('file', new Blob([fileBytes(n)]), `soak-${n}.bin`);
    const made = await this.json<{ id: string; slug: string }>('upload', '/api/upload', {
      method: 'POST',
      headers: this.bearer,
      body: form,
    });
    if (made) await this.keep(this.files, made, 'file delete', '/api/admin/files/');
  }

  async download() {
    const file = this.recent(this.files);
    if (!file) return this.upload();
    const res = await this.call('download', `/api/file-download/${file.slug}`);
    await res?.arrayBuffer();
  }

  async list() {
    const res = await this.call(
      'fs list',
      `/api/admin/fs/list?path=${encodeURIComponent(`${this.mountPath}/listed`)}`,
      {
        headers: this.bearer,
      },
    );
    await res?.arrayBuffer();
  }

  async davPut() {
    const i = Math.floor(Math.random() * DAV_FILES);
    const res = await this.call('dav PUT', `/dav${this.mountPath}/dav/f-${i}.txt`, {
      method: 'PUT',
      headers: { Authorization: BASIC },
      body: pasteText(this.n++),
    });
    if (res) this.davWritten.add(i);
    await res?.arrayBuffer();
  }

  async davGet() {
    const i = this.pick([...this.davWritten]);
    if (i === undefined) return this.davPut();
    const res = await this.call('dav GET', `/dav${this.mountPath}/dav/f-${i}.txt`, {
      headers: { Authorization: BASIC },
    });
    await res?.arrayBuffer();
  }

  /** The mix: mostly reads, as a sharing site sees them. */
  readonly mix: Array<[weight: number, name: string, run: () => Promise<unknown>]> = [
    [25, 'paste read', () => this.pasteRead()],
    [8, 'paste write', () => this.pasteWrite()],
    [20, 'download', () => this.download()],
    [8, 'upload', () => this.upload()],
    [17, 'fs list', () => this.list()],
    [7, 'dav PUT', () => this.davPut()],
    [15, 'dav GET', () => this.davGet()],
  ];

  async one() {
    let r = Math.random() * this.mix.reduce((s, [w]) => s + w, 0);
    for (const [w, , run] of this.mix) {
      if ((r -= w) < 0) return run();
    }
  }
}

const kinds = (errors: Map<string, number>) =>
  errors.size === 0 ? '0' : [...errors].map(([k, v]) => `${k}: ${v}`).join(', ');
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

async function soak(
  env: Record<string, string>,
  storageLabel: string,
  s3?: (token: string, server: BenchServer) => Promise<string>,
) {
  const server = await startServer({ LOG_LEVEL: 'warn', ...env });
  try {
    const pid = server.child.pid!;
    const token = await adminToken(server.base);
    const configId = s3 ? await s3(token, server) : undefined;
    const config =
      configId ??
      (await api<Array<{ id: string; is_default: boolean | number }>>(server, token, '/api/s3-configs')).find(
        (c) => c.is_default,
      )!.id;
    const mountPath = '/soak';
    await api(server, token, '/api/admin/mounts', {
      name: 'soak',
      storage_config_id: config,
      mount_path: mountPath,
      cache_ttl: 60,
    });
    // The listed folder: LISTED_FILES small files, written through WebDAV.
    await ok(
      await fetch(`${server.base}/dav${mountPath}/listed/`, {
        method: 'MKCOL',
        headers: { Authorization: BASIC },
      }),
      'MKCOL',
    );
    await ok(
      await fetch(`${server.base}/dav${mountPath}/dav/`, {
        method: 'MKCOL',
        headers: { Authorization: BASIC },
      }),
      'MKCOL',
    );
    for (let i = 0; i < LISTED_FILES; i++) {
      await ok(
        await fetch(`${server.base}/dav${mountPath}/listed/file-${i}.txt`, {
          method: 'PUT',
          headers: { Authorization: BASIC },
          body: `file ${i}\n`,
        }),
        'seed PUT',
      );
    }

    const load = new Soak(server, token, mountPath, configId);
    const start = performance.now();
    const end = start + MINUTES * 60_000;
    const line = `Soak: ${MINUTES} min, ${CONCURRENCY} concurrent clients, storage ${storageLabel}, database ${DB === 'pg' ? 'PostgreSQL' : 'SQLite'}; mix ${load.mix.map(([w, name]) => `${name} ${w}%`).join(', ')}`;
    console.log(line);
    console.log(`server pid ${pid}, RSS at start ${mb(rss(pid))} MB`);

    // RSS sampled every second; a report's figure is the median of its window's samples (GC swings
    // it by tens of MB). The growth compares the first whole window after the warm-up with the last.
    let samples: number[] = [];
    const sampler = setInterval(() => samples.push(rss(pid)), 1000);
    const steady = () => [...samples].sort((a, b) => a - b)[samples.length >> 1] ?? rss(pid);
    let warm: { rss: number; requests: number } | undefined;
    const rows: string[] = [];
    let windowStart = start;
    let requestsAtWindowStart = 0;
    let lastMemory = 0;
    const report = () => {
      const now = performance.now();
      const seconds = (now - windowStart) / 1000;
      const minute = ((now - start) / 60_000).toFixed(1);
      const memory = (lastMemory = steady());
      const row = `| ${minute} | ${Math.round(load.window.requests / seconds).toLocaleString('en')} | ${kinds(load.window.errors)} | ${mb(memory)} |`;
      rows.push(row);
      console.log(
        `[${minute} min] ${Math.round(load.window.requests / seconds)} req/s, errors ${kinds(load.window.errors)}, RSS ${mb(memory)} MB`,
      );
      if (!warm && windowStart - start >= WARMUP_MS) warm = { rss: memory, requests: requestsAtWindowStart };
      load.window = { requests: 0, errors: new Map() };
      samples = [];
      windowStart = now;
      requestsAtWindowStart = load.total.requests;
    };
    const reporter = setInterval(report, REPORT_MS);

    const worker = async () => {
      while (performance.now() < end) await load.one();
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    clearInterval(reporter);
    // The tail since the last report, when long enough for a median of its own.
    if (rows.length === 0 || performance.now() - windowStart >= REPORT_MS / 2) report();
    clearInterval(sampler);
    const final = lastMemory;
    const totalErrors = [...load.total.errors.values()].reduce((a, b) => a + b, 0);
    const after = warm ? load.total.requests - warm.requests : 0;
    const perMillion = warm && after > 0 ? ((final - warm.rss) / 1e6 / after) * 1e6 : NaN;
    const seconds = (performance.now() - start) / 1000;
    const met = totalErrors === 0 && perMillion < GOAL_MB_PER_MILLION;
    const summary =
      `${load.total.requests.toLocaleString('en')} requests in ${(seconds / 60).toFixed(1)} min ` +
      `(${Math.round(load.total.requests / seconds)} req/s), errors ${kinds(load.total.errors)}; RSS ` +
      (warm
        ? `${mb(warm.rss)} MB in the first window after the warm-up → ${mb(final)} MB at the end over ${after.toLocaleString('en')} requests: ` +
          `${perMillion.toFixed(2)} MB per million requests`
        : `no figure (no whole report window after the warm-up)`) +
      `. Goal (0 errors, < ${GOAL_MB_PER_MILLION} MB per million): ${met ? 'met' : 'NOT met'}.`;
    console.log(summary);
    if (args.record) {
      writeSection(
        `Soak: ${storageLabel}, ${DB === 'pg' ? 'PostgreSQL' : 'SQLite'}`,
        `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}; \`npm run soak -- --minutes ${MINUTES} --concurrency ${CONCURRENCY} --storage ${STORAGE} --db ${DB}\`.\n\n` +
          `${line}. RSS is the median of the one-second samples of the server's VmRSS in each report window; the growth compares the first whole window after the ${WARMUP_MS / 60_000}-minute warm-up with the last.\n\n` +
          `| minute | req/s | errors | RSS MB |\n|---|---|---|---|\n${rows.join('\n')}\n\n${summary}`,
      );
    }
    return met;
  } finally {
    await server.stop();
  }
}

const database = DB === 'pg' ? await throwawayDatabase() : undefined;
let met: boolean | undefined;
try {
  const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  if (STORAGE === 'local') {
    met = await soak(env, 'local disk');
  } else {
    met = await withS3Server((s3server) =>
      withBucket(s3server, (bucket) =>
        soak(env, 'S3 (radosgw)', async (token, server) => {
          const made = await api<{ id: string }>(
            server,
            token,
            '/api/s3-configs',
            s3ConfigBody(s3server, bucket, 'soak'),
          );
          return made.id;
        }),
      ),
    );
  }
} finally {
  await database?.drop();
}
process.exit(met ? 0 : 1);
