#!/usr/bin/env node
// `npm test`: every tier — unit and integration (node:test, on SQLite and PostgreSQL) and the browser
// tests (Playwright with the system Chromium against the built app). Starts a throwaway PostgreSQL
// when DATABASE_URL is not given. `npm test fast` runs the fast tier alone (docs/testing.md): it is
// never part of the default run. Prints each tier's wall time when it ends, and ends with one line
// "N passed, N failed" summed from the reports.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIERS = ['unit', 'e2e', 'fast'];
/** What `npm test` runs without tier names: everything but the fast tier, which repeats part of unit. */
const DEFAULT_TIERS = ['unit', 'e2e'];
const only = process.argv.slice(2); // optional tier names: unit, e2e, fast
const unknown = only.filter((tier) => !TIERS.includes(tier));
if (unknown.length > 0) {
  console.error(`Unknown tier ${unknown.join(', ')}: the tiers are ${TIERS.join(', ')}.`);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
const wants = (tier) => (only.length === 0 ? DEFAULT_TIERS.includes(tier) : only.includes(tier));
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-reports-'));
const totals = { passed: 0, failed: 0 };
const problems = [];
const cleanups = [];

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function findTests(dir, pattern) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && pattern.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

async function ensurePostgres() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const port = await freePort();
  const started = spawnSync('bash', [path.join(root, '.ci/start-pg.sh')], {
    env: { ...process.env, PGPORT: String(port) },
    encoding: 'utf8',
  });
  if (started.status !== 0) {
    problems.push(
      `PostgreSQL tier: could not start a throwaway PostgreSQL.\n${started.stderr.trim()}\n` +
        'Install it with `apt-get install postgresql`, or set DATABASE_URL=postgres://… to a server.',
    );
    return undefined;
  }
  const dir = started.stdout.trim();
  cleanups.push(() => spawnSync('bash', [path.join(root, '.ci/stop-pg.sh'), dir]));
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** A throwaway S3 server (radosgw) for the storage suites, unless S3_ENDPOINT names one. */
async function ensureS3() {
  if (process.env.S3_ENDPOINT) return {};
  if (spawnSync('sh', ['-c', 'command -v radosgw']).status !== 0) {
    problems.push(
      'S3 tier: radosgw is not installed, so the S3 driver suite cannot run. Install it with ' +
        '`apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common`, ' +
        'or set S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to an S3-compatible server.',
    );
    return {};
  }
  const cephDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-ceph-'));
  const env = {
    CEPH_DIR: cephDir,
    RGW_PORT: String(await freePort()),
    MON_PORT: String(await freePort()),
    S3_AK: 'cubbytestaccess',
    S3_SK: 'cubbytestsecret',
  };
  const started = spawnSync('bash', [path.join(root, '.ci/start-ceph.sh')], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  cleanups.push(() => {
    spawnSync('bash', [path.join(root, '.ci/stop-ceph.sh')], { env: { ...process.env, ...env } });
    fs.rmSync(cephDir, { recursive: true, force: true });
  });
  if (started.status !== 0) {
    problems.push(`S3 tier: radosgw did not start.\n${started.stderr.trim()}`);
    return {};
  }
  return {
    S3_ENDPOINT: `http://127.0.0.1:${env.RGW_PORT}`,
    S3_ACCESS_KEY_ID: env.S3_AK,
    S3_SECRET_ACCESS_KEY: env.S3_SK,
    S3_REGION: 'us-east-1',
  };
}

/** The S3 server's settings once started (the storage suites and the storage-config browser tests use it). */
let s3Env;

/** Runs test files with node:test (two at a time) and adds up its TAP report; `name` names the report. */
async function nodeTests(name, files, env) {
  const tap = path.join(reports, `${name}.tap`);
  const code = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    env,
  );
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + count('cancelled');
  if (code !== 0 && count('fail') + count('cancelled') === 0) {
    problems.push(`node:test exited ${code} without reporting a failure`);
    totals.failed += 1;
  }
}

/** The node:test files of the unit tier: the shared package's, the server's and the web app's. */
function unitTestFiles() {
  return [
    ...findTests(path.join(root, 'packages/shared/src'), /\.test\.ts$/),
    ...findTests(path.join(root, 'packages/server/test'), /\.test\.ts$/),
    ...findTests(path.join(root, 'packages/web/src'), /\.test\.ts$/),
  ];
}

async function unitAndIntegration() {
  const files = unitTestFiles();
  const databaseUrl = await ensurePostgres();
  // The S3 driver suites, and the multi-instance suite (its instances share one bucket).
  const needsS3 = files.some(
    (f) => f.includes(`${path.sep}storage${path.sep}s3`) || f.endsWith('multi-instance.test.ts'),
  );
  if (needsS3) s3Env ??= await ensureS3();
  // Without PostgreSQL (or S3) those tiers fail with a message saying how to install it.
  await nodeTests('unit', files, { DATABASE_URL: databaseUrl ?? '', ...s3Env });
}

/**
 * The server's test files the fast tier leaves out, and why: each needs PostgreSQL, radosgw or server
 * processes of its own, or takes too much of the tier's time. Every other test file of the unit tier
 * runs in it, a new one too.
 */
const NOT_FAST = {
  'packages/server/test/multi-instance.test.ts':
    'three server processes on PostgreSQL and radosgw behind nginx',
  'packages/server/test/instances.test.ts': 'server processes sharing a PostgreSQL database',
  'packages/server/test/crash.test.ts': 'kills and restarts server processes',
  'packages/server/test/process.test.ts': 'starts server processes',
  'packages/server/test/connections.test.ts': 'starts server processes',
  'packages/server/test/leftovers.test.ts': 'starts server processes',
  'packages/server/test/config.test.ts': 'starts a server process (its exit on a bad configuration)',
  'packages/server/test/webdav-clients.test.ts': 'a server process driven by litmus, rclone and cadaver',
  'packages/server/test/storage/s3.test.ts': 'needs radosgw',
  'packages/server/test/storage/webdav.test.ts': 'starts Apache httpd and rclone servers',
  'packages/server/test/storage/sftp.test.ts': "starts OpenSSH's sshd",
  'packages/server/test/storage/ftp.test.ts': 'starts pure-ftpd',
  'packages/server/test/scheduled-sync.test.ts':
    'starts a server process (a due job is started by its own timer)',
  'packages/server/test/remote-storage.test.ts': 'starts rclone serve webdav, sshd and pure-ftpd',
  // By time: the heaviest file on SQLite alone (20 s of CPU, 25–30 s on its own).
  'packages/server/test/fuzz.test.ts': 'sends every route thousands of bad values',
};

/**
 * The fast tier, for the inner loop (`npm test fast`, under 2 minutes; docs/testing.md): the unit
 * tier's files but NOT_FAST's, on SQLite alone — PostgreSQL and S3 are left out (their suites are
 * skipped) and no server process is started. Storage is on local disk and, for the contract, in memory.
 */
async function fastTier() {
  const files = unitTestFiles().filter((f) => !(f.split(path.sep).join('/') in NOT_FAST));
  await nodeTests('fast', files, { CUBBY_TEST_DIALECTS: 'sqlite', DATABASE_URL: '', S3_ENDPOINT: '' });
}

async function browser() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    problems.push(
      `Browser tier: Chromium not found at ${chromium}. Install it with ` +
        '`apt-get install --no-install-recommends chromium` or set CHROMIUM_PATH.',
    );
    totals.failed += 1;
    return;
  }
  const config = path.join(root, 'e2e/playwright.config.ts');
  if (!fs.existsSync(config)) return;
  const built = await run('npm', ['run', 'build', '-w', '@cubby/web']);
  if (built !== 0) {
    problems.push('Browser tier: the web build failed');
    totals.failed += 1;
    return;
  }
  const json = path.join(reports, 'e2e.json');
  s3Env ??= await ensureS3();
  const code = await run('npx', ['playwright', 'test', '-c', config], {
    CUBBY_SKIP_BUILD: '1',
    PLAYWRIGHT_JSON_OUTPUT_FILE: json,
    ...s3Env,
  });
  const stats = fs.existsSync(json) ? JSON.parse(fs.readFileSync(json, 'utf8')).stats : undefined;
  if (!stats) {
    problems.push(`Playwright exited ${code} without a report`);
    totals.failed += 1;
    return;
  }
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  if (code !== 0 && stats.unexpected === 0) {
    problems.push(`Playwright exited ${code}`);
    totals.failed += 1;
  }
}

/** Runs a tier and prints its wall time when it ends ("tier unit: 532 s"). */
async function timed(tier, fn) {
  const started = Date.now();
  try {
    await fn();
  } finally {
    console.log(`\ntier ${tier}: ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

try {
  if (wants('fast')) await timed('fast', fastTier);
  if (wants('unit')) await timed('unit', unitAndIntegration);
  if (wants('e2e')) await timed('e2e', browser);
} finally {
  for (const cleanup of cleanups) cleanup();
  fs.rmSync(reports, { recursive: true, force: true });
}
for (const problem of problems) console.error(`\n${problem}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 || problems.length > 0 ? 1 : 0);
