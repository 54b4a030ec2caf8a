/** Starts the real server process (main.ts) for tests of what only a process shows. */
import { type ChildProcess, spawn } from 'node:child_process';
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

/** Runs a TypeScript entry point of the server with the given environment (nothing inherited but PATH). */
export function runScript(script: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
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
