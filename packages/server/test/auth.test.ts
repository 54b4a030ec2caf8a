/** Admin authentication over HTTP: login, rate limits, session expiry, logout, change of password. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { ADMIN, apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`admin authentication (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
    });
    after(() => t.close());

    const login = (body: unknown, ip = '203.0.113.1') =>
      t.json('/api/admin/login', { method: 'POST', json: body, headers: { 'X-Forwarded-For': ip } });

    describe('POST /api/admin/login', () => {
      it('answers a random token of at least 128 bits that expires in 24 hours', async () => {
        const { status, body } = await login(ADMIN);
        assert.equal(status, 200);
        assert.equal(body.success, true);
        assert.equal(body.code, 200);
        assert.equal(body.data.username, 'admin');
        assert.match(body.data.token, /^[A-Za-z0-9_-]{43}$/);
        assert.equal(body.data.expiresAt, new Date(t.clock.now().getTime() + 24 * 3600_000).toISOString());
        const second = await login(ADMIN);
        assert.notEqual(second.body.data.token, body.data.token);
      });

      it('refuses a wrong password and an unknown user with the same 401 message', async () => {
        const wrong = await login({ username: 'admin', password: 'nope-nope' }, '203.0.113.2');
        const unknown = await login({ username: 'ghost', password: 'nope-nope' }, '203.0.113.2');
        assert.equal(wrong.status, 401);
        assert.equal(wrong.body.error, 'UNAUTHENTICATED');
        assert.equal(wrong.body.message, '用户名或密码错误');
        assert.equal(unknown.status, 401);
        assert.equal(unknown.body.message, wrong.body.message);
      });

      it('answers 400 when a field is missing and for malformed JSON', async () => {
        assert.equal((await login({ username: 'admin' })).status, 400);
        const res = await t.json('/api/admin/login', {
          method: 'POST',
          body: '{"username":',
          headers: { 'Content-Type': 'application/json' },
        });
        assert.equal(res.status, 400);
        assert.equal(res.body.error, 'VALIDATION_FAILED');
      });

      it('speaks English when the client prefers it', async () => {
        const res = await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: 'admin', password: 'wrong-one' },
          headers: { 'Accept-Language': 'en-US,en;q=0.9', 'X-Forwarded-For': '203.0.113.3' },
        });
        assert.equal(res.body.message, 'Wrong username or password');
      });

      it('blocks a username after 10 failures in 15 minutes, even with the right password, then lets it in again', async () => {
        const user = 'target-user';
        for (let i = 0; i < 10; i++) {
          const res = await login({ username: user, password: `guess-${i}` }, `198.51.100.${i + 1}`);
          assert.equal(res.status, 401);
        }
        const blocked = await login({ username: user, password: 'guess-x' }, '198.51.100.99');
        assert.equal(blocked.status, 429);
        assert.equal(blocked.body.error, 'RATE_LIMITED');
        const retryAfter = Number(blocked.res.headers.get('retry-after'));
        assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
        t.clock.advance(15 * 60_000 + 1000);
        const again = await login({ username: user, password: 'guess-y' }, '198.51.100.99');
        assert.equal(again.status, 401, 'counted afresh once the window has passed');
      });

      it('blocks a client address after 10 failures across usernames', async () => {
        const ip = '192.0.2.77';
        for (let i = 0; i < 10; i++) {
          assert.equal((await login({ username: `user${i}`, password: 'wrong-pass' }, ip)).status, 401);
        }
        const blocked = await login(ADMIN, ip);
        assert.equal(blocked.status, 429, 'even the right password is refused from a blocked address');
        assert.ok(Number(blocked.res.headers.get('retry-after')) > 0);
        assert.equal((await login(ADMIN, '192.0.2.78')).status, 200, 'other addresses are not affected');
        t.clock.advance(15 * 60_000 + 1000);
        assert.equal((await login(ADMIN, ip)).status, 200);
      });
    });

    describe('sessions', () => {
      it('GET /api/test/admin-token: 401 without credentials or with an unknown token, 403 for an API key', async () => {
        assert.equal((await t.json('/api/test/admin-token')).status, 401);
        const unknown = await t.json('/api/test/admin-token', { headers: bearer('not-a-real-token') });
        assert.equal(unknown.status, 401);
        assert.equal(unknown.body.error, 'UNAUTHENTICATED');
        const { key } = await t.createKey({ name: 'k-admin-token', text_permission: true });
        assert.equal((await t.json('/api/test/admin-token', { headers: apiKey(key) })).status, 403);
        const token = await t.adminToken();
        const okRes = await t.json('/api/test/admin-token', { headers: bearer(token) });
        assert.equal(okRes.status, 200);
        assert.equal(okRes.body.success, true);
      });

      it('expires a token after its lifetime (401, so the client logs out)', async () => {
        const token = await t.adminToken();
        t.clock.advance(24 * 3600_000 - 1000);
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(token) })).status, 200);
        t.clock.advance(2000);
        const expired = await t.json('/api/admin/api-keys', { headers: bearer(token) });
        assert.equal(expired.status, 401);
        assert.equal(expired.body.error, 'UNAUTHENTICATED');
      });

      it('POST /api/admin/logout revokes the token it was called with, and only that one', async () => {
        assert.equal((await t.json('/api/admin/logout', { method: 'POST' })).status, 401);
        const a = await t.adminToken();
        const b = await t.adminToken();
        const res = await t.json('/api/admin/logout', { method: 'POST', headers: bearer(a) });
        assert.equal(res.status, 200);
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(a) })).status, 401);
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(b) })).status, 200);
      });

      it('honours SESSION_TTL_HOURS', async () => {
        const short = await createTestApp(dialect, { SESSION_TTL_HOURS: '1' });
        try {
          const token = await short.adminToken();
          short.clock.advance(3600_000 + 1);
          assert.equal((await short.json('/api/test/admin-token', { headers: bearer(token) })).status, 401);
        } finally {
          await short.close();
        }
      });

      it('purges expired sessions from the database', async () => {
        await t.adminToken();
        t.clock.advance(25 * 3600_000);
        assert.ok((await t.services.auth.purgeExpiredSessions()) >= 1);
        const left = await t.database.db.kysely.selectFrom('admin_sessions').selectAll().execute();
        assert.ok(left.every((s) => s.expires_at > t.clock.now().toISOString()));
      });
    });

    describe('POST /api/admin/change-password', () => {
      const change = (token: string, body: unknown) =>
        t.json('/api/admin/change-password', { method: 'POST', headers: bearer(token), json: body });

      it('needs an admin token', async () => {
        assert.equal((await t.json('/api/admin/change-password', { method: 'POST', json: {} })).status, 401);
        const { key } = await t.createKey({ name: 'k-change', text_permission: true, file_permission: true });
        const res = await t.json('/api/admin/change-password', {
          method: 'POST',
          headers: apiKey(key),
          json: { currentPassword: ADMIN.password, newPassword: 'whatever-123' },
        });
        assert.equal(res.status, 403);
      });

      it('enforces the rules: current password, something new, a different and long enough password', async () => {
        const token = await t.adminToken();
        const missing = await change(token, { newPassword: 'new-password-1' });
        assert.equal(missing.status, 400);
        const wrong = await change(token, { currentPassword: 'not-it', newPassword: 'new-password-1' });
        assert.equal(wrong.status, 401);
        assert.equal(wrong.body.message, '当前密码错误');
        const nothing = await change(token, { currentPassword: ADMIN.password, newUsername: '   ' });
        assert.equal(nothing.status, 400);
        assert.equal(nothing.body.message, '未提供新密码或新用户名');
        const same = await change(token, { currentPassword: ADMIN.password, newPassword: ADMIN.password });
        assert.equal(same.status, 400);
        assert.equal(same.body.message, '新密码不能与当前密码相同');
        const short = await change(token, { currentPassword: ADMIN.password, newPassword: 'short' });
        assert.equal(short.status, 400);
        // the session survived all the refusals
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(token) })).status, 200);
      });

      it('refuses a username another admin has (409)', async () => {
        const now = t.clock.now().toISOString();
        await t.database.db.kysely
          .insertInto('admins')
          .values({
            id: 'second',
            username: 'taken-name',
            password_hash: 'x',
            created_at: now,
            updated_at: now,
          })
          .execute();
        const token = await t.adminToken();
        const res = await change(token, { currentPassword: ADMIN.password, newUsername: 'taken-name' });
        assert.equal(res.status, 409);
        assert.equal(res.body.error, 'CONFLICT');
      });

      it('changes username and password and revokes every session of that admin', async () => {
        const a = await t.adminToken();
        const b = await t.adminToken();
        const res = await change(a, {
          currentPassword: ADMIN.password,
          newPassword: 'a brand new secret',
          newUsername: 'owner',
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.success, true);
        for (const token of [a, b]) {
          assert.equal((await t.json('/api/test/admin-token', { headers: bearer(token) })).status, 401);
        }
        assert.equal((await login(ADMIN, '203.0.113.50')).status, 401);
        const fresh = await login({ username: 'owner', password: 'a brand new secret' }, '203.0.113.50');
        assert.equal(fresh.status, 200);
        // put things back for the other tests
        const back = await change(fresh.body.data.token, {
          currentPassword: 'a brand new secret',
          newPassword: ADMIN.password,
          newUsername: ADMIN.username,
        });
        assert.equal(back.status, 200);
      });
    });
  });
}
