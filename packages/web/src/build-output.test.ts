/**
 * The production build says nothing a newcomer should worry about: `npm start` builds the web app on
 * a fresh clone, and a warning there (a chunk-size note, a deprecated option) reads like a broken
 * install. Builds into a temp directory, never over the app's own dist/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the web build prints no warnings and makes the app and its service worker', () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-web-build-'));
  try {
    const vite = path.join(web, 'node_modules/.bin/vite');
    const bin = fs.existsSync(vite) ? vite : path.join(web, '../../node_modules/.bin/vite');
    const build = spawnSync(bin, ['build', '--outDir', outDir, '--emptyOutDir'], {
      cwd: web,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    const output = `${build.stdout}${build.stderr}`;
    assert.equal(build.status, 0, output);
    const warnings = output.split('\n').filter((line) => /\bwarn|\(!\)|deprecat/i.test(line));
    assert.deepEqual(warnings, [], output);
    assert.ok(fs.existsSync(path.join(outDir, 'index.html')));
    assert.ok(fs.existsSync(path.join(outDir, 'sw.js')));
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});
