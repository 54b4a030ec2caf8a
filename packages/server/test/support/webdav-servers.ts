/**
 * Real WebDAV servers for tests, each on a free loopback port with its config and data in a
 * temporary folder (their system services are never used):
 * - Apache httpd with mod_dav / mod_dav_fs, run in the foreground as one process (`-X`) from its own
 *   ServerRoot, Basic auth against an htpasswd file written here (a `{SHA}` line);
 * - `rclone serve webdav` over a local folder, plain or with TLS (a certificate made here);
 * - Cubby's own /dav: in cubby-dav.ts (it loads the whole app, which browser tests must not).
 * Ready when an authenticated PROPFIND of the root answers 207. `stop()` kills the server (its
 * connections drop at once), `start()` brings it back on the same port with the same data.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.ts';

export const DAV_USER = 'cubby';
export const DAV_PASSWORD = 'dav-Secret-4711';
const READY_TIMEOUT_MS = 15_000;
const APACHE = '/usr/sbin/apache2';
const APACHE_MODULES = '/usr/lib/apache2/modules';
/** The unprivileged user Apache serves as when the tests run as root. */
const APACHE_USER = 'www-data';

export interface TestWebdavServer {
  /** `http(s)://127.0.0.1:<port>/…`: the WebDAV root URL. */
  url: string;
  /** Basic credentials it takes (DAV_USER and DAV_PASSWORD but for Cubby, whose admin signs in). */
  username: string;
  password: string;
  port: number;
  /** The folder on this machine the server serves (for planting files the driver must not reach). */
  dataDir: string;
  /** Stops the server, keeping its data (start() brings it back on the same port). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, made with openssl in `dir`. */
export async function selfSignedCert(dir: string): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { cert, key };
}

/** Polls an authenticated PROPFIND of `url` until it answers 207, or the process exits. */
async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const auth = `Basic ${Buffer.from(`${DAV_USER}:${DAV_PASSWORD}`).toString('base64')}`;
  const probe = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const transport = url.startsWith('https:') ? https : http;
      const req = transport.request(url, {
        method: 'PROPFIND',
        headers: { Depth: '0', Authorization: auth },
        rejectUnauthorized: false,
        agent: false,
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the WebDAV server exited (${child.exitCode}): ${output()}`);
    const status = await probe().catch(() => 0);
    if (status === 207) return;
    if (Date.now() > deadline) throw new Error(`the WebDAV server is not ready (${status}): ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts the server `command` runs (run anew by each start) and waits until `url` answers; the
 * server's temp folder `dir` goes on close.
 */
async function runServer(
  dir: string,
  port: number,
  url: string,
  command: [string, string[]],
): Promise<TestWebdavServer> {
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    let output = '';
    const started = spawn(command[0], command[1], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    started.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    await waitReady(url, started, () => output);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await gone;
  };
  await start();
  return {
    url,
    username: DAV_USER,
    password: DAV_PASSWORD,
    port,
    dataDir: path.join(dir, 'data'),
    start,
    stop,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Apache httpd with mod_dav_fs serving a fresh folder at `/dav/`, and the same folder at
 * `/norange/` with every Range header dropped before Apache sees it.
 */
export async function startApacheDav(): Promise<TestWebdavServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cubby-apache-dav-'));
  // Apache drops to www-data: it must reach its data through the temp folder.
  await chmod(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  const lockDir = path.join(dir, 'lock');
  await mkdir(dataDir);
  await mkdir(lockDir);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await userIds(APACHE_USER);
    await chown(dataDir, uid, gid);
    await chown(lockDir, uid, gid);
  }
  const sha = createHash('sha1').update(DAV_PASSWORD).digest('base64');
  await writeFile(path.join(dir, 'htpasswd'), `${DAV_USER}:{SHA}${sha}\n`);
  const port = await freePort();
  const modules = [
    ['mpm_event_module', 'mod_mpm_event.so'],
    ['authz_core_module', 'mod_authz_core.so'],
    ['authn_core_module', 'mod_authn_core.so'],
    ['auth_basic_module', 'mod_auth_basic.so'],
    ['authn_file_module', 'mod_authn_file.so'],
    ['authz_user_module', 'mod_authz_user.so'],
    ['alias_module', 'mod_alias.so'],
    ['dav_module', 'mod_dav.so'],
    ['dav_fs_module', 'mod_dav_fs.so'],
    ['headers_module', 'mod_headers.so'],
  ];
  const conf = [
    `ServerRoot ${dir}`,
    `PidFile ${path.join(dir, 'httpd.pid')}`,
    `ErrorLog ${path.join(dir, 'error.log')}`,
    'LogLevel warn',
    `Listen 127.0.0.1:${port}`,
    'ServerName 127.0.0.1',
    ...(asRoot ? [`User ${APACHE_USER}`, `Group ${APACHE_USER}`] : []),
    ...modules.map(([name, file]) => `LoadModule ${name} ${APACHE_MODULES}/${file}`),
    `DavLockDB ${path.join(lockDir, 'DavLock')}`,
    // Apache 2.4.54 limits request bodies to 1 GiB by default; the big-file test sends exactly that.
    'LimitRequestBody 0',
    'KeepAliveTimeout 30',
    `Alias /dav ${dataDir}`,
    `<Directory ${dataDir}>`,
    '  Dav On',
    // No symbolic links are followed (the confinement test plants one).
    '  Options None',
    '  AllowOverride None',
    '  AuthType Basic',
    '  AuthName cubby-test',
    `  AuthUserFile ${path.join(dir, 'htpasswd')}`,
    '  Require valid-user',
    '</Directory>',
    // The same folder again at /norange/, as a server that ignores Range (it always sends all).
    `Alias /norange ${dataDir}`,
    '<Location /norange>',
    '  RequestHeader unset Range',
    '</Location>',
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'httpd.conf'), conf);
  const url = `http://127.0.0.1:${port}/dav/`;
  return runServer(dir, port, url, [APACHE, ['-X', '-f', path.join(dir, 'httpd.conf')]]);
}

/** `rclone serve webdav` over a fresh folder; with `tls`, over https with a self-signed certificate. */
export async function startRcloneDav(options: { tls?: boolean } = {}): Promise<TestWebdavServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cubby-rclone-dav-'));
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir);
  const config = path.join(dir, 'rclone.conf');
  await writeFile(config, '');
  const tls = options.tls ? await selfSignedCert(dir) : undefined;
  const port = await freePort();
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}/`;
  const args = [
    'serve',
    'webdav',
    dataDir,
    '--addr',
    `127.0.0.1:${port}`,
    '--user',
    DAV_USER,
    '--pass',
    DAV_PASSWORD,
    '--config',
    config,
    // Tests change the folder behind the server's back (a planted link): no cached listings.
    '--dir-cache-time',
    '1s',
    ...(tls ? ['--cert', tls.cert, '--key', tls.key] : []),
  ];
  return runServer(dir, port, url, ['rclone', args]);
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const { stdout } = await promisify(execFile)('id', [name]);
  const uid = /uid=(\d+)/.exec(stdout)?.[1];
  const gid = /gid=(\d+)/.exec(stdout)?.[1];
  if (!uid || !gid) throw new Error(`no user ${name}`);
  return { uid: Number(uid), gid: Number(gid) };
}
