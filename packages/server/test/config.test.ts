/** Configuration from the environment: defaults, validation, one clear line per problem, exit 1. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { startServer } from './support/server-process.ts';

describe('configuration', () => {
  it('has working defaults: 127.0.0.1:8787, ./data, SQLite, 24-hour sessions', () => {
    const result = loadConfig({});
    assert.ok(result.ok);
    assert.equal(result.config.port, 8787);
    assert.equal(result.config.host, '127.0.0.1');
    assert.equal(result.config.dataDir, path.resolve('data'));
    assert.equal(result.config.databaseUrl, undefined);
    assert.equal(result.config.sessionTtlMs, 24 * 3600_000);
    assert.equal(result.config.trustProxyHops, 0);
    assert.equal(result.config.corsOrigins, '*');
    assert.deepEqual(result.config.body, { timeoutMs: 30_000, minBytes: 64 * 1024, windowMs: 60_000 });
    assert.equal(result.config.jobIntervalMs, undefined, "each job's own interval");
    assert.equal(result.config.shutdownTimeoutMs, 30_000);
  });

  it('reads every variable', () => {
    const result = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/cubby',
      DATABASE_URL: 'postgres://u:p@db:5432/cubby',
      SECRET_KEY: 'k'.repeat(40),
      PUBLIC_URL: 'https://paste.example.com/',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: 'long-enough',
      SESSION_TTL_HOURS: '2',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      BODY_TIMEOUT_SECONDS: '10',
      UPLOAD_MIN_KIB: '0.5',
      UPLOAD_RATE_WINDOW_SECONDS: '120',
      JOB_INTERVAL_SECONDS: '2',
      SHUTDOWN_TIMEOUT_SECONDS: '90',
    });
    assert.ok(result.ok);
    const c = result.config;
    assert.deepEqual(
      [c.port, c.host, c.dataDir, c.databaseUrl, c.publicUrl, c.trustProxyHops, c.logLevel, c.adminUsername],
      [
        9000,
        '0.0.0.0',
        '/srv/cubby',
        'postgres://u:p@db:5432/cubby',
        'https://paste.example.com',
        1,
        'warn',
        'root',
      ],
    );
    assert.equal(c.sessionTtlMs, 2 * 3600_000);
    assert.deepEqual(c.corsOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(c.body, { timeoutMs: 10_000, minBytes: 512, windowMs: 120_000 });
    assert.equal(c.jobIntervalMs, 2000);
    assert.equal(c.shutdownTimeoutMs, 90_000);
  });

  it('takes a shutdown limit of 1 s to 1 hour and says so otherwise', () => {
    for (const [value, message] of [
      ['soon', 'SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds (got "soon")'],
      ['0', 'SHUTDOWN_TIMEOUT_SECONDS must be at least 1 second (got "0")'],
      ['7200', 'SHUTDOWN_TIMEOUT_SECONDS must be at most 3600 seconds (1 hour) (got "7200")'],
    ]) {
      const result = loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: value });
      assert.ok(!result.ok);
      assert.deepEqual(result.errors, [`config error: ${message}`]);
    }
  });

  it('names every bad variable on its own line and never echoes a secret', () => {
    const result = loadConfig({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      SECRET_KEY: 'short-secret',
      LOG_LEVEL: 'loud',
      ADMIN_PASSWORD: 'abc',
      TRUST_PROXY: 'maybe',
      JOB_INTERVAL_SECONDS: '0.5',
    });
    assert.ok(!result.ok);
    const names = result.errors.map((line) => /^config error: (\w+)/.exec(line)?.[1]);
    assert.deepEqual(
      names.sort(),
      [
        'ADMIN_PASSWORD',
        'DATABASE_URL',
        'JOB_INTERVAL_SECONDS',
        'LOG_LEVEL',
        'PORT',
        'SECRET_KEY',
        'TRUST_PROXY',
      ].sort(),
    );
    const all = result.errors.join('\n');
    assert.ok(!all.includes('short-secret'));
    assert.ok(!all.includes('"abc"'));
    assert.ok(all.includes('"eighty"'));
  });

  it('makes the server exit 1 with one line per problem', async () => {
    const proc = startServer({ PORT: '70000', LOG_LEVEL: 'chatty', DATA_DIR: '/tmp/cubby-never-used' });
    const code = await proc.exited;
    assert.equal(code, 1);
    const lines = proc.stderr().trim().split('\n');
    assert.equal(lines.length, 2, proc.stderr());
    assert.ok(lines.some((l) => l.startsWith('config error: PORT')));
    assert.ok(lines.some((l) => l.startsWith('config error: LOG_LEVEL')));
  });
});
