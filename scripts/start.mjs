#!/usr/bin/env node
// `npm start`: builds the web app and the server when their builds are missing or older than their
// sources, then runs the compiled server with plain `node` (SQLite and local storage in ./data unless
// the environment says otherwise).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, newestMtime, serverBuildIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'packages/web');
const builtAt = (() => {
  try {
    return fs.statSync(path.join(web, 'dist/index.html')).mtimeMs;
  } catch {
    return 0;
  }
})();
const newestSource = newestMtime(
  ['src', 'index.html', 'public', '../shared/src'].map((p) => path.join(web, p)),
);
// The builds' own output (a line per file, the bundler's notes) is kept out of the console unless a
// build fails, so what the server prints next — the first administrator's password — is not lost
// above a page of it.
const step = (what, build) => {
  const started = Date.now();
  process.stdout.write(`Building ${what}… `);
  const output = build();
  if (output.status !== 0) {
    process.stdout.write('failed:\n');
    process.stderr.write(`${output.stdout ?? ''}${output.stderr ?? ''}`);
    process.exit(output.status ?? 1);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
};
if (newestSource > builtAt) {
  step('the web app', () =>
    spawnSync('npm', ['run', 'build', '-w', '@cubby/web'], { cwd: root, encoding: 'utf8' }),
  );
}
if (serverBuildIsStale()) step('the server', () => buildServer({ quiet: true }));
const server = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
