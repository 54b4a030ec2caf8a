/**
 * Several compiled Cubby processes on one fresh PostgreSQL database and one S3 bucket (radosgw), with
 * the same SECRET_KEY, behind nginx running the very configuration in deploy/cubby.nginx.conf (its
 * upstream ports and listen address replaced), all on 127.0.0.1. For the multi-instance suite.
 *
 * nginx runs as the test user with its own prefix, pid, temp and log files in a temp dir. When nginx
 * or PostgreSQL or S3 is missing the suite fails with a message saying how to get it.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { createPostgresDatabase } from './databases.ts';
import { createBucket, deleteBucket, s3AdminClient, s3ConfigBody, s3Env } from './s3.ts';
import {
  COMPILED_MAIN,
  REPO_ROOT,
  type RunningProcess,
  ensureServerBuild,
  freePort,
  runCommand,
  runScript,
  waitFor,
} from './server-process.ts';

export const ADMIN_PASSWORD = 'cluster-admin-password';
/** Every periodic job runs this often (the jobs-once-per-interval scenario counts their runs). */
const JOB_INTERVAL_SECONDS = 2;
const NGINX_CONF = path.join(REPO_ROOT, 'deploy/cubby.nginx.conf');

export interface Instance {
  name: string;
  port: number;
  origin: string;
  proc: RunningProcess;
}

export interface Cluster {
  /** nginx's address: every request through it goes to one of the instances. */
  origin: string;
  instances: Instance[];
  /** An admin bearer token (sessions live in the shared database: any instance accepts it). */
  admin: Record<string, string>;
  /** The S3 storage config every upload goes to (the default). */
  storageConfigId: string;
  /** The instances' PostgreSQL database (to read what they recorded, e.g. `job_runs`). */
  databaseUrl: string;
  /** Every periodic job's interval (JOB_INTERVAL_SECONDS), short so runs can be counted. */
  jobIntervalMs: number;
  bucket: string;
  s3: S3Client;
  /** How long nginx leaves out an instance that failed (the deploy file's `fail_timeout`). */
  failTimeoutMs: number;
  /** nginx's error log so far (upstream failures and retries are logged there). */
  nginxLog(): string;
  /** Stops instance `i` with `signal` and resolves with its exit code. */
  stop(i: number, signal: NodeJS.Signals): Promise<number | null>;
  /** Starts instance `i` again on its port and data dir; resolves once it is serving. */
  restart(i: number): Promise<void>;
  close(): Promise<void>;
}

/** The nginx binary, or a failure that says how to install it (the suite must not skip). */
function findNginx(): string {
  const found = ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx'].find(
    (candidate) => spawnSync(candidate, ['-v']).status === 0,
  );
  if (!found) {
    throw new Error(
      'nginx is not installed, so the multi-instance suite cannot run. Install it with ' +
        '`apt-get install -y --no-install-recommends nginx` (.ci/run does); the system service need not run.',
    );
  }
  return found;
}

/** deploy/cubby.nginx.conf with the test's upstream ports and listen address; nothing else changed. */
export function nginxSite(listenPort: number, upstreamPorts: number[]): string {
  const conf = fs.readFileSync(NGINX_CONF, 'utf8');
  const servers = [...conf.matchAll(/^(\s*)server 127\.0\.0\.1:\d+ (.*);$/gm)];
  if (servers.length === 0) throw new Error(`${NGINX_CONF}: no upstream server lines to replace`);
  const [indent, options] = [servers[0]![1], servers[0]![2]];
  const upstream = upstreamPorts.map((port) => `${indent}server 127.0.0.1:${port} ${options};`).join('\n');
  let site = conf.replace(servers[0]![0], upstream);
  for (const extra of servers.slice(1)) site = site.replace(`${extra[0]}\n`, '');
  if (!/^\s*listen 80;$/m.test(site)) throw new Error(`${NGINX_CONF}: no "listen 80;" to replace`);
  return site.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${listenPort};`);
}

async function waitHealthy(origin: string, ms = 30_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const status = await fetch(`${origin}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() - start > ms) throw new Error(`${origin} not healthy after ${ms} ms (last ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startCluster(count = 3): Promise<Cluster> {
  const nginx = findNginx();
  if (!s3Env.endpoint) {
    throw new Error(
      'S3_ENDPOINT is not set, so the multi-instance suite cannot run: run `npm test` (it starts ' +
        'radosgw), or set S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
    );
  }
  await ensureServerBuild();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-cluster-'));
  const database = await createPostgresDatabase();
  const s3 = s3AdminClient();
  const bucket = await createBucket(s3, 'cubby-cluster');
  const nginxPort = await freePort();
  const origin = `http://127.0.0.1:${nginxPort}`;
  const shared = {
    DATABASE_URL: database.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_URL: origin,
    TRUST_PROXY: '1',
    HOST: '127.0.0.1',
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    SHUTDOWN_TIMEOUT_SECONDS: '20',
    JOB_INTERVAL_SECONDS: String(JOB_INTERVAL_SECONDS),
    // The last scenario moves one instance's clock a day on (POST /api/__test__/clock).
    CUBBY_TEST_HOOKS: '1',
  };
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const envOf = (i: number) => ({
    ...shared,
    PORT: String(ports[i]),
    DATA_DIR: path.join(tmp, `instance-${i}`),
  });
  const launch = async (i: number): Promise<RunningProcess> => {
    const proc = runScript(COMPILED_MAIN, envOf(i));
    await waitFor(proc, (out) => out.includes('Cubby is serving'), 30_000);
    return proc;
  };
  const instances: Instance[] = [];
  let nginxProc: RunningProcess | undefined;
  const close = async () => {
    await Promise.all(
      instances.map(async (instance) => {
        if (instance.proc.child.exitCode === null && instance.proc.child.signalCode === null) {
          instance.proc.child.kill('SIGKILL');
          await instance.proc.exited;
        }
      }),
    );
    if (nginxProc && nginxProc.child.exitCode === null) {
      nginxProc.child.kill('SIGTERM');
      await nginxProc.exited;
    }
    await deleteBucket(s3, bucket).catch(() => undefined);
    s3.destroy();
    await database.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    // The first one migrates the database and creates the admin; the others find both.
    instances.push({
      name: 'A',
      port: ports[0]!,
      origin: `http://127.0.0.1:${ports[0]}`,
      proc: await launch(0),
    });
    const rest = await Promise.all(Array.from({ length: count - 1 }, (_, k) => launch(k + 1)));
    rest.forEach((proc, k) =>
      instances.push({
        name: String.fromCharCode(66 + k),
        port: ports[k + 1]!,
        origin: `http://127.0.0.1:${ports[k + 1]}`,
        proc,
      }),
    );

    fs.writeFileSync(path.join(tmp, 'cubby.conf'), nginxSite(nginxPort, ports));
    for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) {
      fs.mkdirSync(path.join(tmp, 'nginx', dir), { recursive: true });
    }
    const nginxDir = path.join(tmp, 'nginx');
    fs.writeFileSync(
      path.join(nginxDir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${nginxDir}/nginx.pid;`,
        `error_log ${nginxDir}/logs/error.log warn;`,
        'events { worker_connections 4096; }',
        'http {',
        '  access_log off;',
        `  client_body_temp_path ${nginxDir}/client_body;`,
        `  proxy_temp_path ${nginxDir}/proxy;`,
        `  fastcgi_temp_path ${nginxDir}/fastcgi;`,
        `  uwsgi_temp_path ${nginxDir}/uwsgi;`,
        `  scgi_temp_path ${nginxDir}/scgi;`,
        `  include ${path.join(tmp, 'cubby.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const errorLog = path.join(nginxDir, 'logs/error.log');
    nginxProc = runCommand(
      nginx,
      ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-e', errorLog],
      {},
    );
    await waitHealthy(origin);

    const login = await fetch(`${origin}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const admin = { Authorization: `Bearer ${token}` };
    const made = await fetch(`${origin}/api/s3-configs`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify(s3ConfigBody('cluster s3', bucket)),
    });
    const storageConfigId = ((await made.json()) as { data: { id: string } }).data.id;
    const setDefault = await fetch(`${origin}/api/s3-configs/${storageConfigId}/set-default`, {
      method: 'PUT',
      headers: admin,
    });
    if (setDefault.status !== 200)
      throw new Error(`set-default: ${setDefault.status} ${await setDefault.text()}`);

    const failTimeout = /fail_timeout=(\d+)s/.exec(fs.readFileSync(NGINX_CONF, 'utf8'))?.[1];
    if (!failTimeout) throw new Error(`${NGINX_CONF}: no fail_timeout=<n>s in the upstream`);
    return {
      origin,
      instances,
      failTimeoutMs: Number(failTimeout) * 1000,
      admin,
      storageConfigId,
      databaseUrl: database.url,
      jobIntervalMs: JOB_INTERVAL_SECONDS * 1000,
      bucket,
      s3,
      nginxLog: () => fs.readFileSync(path.join(nginxDir, 'logs/error.log'), 'utf8'),
      stop: async (i, signal) => {
        instances[i]!.proc.child.kill(signal);
        return instances[i]!.proc.exited;
      },
      restart: async (i) => {
        instances[i]!.proc = await launch(i);
      },
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
