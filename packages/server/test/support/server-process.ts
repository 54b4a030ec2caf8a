/**
 * Starts the real server process (main.ts with tsx, or the compiled dist/main.js with plain node)
 * for tests of what only a process shows.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
const MAIN = path.join(REPO_ROOT, 'packages/server/src/main.ts');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs an entry point of the server with the given environment (nothing inherited but PATH): a
 * TypeScript one with tsx, a compiled one (.js) with plain node.
 */
export function runScript(script: string, env: Record<string, string>): RunningProcess {
  return runCommand(process.execPath, script.endsWith('.ts') ? ['--import', 'tsx', script] : [script], env);
}

/** Runs a program with the given environment (nothing inherited but PATH), collecting its output. */
export function runCommand(command: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * The environment of a server process on a test database (its data folder, and its PostgreSQL
 * database when it has one) listening on `port`, with the test hooks and the admin's password.
 */
export function serverEnv(
  database: { dataDir: string; url?: string },
  port: number,
  adminPassword: string,
): Record<string, string> {
  return {
    DATA_DIR: database.dataDir,
    PORT: String(port),
    ADMIN_PASSWORD: adminPassword,
    CUBBY_TEST_HOOKS: '1',
    DATABASE_URL: database.url ?? '',
  };
}

export function startServer(env: Record<string, string>): RunningProcess {
  return runScript(MAIN, env);
}

/** Resolves once `predicate(stdout)` holds, or rejects after `ms`. */
export async function waitFor(proc: RunningProcess, predicate: (out: string) => boolean, ms = 20_000) {
  const start = Date.now();
  while (!predicate(proc.stdout())) {
    if (Date.now() - start > ms) {
      throw new Error(`timed out; stdout:\n${proc.stdout()}\nstderr:\n${proc.stderr()}`);
    }
    if (proc.child.exitCode !== null) throw new Error(`exited ${proc.child.exitCode}:\n${proc.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const RESET_PASSWORD = path.join(REPO_ROOT, 'packages/server/src/cli/reset-password.ts');

/** The compiled server (`npm run build`), as `npm start` and the systemd unit run it. */
export const COMPILED_MAIN = path.join(REPO_ROOT, 'packages/server/dist/main.js');
export const COMPILED_RESET_PASSWORD = path.join(REPO_ROOT, 'packages/server/dist/cli/reset-password.js');

/**
 * Builds the compiled server when it is missing or older than its sources (a clean checkout in CI
 * has none). Suites in other processes may ask at the same time: one builds, the others wait.
 */
export async function ensureServerBuild(): Promise<void> {
  const lock = path.join(REPO_ROOT, 'packages/server/.build-lock');
  for (const start = Date.now(); ;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than any build is one a killed run left behind.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() - start > 300_000) throw new Error(`waited 5 minutes for ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-server.mjs')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`the server build failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
