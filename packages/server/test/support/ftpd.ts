/**
 * A real FTP server for tests: pure-ftpd (installed on the machine; its system service is never
 * used) run in the foreground on a free loopback port, with one virtual user from a puredb made by
 * pure-pw in a temporary folder (no system account is touched: the user's files belong to
 * `nobody`), passive ports from a range of its own, dot files shown, and with `tls` an FTPS server
 * (AUTH TLS) with a self-signed certificate made by openssl. The user is locked into its home
 * folder, which holds `storage/` (the driver's root in tests) and `outside/` (what links point at).
 * Ready when a sign-in succeeds.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'basic-ftp';
import { freePort } from './server-process.ts';

const run = promisify(execFile);
const PURE_FTPD = '/usr/sbin/pure-ftpd';
const READY_TIMEOUT_MS = 15_000;
/** The uid and gid the virtual user's files belong to (`nobody`, `nogroup`). */
const NOBODY = 65534;

export interface TestFtpd {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The FTP path of the folder tests use as the driver's root. */
  root: string;
  /** The user's home folder on this machine (the server's "/"). */
  home: string;
  /** Where the server's PEM certificate is (with `tls`). */
  certFile?: string;
  /** Kills the server and every session it runs, keeping its files (start() brings it back on the same port). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestFtpd(options: { tls?: boolean } = {}): Promise<TestFtpd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cubby-ftpd-'));
  // pure-ftpd serves as `nobody`, which must reach the home folder.
  await chmod(dir, 0o755);
  const home = path.join(dir, 'home');
  for (const folder of [home, path.join(home, 'storage'), path.join(home, 'outside')]) {
    await mkdir(folder);
    await chown(folder, NOBODY, NOBODY);
  }
  const username = 'cubby';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const passwd = path.join(dir, 'passwd');
  const pdb = path.join(dir, 'passwd.pdb');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      'pure-pw',
      ['useradd', username, '-f', passwd, '-u', String(NOBODY), '-g', String(NOBODY), '-d', home],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.end(`${password}\n${password}\n`);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pure-pw: ${err}`))));
  });
  // pure-pw hashes with argon2id at a cost that takes seconds per sign-in on a busy machine: the
  // password field gets a SHA-512 crypt hash instead (pure-ftpd checks either), made by openssl.
  const { stdout: hash } = await run('openssl', ['passwd', '-6', password]);
  const line = (await readFile(passwd, 'utf8')).split(':');
  line[1] = hash.trim();
  await writeFile(passwd, line.join(':'));
  await run('pure-pw', ['mkdb', pdb, '-f', passwd]);
  let certFile: string | undefined;
  if (options.tls) {
    certFile = path.join(dir, 'pure-ftpd.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      certFile,
      '-out',
      certFile,
    ]);
  }
  const port = await freePort();
  const passiveBase = await freePort();
  const passive = `${passiveBase}:${Math.min(passiveBase + 500, 65535)}`;
  const args = [
    '-S',
    `127.0.0.1,${port}`,
    '-l',
    `puredb:${pdb}`,
    '-E', // no anonymous sign-in
    '-A', // every user locked into its home
    '-D', // dot files listed (temp files, multipart parts)
    '-H', // no reverse DNS
    '-4',
    '-u',
    '1',
    '-p',
    passive,
    '-c',
    '50',
    '-C',
    '50',
    ...(certFile ? ['--tls=1', `--certfile=${certFile}`] : []),
  ];
  let child: ChildProcess | undefined;
  let output = '';

  const signIn = async (): Promise<void> => {
    const client = new Client(2000);
    try {
      await client.access({
        host: '127.0.0.1',
        port,
        user: username,
        password,
        secure: Boolean(certFile),
        secureOptions: { rejectUnauthorized: false },
      });
    } finally {
      client.close();
    }
  };

  const start = async () => {
    // Its own process group: stop() ends the sessions (forked children) with it.
    child = spawn(PURE_FTPD, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<never>((_, reject) =>
      child!.once('exit', (code) => reject(new Error(`pure-ftpd exited (${code}): ${output}`))),
    );
    exited.catch(() => {});
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      try {
        await Promise.race([signIn(), exited]);
        return;
      } catch (error) {
        if (child.exitCode !== null || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    try {
      process.kill(-running.pid!, 'SIGKILL');
    } catch {
      running.kill('SIGKILL');
    }
    await gone;
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    username,
    password,
    root: '/storage',
    home,
    ...(certFile ? { certFile } : {}),
    stop,
    start,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
