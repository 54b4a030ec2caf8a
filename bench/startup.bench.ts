/**
 * Start time and idle memory of the server process: the compiled output (`npm start`, the systemd
 * unit) against the TypeScript sources run with the tsx loader. Time from spawn to the first 200
 * from /api/health on a fresh SQLite data dir (migrations included), and the resident set size 3 s
 * after that with no requests. Median of 5 starts each.
 *
 * `node --import tsx bench/startup.bench.ts` runs it alone; `npm run bench` runs it with the others.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, freePort, machine, median, writeSection } from './lib/harness.ts';

const RUNS = 5;
const MODES = {
  'compiled (node packages/server/dist/main.js)': [path.join(REPO_ROOT, 'packages/server/dist/main.js')],
  'tsx loader (node --import tsx packages/server/src/main.ts)': [
    '--import',
    'tsx',
    path.join(REPO_ROOT, 'packages/server/src/main.ts'),
  ],
};

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function startOnce(args: string[]): Promise<{ ms: number; rss: number }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-bench-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD: 'bench-start-pw',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error(`${args.join(' ')} not healthy in 60 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, 3000));
    return { ms, rss: rssMiB(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<void> {
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the server build failed');
  const rows: string[] = [];
  for (const [label, args] of Object.entries(MODES)) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await startOnce(args));
    const ms = median(runs.map((r) => r.ms));
    const rss = median(runs.map((r) => r.rss));
    console.log(`${label}: ${Math.round(ms)} ms to healthy, ${rss.toFixed(0)} MiB idle RSS`);
    rows.push(`| ${label} | ${Math.round(ms)} | ${rss.toFixed(0)} |`);
  }
  writeSection(
    'Server start and idle memory',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. From spawn to the first 200 from /api/health ` +
      `(fresh SQLite data dir, migrations included), and the resident set 3 s later with no requests; median of ` +
      `${RUNS} starts each. Issue 15: production runs the compiled output (\`npm start\`, deploy/cubby.service); ` +
      `before it, 1.8 s and 160 MB with the loader.\n\n` +
      `| how | ms to healthy | idle RSS MiB |\n|---|---|---|\n${rows.join('\n')}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await benchStartup();
