/**
 * Passkeys (docs/accounts.md "Passkeys"), on both databases over HTTP, with a software
 * authenticator (test/support/authenticator.ts): registered from My account, listed without their
 * keys, a sign-in with one alone (user verification required), each challenge taken once and for
 * five minutes, the origin and RP ID checked, the sign counter never going back, a disabled person
 * refused; a passkey as the second factor after a password — only one's own; and having one counts
 * as two-factor sign-in (WebDAV refuses the password, the admin's requirement is met).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { SoftAuthenticator } from './support/authenticator.ts';
import { DIALECTS } from './support/databases.ts';
import { basic, bearer, createTestApp, type TestApp, turnOffTwoFactorRule } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`passkeys (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    /** Every answer's text, to look for secrets in at the end. */
    const answers: string[] = [];
    const pia = new SoftAuthenticator();
    const quinn = new SoftAuthenticator();
    const raviKey = new SoftAuthenticator();
    let piaPasskeyId = '';
    let quinnPasskeyId = '';

    const call = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const res = await t.json(path, { method: 'POST', ...init });
      answers.push(JSON.stringify(res.body));
      return res;
    };
    const passwordLogin = (username: string, extra: Record<string, unknown> = {}) =>
      call('/api/admin/login', { json: { username, password: `${username} password`, ...extra } });
    const session = async (username: string, extra: Record<string, unknown> = {}) =>
      bearer((await passwordLogin(username, extra)).body.data.token);
    /** Registers `authenticator` as a passkey of the session's person. */
    const register = async (
      headers: Record<string, string>,
      authenticator: SoftAuthenticator,
      name: string,
    ) => {
      const options = await call('/api/auth/passkeys/register/options', { headers });
      assert.equal(options.status, 200, JSON.stringify(options.body));
      return call('/api/auth/passkeys/register', {
        headers,
        json: {
          challenge_id: options.body.data.challenge_id,
          response: authenticator.register(options.body.data.options),
          name,
        },
      });
    };
    /** A sign-in's options answered by `authenticator`: the body of a passkey sign-in or second factor. */
    const assertion = async (
      authenticator: SoftAuthenticator,
      answer: Parameters<SoftAuthenticator['authenticate']>[1] = {},
    ) => {
      const options = await call('/api/public/passkeys/login/options');
      assert.equal(options.status, 200);
      return {
        challenge_id: options.body.data.challenge_id as string,
        response: authenticator.authenticate(options.body.data.options, answer),
      };
    };
    const passkeyLogin = async (body: unknown) => call('/api/public/passkeys/login', { json: body });

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      for (const username of ['pia', 'quinn', 'ravi']) {
        const made = await t.json('/api/admin/users', {
          method: 'POST',
          headers: admin,
          json: { username, password: `${username} password` },
        });
        assert.equal(made.status, 201);
      }
    });
    after(() => t.close());

    it('is registered from My account, listed without its key; the first answers ten recovery codes', async () => {
      const headers = await session('pia');
      const options = await call('/api/auth/passkeys/register/options', { headers });
      assert.equal(options.body.data.options.rp.id, 'localhost');
      assert.equal(options.body.data.options.authenticatorSelection.residentKey, 'preferred');
      assert.equal(options.body.data.options.authenticatorSelection.userVerification, 'preferred');
      assert.deepEqual(options.body.data.options.excludeCredentials, []);
      // Another origin than the one the options were for: refused.
      const elsewhere = await call('/api/auth/passkeys/register', {
        headers,
        json: {
          challenge_id: options.body.data.challenge_id,
          response: pia.register(options.body.data.options, { origin: 'http://evil.example' }),
          name: 'laptop',
        },
      });
      assert.equal(elsewhere.status, 400);
      const made = await register(headers, pia, '  laptop ');
      assert.equal(made.status, 201, JSON.stringify(made.body));
      piaPasskeyId = made.body.data.id;
      assert.equal(made.body.data.name, 'laptop');
      assert.equal(made.body.data.recovery_codes.length, 10);
      const list = await t.json('/api/auth/passkeys', { headers });
      assert.deepEqual(Object.keys(list.body.data[0]).sort(), [
        'backed_up',
        'created_at',
        'device_type',
        'id',
        'last_used_at',
        'name',
      ]);
      assert.equal(list.body.data[0].last_used_at, null);
      const status = await t.json('/api/auth/two-factor', { headers });
      assert.deepEqual(status.body.data, {
        totp: false,
        passkeys: 1,
        recovery_codes_left: 10,
        required: false,
      });
      // The authenticator is told not to make a second passkey for the same person.
      const again = await call('/api/auth/passkeys/register/options', { headers });
      assert.deepEqual(
        again.body.data.options.excludeCredentials.map((c: { id: string }) => c.id),
        [pia.id],
      );
      // A second passkey answers no new codes (the first ones stay).
      const second = await register(headers, new SoftAuthenticator(), 'phone');
      assert.equal(second.status, 201);
      assert.equal(second.body.data.recovery_codes, undefined);
      const removed = await t.json(`/api/auth/passkeys/${second.body.data.id}`, {
        method: 'DELETE',
        headers,
      });
      assert.equal(removed.status, 200);
    });

    it('signs in on its own, answering what the password login answers; user verification required', async () => {
      const options = await call('/api/public/passkeys/login/options');
      assert.equal(options.body.data.options.userVerification, 'required');
      assert.equal(options.body.data.options.rpId, 'localhost');
      const unverified = await passkeyLogin(await assertion(pia, { userVerified: false }));
      assert.equal(unverified.status, 401);
      const signedIn = await passkeyLogin(await assertion(pia));
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.deepEqual(Object.keys(signedIn.body.data).sort(), ['expiresAt', 'role', 'token', 'username']);
      assert.equal(signedIn.body.data.username, 'pia');
      const me = await t.json('/api/auth/me', { headers: bearer(signedIn.body.data.token) });
      assert.equal(me.body.data.username, 'pia');
      const list = await t.json('/api/auth/passkeys', { headers: bearer(signedIn.body.data.token) });
      assert.equal(list.body.data[0].last_used_at, t.clock.now().toISOString());
      // The audit log names who signed in, and how.
      const entry = await t.database.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'auth.login')
        .where('actor_name', '=', 'pia')
        .where('details', 'like', '%passkey%')
        .executeTakeFirst();
      assert.equal(entry?.outcome, 'success');
    });

    it('takes each challenge once, for five minutes', async () => {
      const body = await assertion(pia);
      assert.equal((await passkeyLogin(body)).status, 200);
      const replay = await passkeyLogin(body);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'VALIDATION_FAILED');
      const late = await assertion(pia);
      t.clock.advance(5 * 60_000 + 1000);
      assert.equal((await passkeyLogin(late)).status, 400);
      // Nor is a registration's challenge a sign-in's.
      const headers = await session('quinn');
      const options = await call('/api/auth/passkeys/register/options', { headers });
      const mixed = await passkeyLogin({
        challenge_id: options.body.data.challenge_id,
        response: pia.authenticate({ challenge: options.body.data.options.challenge, rpId: 'localhost' }),
      });
      assert.equal(mixed.status, 400);
    });

    it('refuses another origin, another RP ID, and a sign counter that went back', async () => {
      assert.equal((await passkeyLogin(await assertion(pia, { origin: 'http://evil.example' }))).status, 401);
      assert.equal((await passkeyLogin(await assertion(pia, { rpId: 'evil.example' }))).status, 401);
      assert.equal((await passkeyLogin(await assertion(pia, { counter: 100 }))).status, 200);
      const back = await passkeyLogin(await assertion(pia, { counter: 50 }));
      assert.equal(back.status, 401);
      assert.equal(back.body.error, 'UNAUTHENTICATED');
      assert.equal((await passkeyLogin(await assertion(pia, { counter: 101 }))).status, 200);
    });

    it('makes a password sign-in need a second factor: a passkey of that person, no one else’s', async () => {
      const made = await register(await session('quinn'), quinn, 'key');
      assert.equal(made.status, 201);
      quinnPasskeyId = made.body.data.id;
      const alone = await passwordLogin('pia');
      assert.equal(alone.status, 401);
      assert.equal(alone.body.error, 'TWO_FACTOR_REQUIRED');
      // Pia has a passkey and her recovery codes, no authenticator app: that is what she is asked for.
      assert.deepEqual(alone.body.data, { methods: ['passkey', 'recovery_code'] });
      assert.match(alone.body.message, /通行密钥/);
      const others = await passwordLogin('pia', { passkey: await assertion(quinn) });
      assert.equal(others.status, 401);
      assert.equal(others.body.error, 'TWO_FACTOR_REQUIRED');
      const own = await passwordLogin('pia', { passkey: await assertion(pia) });
      assert.equal(own.status, 200, JSON.stringify(own.body));
      // A code is no second factor for someone without TOTP.
      assert.equal((await passwordLogin('pia', { otp: '123456' })).status, 401);
    });

    it('makes WebDAV refuse the account password', async () => {
      const refused = await t.request('/dav/', {
        method: 'PROPFIND',
        headers: { ...basic('pia', 'pia password'), Depth: '0', 'X-Cubby-Lang': 'en' },
      });
      assert.equal(refused.status, 401);
      assert.match(await refused.text(), /app password/);
    });

    it('refuses a disabled person', async () => {
      const users = await t.json('/api/admin/users', { headers: admin });
      const id = users.body.data.find((u: { username: string }) => u.username === 'quinn').id;
      const off = await t.json(`/api/admin/users/${id}`, {
        method: 'PUT',
        headers: admin,
        json: { status: 'disabled' },
      });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      const refused = await passkeyLogin(await assertion(quinn));
      assert.equal(refused.status, 403);
      await t.json(`/api/admin/users/${id}`, { method: 'PUT', headers: admin, json: { status: 'active' } });
      assert.equal((await passkeyLogin(await assertion(quinn))).status, 200);
    });

    it('renames and removes only one’s own; without passkeys the password alone signs in again', async () => {
      const headers = bearer((await passkeyLogin(await assertion(pia))).body.data.token);
      const path = (id: string) => `/api/auth/passkeys/${id}`;
      assert.equal((await call(path(quinnPasskeyId), { method: 'DELETE', headers })).status, 404);
      assert.equal(
        (await call(path(quinnPasskeyId), { method: 'PATCH', headers, json: { name: 'mine' } })).status,
        404,
      );
      assert.equal(
        (await call(path(piaPasskeyId), { method: 'PATCH', headers, json: { name: ' ' } })).status,
        400,
      );
      const renamed = await call(path(piaPasskeyId), {
        method: 'PATCH',
        headers,
        json: { name: 'work laptop' },
      });
      assert.equal(renamed.body.data.name, 'work laptop');
      assert.equal((await call(path(piaPasskeyId), { method: 'DELETE', headers })).status, 200);
      assert.equal((await passkeyLogin(await assertion(pia))).status, 401);
      assert.equal((await passwordLogin('pia')).status, 200);
      // Quinn's is still there.
      assert.equal((await passkeyLogin(await assertion(quinn))).status, 200);
    });

    it('meets the admin’s requirement of two factors', async () => {
      const set = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { require_two_factor: 'everyone' },
      });
      assert.equal(set.status, 200);
      try {
        const signIn = await passwordLogin('ravi');
        assert.equal(signIn.body.data.two_factor_setup_required, true);
        const ravi = bearer(signIn.body.data.token);
        assert.equal((await t.json('/api/user/pastes', { headers: ravi })).status, 403);
        const made = await register(ravi, raviKey, 'key');
        assert.equal(made.status, 201, JSON.stringify(made.body));
        assert.equal((await t.json('/api/user/pastes', { headers: ravi })).status, 200);
        assert.equal((await t.json('/api/auth/me', { headers: ravi })).body.data.must_enrol, false);
        // Their only second factor stays while it is required.
        const removed = await t.json(`/api/auth/passkeys/${made.body.data.id}`, {
          method: 'DELETE',
          headers: ravi,
        });
        assert.equal(removed.status, 409, JSON.stringify(removed.body));
        assert.equal((await t.json('/api/auth/passkeys', { headers: ravi })).body.data.length, 1);
      } finally {
        await turnOffTwoFactorRule(t);
      }
    });

    it('keeps the recovery codes when TOTP is turned off while a passkey remains', async () => {
      const ravi = await session('ravi', { passkey: await assertion(raviKey) });
      const setup = await call('/api/auth/two-factor/totp/setup', { headers: ravi });
      const code = () =>
        new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), digits: 6, period: 30 }).generate({
          timestamp: t.clock.now().getTime(),
        });
      const on = await call('/api/auth/two-factor/totp/enable', { headers: ravi, json: { code: code() } });
      assert.equal(on.status, 200);
      t.clock.advance(30_000);
      const off = await call('/api/auth/two-factor/totp/disable', { headers: ravi, json: { otp: code() } });
      assert.equal(off.status, 200);
      const status = await t.json('/api/auth/two-factor', { headers: ravi });
      assert.deepEqual(status.body.data, {
        totp: false,
        passkeys: 1,
        recovery_codes_left: 10,
        required: false,
      });
      assert.equal(
        (await passwordLogin('ravi', { recovery_code: on.body.data.recovery_codes[0] })).status,
        200,
      );
    });

    it('limits failed passkey sign-ins per address', async () => {
      t.clock.advance(15 * 60_000); // the failures above are out of the window
      const statuses: number[] = [];
      let message = '';
      for (let i = 0; i < 21; i++) {
        const res = await passkeyLogin(await assertion(quinn, { origin: 'http://evil.example' }));
        statuses.push(res.status);
        message = res.body.message;
      }
      assert.deepEqual(statuses, [...Array<number>(20).fill(401), 429]);
      // Not "too many wrong passwords" (密码错误…): no password was typed.
      assert.match(message, /^尝试次数过多，请 \d+ 秒后再试$/);
    });

    it('answers no key, and stores none but public keys', async () => {
      const stored = await t.database.db.kysely.selectFrom('passkeys').select('public_key').execute();
      assert.ok(stored.length >= 2);
      for (const { public_key } of stored) {
        for (const answer of answers) assert.ok(!answer.includes(public_key));
      }
    });
  });
}
