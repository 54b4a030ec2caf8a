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
if (newestSource > builtAt) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@cubby/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (serverBuildIsStale()) {
  console.log('Building the server…');
  if (!buildServer()) process.exit(1);
}
const server = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
