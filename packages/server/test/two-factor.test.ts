/**
 * Two-factor sign-in with TOTP (docs/accounts.md), on both databases over HTTP: set up with a first
 * code, recovery codes shown once, sign-in needs a code after the password, a code is taken once,
 * recovery codes once each, guesses are limited under concurrency, WebDAV takes app passwords only,
 * nothing secret is stored in the clear, and turning it off needs a code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { DIALECTS } from './support/databases.ts';
import { basic, bearer, createTestApp, turnOffTwoFactorRule, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`two-factor sign-in (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let secret = '';
    let recovery: string[] = [];
    const code = (at = t.clock.now().getTime()) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });
    const login = (json: Record<string, unknown>, ip = '203.0.113.7') =>
      t.json('/api/admin/login', {
        method: 'POST',
        headers: { 'X-Forwarded-For': ip },
        json: { username: 'tess', password: 'tess password', ...json },
      });

    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      const made = await t.json('/api/admin/users', {
        method: 'POST',
        headers: admin,
        json: { username: 'tess', password: 'tess password' },
      });
      assert.equal(made.status, 201);
    });
    after(() => t.close());

    it('is set up with a first code from the app, and answers ten recovery codes once', async () => {
      const session = bearer((await login({})).body.data.token);
      const setup = await t.json('/api/auth/two-factor/totp/setup', { method: 'POST', headers: session });
      assert.equal(setup.status, 200);
      secret = setup.body.data.secret;
      assert.match(setup.body.data.otpauth_url, /^otpauth:\/\/totp\/Cubby:tess\?/);
      assert.match(setup.body.data.otpauth_url, new RegExp(`secret=${secret}`));
      // Until a code proves the app has it, nothing changes.
      assert.equal((await t.json('/api/auth/two-factor', { headers: session })).body.data.totp, false);
      const wrong = await t.json('/api/auth/two-factor/totp/enable', {
        method: 'POST',
        headers: session,
        json: { code: '000000' === code() ? '111111' : '000000' },
      });
      assert.equal(wrong.status, 400);
      const on = await t.json('/api/auth/two-factor/totp/enable', {
        method: 'POST',
        headers: session,
        json: { code: code() },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      recovery = on.body.data.recovery_codes;
      assert.equal(recovery.length, 10);
      assert.equal(new Set(recovery).size, 10);
      const status = await t.json('/api/auth/two-factor', { headers: session });
      assert.deepEqual(status.body.data, {
        totp: true,
        passkeys: 0,
        recovery_codes_left: 10,
        required: false,
      });
      // Stored sealed and hashed: neither the secret nor a recovery code is in the database.
      const stored = JSON.stringify([
        await t.database.db.kysely.selectFrom('users').selectAll().execute(),
        await t.database.db.kysely.selectFrom('recovery_codes').selectAll().execute(),
      ]);
      assert.ok(!stored.includes(secret));
      for (const r of recovery) assert.ok(!stored.includes(r) && !stored.includes(r.replace('-', '')));
    });

    it('a sign-in then needs a current code after the password; each code is taken once', async () => {
      const none = await login({});
      assert.equal(none.status, 401);
      assert.equal(none.body.error, 'TWO_FACTOR_REQUIRED');
      // The ways this person has, for the client to offer (no session, nothing else).
      assert.deepEqual(none.body.data, { methods: ['totp', 'recovery_code'] });
      // A wrong password says nothing of a second factor.
      const badPassword = await login({ password: 'not it' });
      assert.equal(badPassword.body.error, 'UNAUTHENTICATED');
      const wrong = await login({ otp: code() === '123456' ? '654321' : '123456' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.error, 'TWO_FACTOR_REQUIRED');
      // The step the enabling code used is spent; the next step's code signs in, once.
      t.clock.advance(30_000);
      const now = code();
      const ok = await login({ otp: now });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const replay = await login({ otp: now });
      assert.equal(replay.status, 401);
      assert.equal(replay.body.error, 'TWO_FACTOR_REQUIRED');
    });

    it('a recovery code signs in once, typed in any case, with or without its dash', async () => {
      const typed = recovery[0]!.toUpperCase().replace('-', ' ');
      assert.equal((await login({ recovery_code: typed })).status, 200);
      assert.equal((await login({ recovery_code: recovery[0] })).status, 401);
      const session = bearer((await login({ recovery_code: recovery[1] })).body.data.token);
      const status = await t.json('/api/auth/two-factor', { headers: session });
      assert.equal(status.body.data.recovery_codes_left, 8);
    });

    it('wrong codes are limited per person, however many arrive at once', async () => {
      t.clock.advance(15 * 60_000); // the wrong codes above are out of the window
      const wrongCode = code() === '999999' ? '888888' : '999999';
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => login({ otp: wrongCode }, `198.51.100.${i + 1}`)),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.equal(statuses.filter((s) => s === 401).length, 10, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 429).length, 6);
      const refused = answers.find((a) => a.status === 429)!;
      assert.match(refused.body.message, /^尝试次数过多，请 \d+ 秒后再试$/);
      // Even the right code waits now.
      t.clock.advance(30_000);
      assert.equal((await login({ otp: code() }, '198.51.100.99')).status, 429);
      t.clock.advance(15 * 60_000);
      assert.equal((await login({ otp: code() }, '198.51.100.99')).status, 200);
    });

    it('WebDAV refuses the account password once two factors are on; app passwords work', async () => {
      t.clock.advance(30_000);
      const session = bearer((await login({ otp: code() })).body.data.token);
      const refused = await t.request('/dav/', {
        method: 'PROPFIND',
        headers: { ...basic('tess', 'tess password'), Depth: '0', 'X-Cubby-Lang': 'en' },
      });
      assert.equal(refused.status, 401);
      assert.match(await refused.text(), /app password/);
      const app = await t.json('/api/auth/app-passwords', {
        method: 'POST',
        headers: session,
        json: { name: 'nas' },
      });
      const davApp = await t.request('/dav/', {
        method: 'PROPFIND',
        headers: { ...basic('tess', app.body.data.password), Depth: '0' },
      });
      assert.equal(davApp.status, 207);
      await davApp.body?.cancel();
    });

    it('turning it off or renewing the codes takes a code; then the password alone signs in again', async () => {
      t.clock.advance(30_000);
      const session = bearer((await login({ otp: code() })).body.data.token);
      const noCode = await t.json('/api/auth/two-factor/totp/disable', {
        method: 'POST',
        headers: session,
        json: {},
      });
      assert.equal(noCode.status, 401);
      const renewed = await t.json('/api/auth/two-factor/recovery-codes', {
        method: 'POST',
        headers: session,
        json: { recovery_code: recovery[2] },
      });
      assert.equal(renewed.status, 200);
      assert.equal(renewed.body.data.recovery_codes.length, 10);
      assert.equal((await login({ recovery_code: recovery[3] })).status, 401, 'old codes stop');
      t.clock.advance(30_000);
      const off = await t.json('/api/auth/two-factor/totp/disable', {
        method: 'POST',
        headers: session,
        json: { otp: code() },
      });
      assert.equal(off.status, 200);
      assert.equal((await login({})).status, 200);
      assert.equal((await t.database.db.kysely.selectFrom('recovery_codes').selectAll().execute()).length, 0);
    });

    it('when the admin requires two factors, a person without them can only set them up; then everything', async () => {
      const set = (require_two_factor: string) =>
        t.json('/api/admin/system-settings', { method: 'PUT', headers: admin, json: { require_two_factor } });
      const made = await t.json('/api/admin/users', {
        method: 'POST',
        headers: admin,
        json: { username: 'uma', password: 'uma password' },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal((await set('sometimes')).status, 400);
      assert.equal((await set('everyone')).status, 200);
      try {
        const signIn = await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: 'uma', password: 'uma password' },
        });
        assert.equal(signIn.status, 200);
        assert.equal(signIn.body.data.two_factor_setup_required, true);
        const uma = bearer(signIn.body.data.token);
        const me = await t.json('/api/auth/me', { headers: uma });
        assert.equal(me.body.data.must_enrol, true);
        const blocked = await t.json('/api/user/pastes', { headers: uma });
        assert.equal(blocked.status, 403);
        assert.match(blocked.body.message, /两步验证/);
        assert.equal(
          (await t.json('/api/auth/app-passwords', { method: 'POST', headers: uma, json: { name: 'x' } }))
            .status,
          403,
        );
        // WebDAV with the password is refused too: setting up happens in the browser first.
        const dav = await t.request('/dav/', {
          method: 'PROPFIND',
          headers: { ...basic('uma', 'uma password'), Depth: '0' },
        });
        assert.equal(dav.status, 403);
        await dav.body?.cancel();
        // Setting up is allowed, and lifts the restriction at once.
        const setup = await t.json('/api/auth/two-factor/totp/setup', { method: 'POST', headers: uma });
        assert.equal(setup.status, 200);
        const umaCode = new TOTP({
          secret: Secret.fromBase32(setup.body.data.secret),
          digits: 6,
          period: 30,
        }).generate({
          timestamp: t.clock.now().getTime(),
        });
        const on = await t.json('/api/auth/two-factor/totp/enable', {
          method: 'POST',
          headers: uma,
          json: { code: umaCode },
        });
        assert.equal(on.status, 200);
        assert.equal((await t.json('/api/user/pastes', { headers: uma })).status, 200);
        // While it is required, it cannot be turned off again (a right code notwithstanding).
        const off = await t.json('/api/auth/two-factor/totp/disable', {
          method: 'POST',
          headers: uma,
          json: { recovery_code: on.body.data.recovery_codes[0] },
        });
        assert.equal(off.status, 409, JSON.stringify(off.body));
        assert.match(off.body.message, /管理员要求你使用两步验证/);
        assert.equal((await t.json('/api/auth/two-factor', { headers: uma })).body.data.totp, true);
        // The admin, without two factors, is held the same way under `everyone`; not under `off`.
        const adminMe = await t.json('/api/admin/users', { headers: admin });
        assert.equal(adminMe.status, 403);
      } finally {
        await turnOffTwoFactorRule(t);
      }
      assert.equal((await t.json('/api/admin/users', { headers: admin })).status, 200);
    });
  });
}
