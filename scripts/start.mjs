#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources, then runs the
// server (SQLite and local storage in ./data unless the environment says otherwise).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'packages/web');
const builtAt = (() => {
  try {
    return fs.statSync(path.join(web, 'dist/index.html')).mtimeMs;
  } catch {
    return 0;
  }
})();
const newestSource = Math.max(
  ...[
    path.join(web, 'src'),
    path.join(web, 'index.html'),
    path.join(web, 'public'),
    path.join(root, 'packages/shared/src'),
  ]
    .filter((p) => fs.existsSync(p))
    .flatMap((p) =>
      fs.statSync(p).isDirectory()
        ? fs
            .readdirSync(p, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile())
            .map((e) => path.join(e.parentPath, e.name))
        : [p],
    )
    .map((f) => fs.statSync(f).mtimeMs),
);
if (newestSource > builtAt) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@cubby/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
