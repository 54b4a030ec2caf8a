#!/usr/bin/env node
// Compiles the server (packages/server/src) and the shared code it imports (packages/shared/src) to
// plain JavaScript in packages/server/dist, which `npm start` and the systemd unit run with `node`.
//
// tsc emits each file as it is (`rewriteRelativeImportExtensions` turns `./x.ts` into `./x.js`), with
// no type check (`noCheck`: `npm run typecheck` does that), so the output keeps the source's layout:
// dist/main.js sits where src/main.ts does, and the paths the server finds relative to itself (the
// web app's dist, the root package.json) are the same. The shared code goes to
// dist/node_modules/@cubby/shared with a package.json of its own, so `import … from '@cubby/shared'`
// in the compiled server finds the compiled copy before the workspace's TypeScript one.
//
// `node scripts/build-server.mjs` builds when the output is missing or older than its sources;
// `--force` always builds. The output is written beside and swapped in at the end, so a process
// starting meanwhile never sees half of it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'packages/server/dist');
const stamp = path.join(dist, '.built');
const sources = [
  'packages/server/src',
  'packages/server/tsconfig.json',
  'packages/server/tsconfig.build.json',
  'packages/shared/src',
  'packages/shared/tsconfig.json',
  'packages/shared/tsconfig.build.json',
  'tsconfig.base.json',
  'scripts/build-server.mjs',
].map((p) => path.join(root, p));

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time among the files under `paths`. */
export function newestMtime(paths) {
  let newest = 0;
  for (const p of paths.filter((p) => fs.existsSync(p))) {
    const files = fs.statSync(p).isDirectory()
      ? fs
          .readdirSync(p, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
      : [p];
    for (const f of files) newest = Math.max(newest, mtime(f));
  }
  return newest;
}

export const serverBuildIsStale = () => newestMtime(sources) > mtime(stamp);

/**
 * Builds the server into packages/server/dist. Answers `{ status, stdout, stderr }` (status 0 when
 * built); tsc's output goes to the console, or with `quiet` into the answer.
 */
export function buildServer({ quiet = false } = {}) {
  const tmp = `${dist}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const steps = [
    ['-p', 'packages/server/tsconfig.build.json', '--outDir', tmp],
    ['-p', 'packages/shared/tsconfig.build.json', '--outDir', path.join(tmp, 'node_modules/@cubby/shared')],
  ];
  for (const args of steps) {
    const run = spawnSync(process.execPath, [tsc, ...args], {
      cwd: root,
      ...(quiet ? { encoding: 'utf8' } : { stdio: 'inherit' }),
    });
    if (run.status !== 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
    }
  }
  const shared = JSON.parse(fs.readFileSync(path.join(root, 'packages/shared/package.json'), 'utf8'));
  fs.writeFileSync(
    path.join(tmp, 'node_modules/@cubby/shared/package.json'),
    `${JSON.stringify({ name: shared.name, version: shared.version, type: 'module', exports: { '.': './index.js' } }, null, 2)}\n`,
  );
  fs.writeFileSync(path.join(tmp, '.built'), `${new Date().toISOString()}\n`);
  fs.rmSync(dist, { recursive: true, force: true });
  fs.renameSync(tmp, dist);
  return { status: 0 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  if (force || serverBuildIsStale()) {
    console.log('Building the server…');
    if (buildServer().status !== 0) process.exit(1);
  }
}
