/**
 * Shared pieces of the benchmarks: start the real server on a temp DATA_DIR, run autocannon,
 * describe the machine, and write a section of bench/RESULTS.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface BenchServer {
  base: string;
  child: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

export const ADMIN_PASSWORD = 'bench-admin-password';

export async function startServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-bench-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'packages/server/src/main.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        // Always a fresh SQLite file: a DATABASE_URL left in the shell would share state between runs.
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        ADMIN_PASSWORD,
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function adminToken(base: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
export function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux
}

export interface LoadResult {
  /** Server CPU per request, µs: stable when the machine is busy, unlike req/s. */
  cpuUs?: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(options: autocannon.Options, serverPid?: number): Promise<LoadResult> {
  const cpuBefore = serverPid ? cpuMicros(serverPid) : 0;
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  const total = result.requests.total;
  return {
    cpuUs: serverPid && total ? Math.round((cpuMicros(serverPid) - cpuBefore) / total) : undefined,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Replaces (or appends) the section headed `## title` in bench/RESULTS.md. */
export function writeSection(title: string, body: string): void {
  const file = path.join(REPO_ROOT, 'bench/RESULTS.md');
  const current = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : '# Benchmark results\n\nWritten by `npm run bench`. Figures from one run on the machine named in each section.\n';
  const heading = `## ${title}`;
  const start = current.indexOf(heading);
  const section = `${heading}\n\n${body.trim()}\n`;
  if (start === -1) {
    fs.writeFileSync(file, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  fs.writeFileSync(file, current.slice(0, start) + section + (next === -1 ? '' : current.slice(next)));
}

/** The middle value (the upper middle of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Milliseconds of `fn`, median of `rounds` runs after one warm-up; `before` runs untimed before each. */
export async function timeMs(
  rounds: number,
  fn: () => Promise<unknown>,
  before?: () => Promise<unknown>,
): Promise<number> {
  await before?.();
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await before?.();
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** A JSON call of the admin API (POST with a body, else GET, or `method`); its `data`, or an error. */
export async function adminApi<T>(
  server: BenchServer,
  token: string,
  route: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<T> {
  const res = await fetch(`${server.base}${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T; message: string };
  if (!res.ok) throw new Error(`${route}: ${res.status} ${json.message}`);
  return json.data;
}

/** `res` when it is a 2xx answer, else an error naming `what`, the status and the body. */
export async function ok(res: Response, what: string): Promise<Response> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
}

/**
 * The default storage config (local disk on a fresh server) and a folder `name` in it holding
 * `count` small files `file-<n>.txt`, numbered with as many digits as `count` has.
 */
export async function localFolderOfFiles(
  server: BenchServer,
  token: string,
  name: string,
  count: number,
): Promise<{ configId: string; dir: string }> {
  const configs = await adminApi<Array<{ id: string; is_default: number; root_path?: string }>>(
    server,
    token,
    '/api/s3-configs',
  );
  const local = configs.find((c) => c.is_default)!;
  const dir = path.join(local.root_path ?? path.join(server.dataDir, 'storage'), name);
  await fs.promises.mkdir(dir, { recursive: true });
  const digits = String(count).length;
  for (let i = 0; i < count; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - i) }, (_, j) =>
        fs.promises.writeFile(
          path.join(dir, `file-${String(i + j).padStart(digits, '0')}.txt`),
          `file ${i + j}\n`,
        ),
      ),
    );
  }
  return { configId: local.id, dir };
}
