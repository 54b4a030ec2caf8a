/** The HTTP core: health, version, the envelope and error model, request ids, logs, CORS. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`HTTP core (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    it('GET /api/health checks the database and answers ok', async () => {
      const { status, body } = await t.json('/api/health');
      assert.equal(status, 200);
      assert.equal(body.status, 'ok');
      assert.equal(body.success, true);
      assert.equal(body.data.database, 'ok');
      assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
    });

    it('GET /api/health says whether other instances reach its caches: local on SQLite, ok once listening on PostgreSQL', async () => {
      const cache = async () => (await t.json('/api/health')).body.data.cache;
      if (dialect === 'sqlite') return assert.equal(await cache(), 'local');
      // Until its listener is connected (just after start) an instance says degraded.
      const until = Date.now() + 5000;
      while ((await cache()) !== 'ok') {
        assert.equal(await cache(), 'degraded');
        assert.ok(Date.now() < until, 'never listening');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });

    it('GET /api/version names the version and the database', async () => {
      const { status, body } = await t.json('/api/version');
      assert.equal(status, 200);
      assert.match(body.data.version, /^\d+\.\d+\.\d+/);
      assert.equal(body.data.storage, dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL');
    });

    it('answers an unknown /api route with a 404 envelope', async () => {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const { status, body } = await t.json('/api/no/such/route', { method });
        assert.equal(status, 404);
        assert.deepEqual(
          { code: body.code, success: body.success, error: body.error, data: body.data },
          { code: 404, success: false, error: 'NOT_FOUND', data: null },
        );
      }
    });

    it('has no test hooks unless CUBBY_TEST_HOOKS is set', async () => {
      const res = await t.json('/api/__test__/clock', { method: 'POST', json: { advanceMs: 1000 } });
      assert.equal(res.status, 404);
    });

    it('answers 413 to a body over the limit', async () => {
      const big = JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'y' });
      const res = await t.json('/api/admin/login', {
        method: 'POST',
        body: big,
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(res.status, 413);
      assert.equal(res.body.error, 'PAYLOAD_TOO_LARGE');
    });

    it('puts a request id in the X-Request-Id header and on the log line, and keeps a sane incoming one', async () => {
      const res = await t.request('/api/health');
      const id = res.headers.get('x-request-id');
      assert.match(id ?? '', /^[0-9a-f-]{36}$/);
      assert.ok(t.logLines.some((line) => JSON.parse(line).reqId === id));
      const mine = await t.request('/api/health', { headers: { 'X-Request-Id': 'trace-42' } });
      assert.equal(mine.headers.get('x-request-id'), 'trace-42');
      const evil = await t.request('/api/health', { headers: { 'X-Request-Id': 'a b\tc<script>' } });
      assert.notEqual(evil.headers.get('x-request-id'), 'a b\tc<script>');
    });

    it('logs the path without its query string and never a header', async () => {
      await t.request('/api/raw/abc?password=hunter2-secret', {
        headers: { Authorization: 'Bearer bearer-secret-xyz', Cookie: 'sid=cookie-secret' },
      });
      const joined = t.logLines.join('\n');
      assert.ok(joined.includes('/api/raw/abc'));
      for (const secret of ['hunter2-secret', 'bearer-secret-xyz', 'cookie-secret', 'password=']) {
        assert.ok(!joined.includes(secret), `log contains ${secret}`);
      }
    });

    it('answers CORS preflights and exposes the headers clients read', async () => {
      const res = await t.request('/api/admin/api-keys', {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://elsewhere.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,x-cubby-lang',
        },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      const allowed = res.headers.get('access-control-allow-headers') ?? '';
      assert.match(allowed, /authorization/i);
      assert.match(allowed, /(^|,\s*)X-Cubby-Lang(\s*,|$)/i, 'our web app asks for its language');
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
      const get = await t.request('/api/health', { headers: { Origin: 'http://elsewhere.example' } });
      assert.match(get.headers.get('access-control-expose-headers') ?? '', /X-Request-Id/i);
    });

    it('marks API answers nosniff, no-referrer and not cacheable', async () => {
      const res = await t.request('/api/version');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });

    it("lets a route's own header win over a common one, each header once", async () => {
      const created = await t.json('/api/paste', {
        method: 'POST',
        headers: { Authorization: `Bearer ${await t.adminToken()}` },
        json: { content: 'plain words' },
      });
      const res = await t.request(`/api/raw/${created.body.data.slug}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.headers.get('content-disposition') ?? '', /^inline; filename=/);
      const limited = await t.request('/api/raw/no-such-paste', { headers: { 'X-Request-Id': 'trace-7' } });
      assert.equal(limited.status, 404);
      assert.equal(limited.headers.get('x-request-id'), 'trace-7');
      assert.equal(limited.headers.get('content-type'), 'text/plain; charset=utf-8');
    });

    it('puts the same headers on answers a route builds by hand', async () => {
      const res = await t.request('/api/storage/local/some-config/get?sig=nope', {
        headers: { Origin: 'http://elsewhere.example' },
      });
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
    });

    it('allows only the configured origins when CORS_ORIGINS lists them', async () => {
      const listed = await createTestApp(dialect, { CORS_ORIGINS: 'https://ui.example' });
      try {
        const allowed = await listed.request('/api/version', { headers: { Origin: 'https://ui.example' } });
        assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://ui.example');
        assert.match(allowed.headers.get('vary') ?? '', /origin/i);
        const other = await listed.request('/api/version', { headers: { Origin: 'https://evil.example' } });
        assert.equal(other.headers.get('access-control-allow-origin'), null);
        const preflight = await listed.request('/api/paste', {
          method: 'OPTIONS',
          headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
        });
        assert.equal(preflight.headers.get('access-control-allow-origin'), null);
        assert.equal(preflight.headers.get('access-control-allow-methods'), null);
      } finally {
        await listed.close();
      }
    });

    it('answers an unexpected failure with a generic 500; the details go only to the log', async () => {
      const broken = await createTestApp(dialect);
      const token = await broken.adminToken();
      await broken.database.db.close(); // every query now throws
      const res = await broken.json('/api/admin/api-keys', { headers: bearer(token) });
      assert.equal(res.status, 500);
      assert.equal(res.body.error, 'INTERNAL');
      assert.equal(res.body.message, '服务器内部错误');
      assert.ok(!JSON.stringify(res.body).includes('stack'));
      const errorLine = broken.logLines.map((l) => JSON.parse(l)).find((l) => l.level === 50);
      assert.ok(errorLine?.err?.stack, 'the stack is logged');
      assert.equal(errorLine.reqId, res.res.headers.get('x-request-id'));
      const health = await broken.json('/api/health');
      assert.equal(health.status, 503, 'health reports the database down');
      await broken.close().catch(() => undefined);
    });
  });
}
