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

      it('speaks English only when asked with X-Cubby-Lang, not for an English browser', async () => {
        const wrong = (headers: Record<string, string>) =>
          t.json('/api/admin/login', {
            method: 'POST',
            json: { username: 'admin', password: 'wrong-one' },
            headers: { 'X-Forwarded-For': '203.0.113.3', ...headers },
          });
        assert.equal((await wrong({ 'Accept-Language': 'en-US,en;q=0.9' })).body.message, '用户名或密码错误');
        assert.equal((await wrong({ 'X-Cubby-Lang': 'en' })).body.message, 'Wrong username or password');
      });

      it('blocks a username from one address after 10 failures in 15 minutes, even with the right password', async () => {
        const user = 'target-user';
        const ip = '198.51.100.1';
        for (let i = 0; i < 10; i++) {
          assert.equal((await login({ username: user, password: `guess-${i}` }, ip)).status, 401);
        }
        const blocked = await login({ username: user, password: 'guess-x' }, ip);
        assert.equal(blocked.status, 429);
        assert.equal(blocked.body.error, 'RATE_LIMITED');
        const retryAfter = Number(blocked.res.headers.get('retry-after'));
        assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
        assert.equal(
          (await login({ username: user, password: 'guess-z' }, '198.51.100.2')).status,
          401,
          'the same username from another address is still evaluated',
        );
        t.clock.advance(15 * 60_000 + 1000);
        const again = await login({ username: user, password: 'guess-y' }, ip);
        assert.equal(again.status, 401, 'counted afresh once the window has passed');
      });

      it('blocks a client address after 20 failures across usernames', async () => {
        const ip = '192.0.2.77';
        for (let i = 0; i < 20; i++) {
          assert.equal((await login({ username: `user${i}`, password: 'wrong-pass' }, ip)).status, 401);
        }
        const blocked = await login(ADMIN, ip);
        assert.equal(blocked.status, 429, 'even the right password is refused from a blocked address');
        assert.ok(Number(blocked.res.headers.get('retry-after')) > 0);
        assert.equal((await login(ADMIN, '192.0.2.78')).status, 200, 'other addresses are not affected');
        t.clock.advance(15 * 60_000 + 1000);
        assert.equal((await login(ADMIN, ip)).status, 200);
      });

      it('evaluates exactly 10 of 40 simultaneous wrong logins from one address; the rest are 429', async () => {
        const ip = '192.0.2.40';
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => login({ username: 'admin', password: `wrong-${i}` }, ip)),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 10, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 30, statuses.join(','));
        for (const a of answers.filter((a) => a.status === 429)) {
          assert.ok(Number(a.res.headers.get('retry-after')) > 0);
        }
        t.clock.advance(15 * 60_000 + 1000);
      });

      it('evaluates exactly 20 of 40 simultaneous wrong logins for different usernames from one address', async () => {
        const ip = '192.0.2.41';
        const statuses = (
          await Promise.all(
            Array.from({ length: 40 }, (_, i) => login({ username: `spray${i}`, password: 'wrong' }, ip)),
          )
        ).map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 20, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 20, statuses.join(','));
        t.clock.advance(15 * 60_000 + 1000);
      });

      it('does not count successful logins', async () => {
        const ip = '192.0.2.42';
        for (let i = 0; i < 25; i++) assert.equal((await login(ADMIN, ip)).status, 200);
        for (let i = 0; i < 10; i++) {
          assert.equal(
            (await login({ username: 'admin', password: 'wrong' }, ip)).status,
            401,
            `failure ${i}`,
          );
        }
        assert.equal((await login({ username: 'admin', password: 'wrong' }, ip)).status, 429);
        t.clock.advance(15 * 60_000 + 1000);
      });

      it('lets the real admin in from their own address after failures for admin from elsewhere', async () => {
        for (let i = 0; i < 15; i++) {
          await login({ username: 'admin', password: `attack-${i}` }, `198.18.0.${i + 1}`);
        }
        for (let i = 0; i < 15; i++) {
          await login({ username: 'Admin', password: `attack-${i}` }, '198.18.1.1');
        }
        assert.equal((await login(ADMIN, '203.0.113.200')).status, 200);
        t.clock.advance(15 * 60_000 + 1000);
      });

      it('bounds a username at 100 evaluated failures in 15 minutes from all addresses, with one log warning', async () => {
        const before = t.logLines.length;
        // 20 addresses × 10 simultaneous guesses: 200 tries, of which exactly 100 are evaluated.
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            login({ username: 'admin', password: `botnet-${i}` }, `198.19.0.${(i % 20) + 1}`),
          ),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 100, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 100);
        const locked = await login(ADMIN, '203.0.113.201');
        assert.equal(locked.status, 429, 'past the bound the username is locked for everyone');
        assert.ok(Number(locked.res.headers.get('retry-after')) > 0);
        const warnings = t.logLines
          .slice(before)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.level === 40);
        assert.equal(warnings.length, 1, JSON.stringify(warnings));
        assert.equal(warnings[0]!.username, 'admin');
        assert.match(String(warnings[0]!.msg), /login/i);
        const logged = t.logLines.slice(before).join('\n');
        assert.ok(!logged.includes('botnet-') && !logged.includes(ADMIN.password), 'no password is logged');
        t.clock.advance(15 * 60_000 + 1000);
        assert.equal((await login(ADMIN, '203.0.113.201')).status, 200);
      });
    });

    describe('sessions', () => {
      it('GET /api/test/admin-token: 401 without credentials or with an unknown token, 403 for an API key, the account name for its token', async () => {
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
        // The account name, so a reloaded page shows who is signed in.
        assert.equal(okRes.body.data.username, ADMIN.username);
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
        const a = await t.adminToken();
        const b = await t.adminToken();
        const res = await t.json('/api/admin/logout', { method: 'POST', headers: bearer(a) });
        assert.equal(res.status, 200);
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(a) })).status, 401);
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(b) })).status, 200);
      });

      it('POST /api/admin/logout answers 200 for any credential or none, so a CloudPaste client stops logging out', async () => {
        // As the CloudPaste v0.6.5 client sends it: JSON content type, no body, the stored credential.
        const logout = (authorization?: string) =>
          t.json('/api/admin/logout', {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              ...(authorization ? { Authorization: authorization } : {}),
            },
          });
        const expectLoggedOut = async (authorization: string | undefined, what: string) => {
          const res = await logout(authorization);
          assert.equal(res.status, 200, what);
          assert.equal(res.body.code, 200, what);
          assert.equal(res.body.message, '登出成功', what);
        };
        const token = await t.adminToken();
        await expectLoggedOut(`Bearer ${token}`, 'a live token');
        await expectLoggedOut(`Bearer ${token}`, 'the token the first call revoked');
        assert.equal((await t.json('/api/test/admin-token', { headers: bearer(token) })).status, 401);
        await expectLoggedOut(undefined, 'no credential');
        await expectLoggedOut('Bearer not-a-real-token', 'an unknown token');
        await expectLoggedOut('Bearer', 'a malformed header');

        const expiring = await t.adminToken();
        t.clock.advance(24 * 3600_000 + 1000);
        await expectLoggedOut(`Bearer ${expiring}`, 'an expired token');

        const revoked = await t.adminToken();
        const current = await t.adminToken();
        const changed = await t.json('/api/admin/change-password', {
          method: 'POST',
          headers: bearer(current),
          json: { currentPassword: ADMIN.password, newUsername: 'admin' },
        });
        assert.equal(changed.status, 200);
        await expectLoggedOut(`Bearer ${revoked}`, 'a token revoked by a change of password');

        const { key } = await t.createKey({ name: 'k-logout', text_permission: true });
        await expectLoggedOut(`ApiKey ${key}`, 'an API key');
        assert.equal(
          (await t.json('/api/test/api-key', { headers: apiKey(key) })).status,
          200,
          'the key still works',
        );
        await expectLoggedOut('ApiKey unknown-key-0123456789', 'an unknown API key');
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
        const left = await t.database.db.kysely.selectFrom('sessions').selectAll().execute();
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

      it('evaluates exactly 10 of 30 simultaneous wrong current passwords, and a right one is not counted', async () => {
        t.clock.advance(15 * 60_000 + 1000); // forget the wrong guess of the test before
        const token = await t.adminToken();
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            change(token, { currentPassword: `wrong-${i}`, newPassword: 'whatever-123' }),
          ),
        );
        const statuses = answers.map((a) => a.status);
        assert.equal(statuses.filter((s) => s === 401).length, 10, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 20, statuses.join(','));
        t.clock.advance(15 * 60_000 + 1000);
        const fresh = await t.adminToken();
        for (let i = 0; i < 12; i++) {
          const same = await change(fresh, { currentPassword: ADMIN.password, newPassword: ADMIN.password });
          assert.equal(same.status, 400, 'a right current password is refunded');
        }
      });

      it('refuses a username another admin has (409)', async () => {
        const now = t.clock.now().toISOString();
        await t.database.db.kysely
          .insertInto('users')
          .values({
            id: 'second',
            username: 'taken-name',
            password_hash: 'x',
            role: 'admin',
            email: null,
            status: 'active',
            home_path: null,
            quota_bytes: null,
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
