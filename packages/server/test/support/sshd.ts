/**
 * A real OpenSSH server for tests: `/usr/sbin/sshd -D -e` (the openssh-server package; its system
 * service is never used) on a free loopback port, from an sshd_config in a temporary folder with its
 * own ed25519 host key, its own authorized_keys (a plain test key and one sealed with a passphrase)
 * and `internal-sftp`. The login is the user the tests run as (root in CI).
 *
 * Password logins are checked against /etc/shadow (UsePAM no). So that a right password can be
 * tested without touching the machine's accounts, sshd runs in a mount namespace of its own where a
 * copy of /etc/shadow, with a test password for the login, is bound over the real one: nothing
 * outside that namespace sees it. Ready when the server sends its SSH banner on a real connection.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.ts';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';
const READY_TIMEOUT_MS = 15_000;

export interface TestSshd {
  host: '127.0.0.1';
  port: number;
  /** The login (the user running the tests). */
  username: string;
  /** The login's password inside sshd's namespace. */
  password: string;
  /** OpenSSH private key (no passphrase) the server accepts. */
  privateKey: string;
  /** A second accepted key, sealed with `passphrase`. */
  sealedKey: string;
  passphrase: string;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it (`SHA256:…`). */
  hostKeyFingerprint: string;
  /** A fresh folder to serve as a driver's root (removed by close()). */
  makeRoot(): Promise<string>;
  /** Stops the server and every connection it serves, keeping its keys (start() brings it back). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Pids of every process below `pid` (sshd forks one per connection, in a session of its own). */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isFinite(ppid)) continue;
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const child of parents.get(p) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** Resolves once something on the port answers with an SSH banner. */
function banner(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('data', (data) => {
      socket.destroy();
      if (data.toString('latin1').startsWith('SSH-')) resolve();
      else reject(new Error('not an SSH banner'));
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('no banner'));
    });
    socket.once('error', reject);
  });
}

export async function startTestSshd(): Promise<TestSshd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cubby-sshd-'));
  const roots = path.join(dir, 'roots');
  await mkdir(roots);
  // sshd refuses to start without its privilege-separation folder (the package's service makes it).
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const keygen = (file: string, passphrase = '') =>
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'cubby-test', '-f', file]);
  const passphrase = 'sealed key passphrase';
  await Promise.all([
    keygen(path.join(dir, 'host_key')),
    keygen(path.join(dir, 'user_key')),
    keygen(path.join(dir, 'sealed_key'), passphrase),
  ]);
  await writeFile(
    path.join(dir, 'authorized_keys'),
    (await readFile(path.join(dir, 'user_key.pub'), 'utf8')) +
      (await readFile(path.join(dir, 'sealed_key.pub'), 'utf8')),
  );
  const { stdout: printed } = await run('ssh-keygen', ['-lf', path.join(dir, 'host_key.pub')]);
  const hostKeyFingerprint = printed.split(' ')[1]!;

  const username = userInfo().username;
  const password = 'right Password 4711';
  const { stdout: hash } = await run('openssl', ['passwd', '-6', password]);
  const shadow = (await readFile('/etc/shadow', 'utf8'))
    .split('\n')
    .map((line) => {
      const fields = line.split(':');
      if (fields[0] !== username) return line;
      fields[1] = hash.trim();
      return fields.join(':');
    })
    .join('\n');
  await writeFile(path.join(dir, 'shadow'), shadow, { mode: 0o600 });

  const port = await freePort();
  await writeFile(
    path.join(dir, 'sshd_config'),
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${path.join(dir, 'host_key')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin yes',
      'PubkeyAuthentication yes',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'MaxStartups 100',
      'MaxSessions 20',
      'LogLevel ERROR',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  await chmod(path.join(dir, 'host_key'), 0o600);

  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    if (child && child.exitCode === null) return;
    // A private mount namespace: the shadow copy is bound over /etc/shadow for sshd alone.
    child = spawn(
      'unshare',
      [
        '--mount',
        '--propagation',
        'private',
        'sh',
        '-c',
        'mount --bind "$1" /etc/shadow && exec "$2" -D -e -f "$3"',
        'sh',
        path.join(dir, 'shadow'),
        SSHD,
        path.join(dir, 'sshd_config'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${output}`);
      try {
        await banner(port);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`sshd not ready: ${String(error)} ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running?.pid || running.exitCode !== null) return;
    // The connections' processes first (they outlive the listener otherwise), then the listener.
    for (const pid of await descendants(running.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await gone;
  };

  await start();
  return {
    host: '127.0.0.1',
    port,
    username,
    password,
    privateKey: await readFile(path.join(dir, 'user_key'), 'utf8'),
    sealedKey: await readFile(path.join(dir, 'sealed_key'), 'utf8'),
    passphrase,
    hostKeyFingerprint,
    makeRoot: () => mkdtemp(path.join(roots, 'root-')),
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
