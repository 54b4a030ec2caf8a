/**
 * Single sign-on (docs/accounts.md, "Single sign-on"), on both databases, against a real OpenID
 * provider run by the test on 127.0.0.1 (support/oidc-idp.ts): the browser's round trip driven by
 * hand (redirects followed, the provider's cookies kept, its login form submitted), then what Cubby
 * makes of it — a member made or refused, a link by verified email only, the role from a group
 * claim — and every way a sign-in must fail: a wrong state, a replayed code, a token for another
 * audience, an expired token, a disabled person, a provider that does not answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OIDC_SECRET_MASK } from '@cubby/shared';
import { DIALECTS } from './support/databases.ts';
import { startTestIdp, type TestIdp } from './support/oidc-idp.ts';
import { followCallback, throughProvider as throughIdp } from './support/sso.ts';
import { freePort } from './support/server-process.ts';
import { bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`single sign-on (${dialect})`, () => {
    let t: TestApp;
    let idp: TestIdp;
    let admin: Record<string, string>;
    let providerId: string;

    const setProvider = async (fields: Record<string, unknown>) => {
      const res = await t.json(`/api/admin/oidc-providers/${providerId}`, {
        method: 'PUT',
        headers: admin,
        json: fields,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };

    const throughProvider = (login: string, id = providerId) => throughIdp(t, idp, id, login);
    const callback = (url: string) => followCallback(t, url);
    const signIn = async (login: string) => callback(await throughProvider(login));
    const me = async (token: string) => (await t.json('/api/auth/me', { headers: bearer(token) })).body.data;
    const userNamed = async (username: string) =>
      (await t.json('/api/admin/users', { headers: admin })).body.data.find(
        (u: { username: string }) => u.username === username,
      );

    before(async () => {
      // Behind one trusted proxy: the limit test signs in from addresses of its own.
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
      // ID tokens carry real times: the app's clock follows them, and the expiry test moves it on.
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      const port = await freePort();
      const created = await t.json('/api/admin/oidc-providers', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'Test IdP',
          issuer: `http://127.0.0.1:${port}`,
          client_id: 'cubby',
          client_secret: 'cubby-test-secret',
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      providerId = created.body.data.id;
      idp = await startTestIdp(port, [created.body.data.redirect_uri]);
    });
    after(async () => {
      await idp.close();
      await t.close();
    });

    it('answers providers to admins with the secret masked, and only enabled ones to the login page', async () => {
      const listed = await t.json('/api/admin/oidc-providers', { headers: admin });
      assert.equal(listed.status, 200);
      const [provider] = listed.body.data;
      assert.equal(provider.client_secret, OIDC_SECRET_MASK);
      assert.equal(provider.scopes, 'openid email profile');
      assert.equal(provider.redirect_uri, `http://localhost/api/auth/oidc/${providerId}/callback`);
      assert.ok(!JSON.stringify(listed.body).includes(idp.clientSecret));

      const buttons = await t.json('/api/auth/oidc/providers');
      assert.deepEqual(buttons.body.data, [{ id: providerId, name: 'Test IdP' }]);
      await setProvider({ enabled: false });
      assert.deepEqual((await t.json('/api/auth/oidc/providers')).body.data, []);
      const start = await t.request(`/api/auth/oidc/${providerId}/start`);
      assert.equal(start.headers.get('location'), '/login/oidc#error=provider_unknown');
      // The mask sent back keeps the stored secret: the code exchange below still authenticates.
      await setProvider({ enabled: true, client_secret: OIDC_SECRET_MASK });

      const bad = await t.json('/api/admin/oidc-providers', {
        method: 'POST',
        headers: { ...admin, 'X-Cubby-Lang': 'en' },
        json: { name: 'x', issuer: 'http://idp.example.com', client_id: 'c', scopes: 'email' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.details.issuer, /https/);
      assert.match(bad.body.details.scopes, /openid/);
    });

    it('makes a member on first sign-in when sign-up is allowed, and the session works', async () => {
      await setProvider({ allow_signup: true, link_by_email: false, role_claim: null });
      idp.accounts.set('sub-alice', {
        preferred_username: 'alice',
        email: 'alice@example.test',
        email_verified: true,
      });
      const landed = await signIn('sub-alice');
      assert.ok(landed['token'] && landed['expiresAt'], JSON.stringify(landed));
      const alice = await me(landed['token']!);
      assert.equal(alice.username, 'alice');
      assert.equal(alice.role, 'member');
      assert.equal(alice.email, 'alice@example.test');
      // A member does not manage providers.
      const listed = await t.json('/api/admin/oidc-providers', { headers: bearer(landed['token']!) });
      assert.equal(listed.status, 403);

      // The second sign-in finds the link: the same person, not a new `alice-2`.
      const again = await signIn('sub-alice');
      assert.equal((await me(again['token']!)).id, alice.id);
      // No secret or token reached the log.
      const log = t.logLines.join('\n');
      for (const secret of [idp.clientSecret, landed['token']!, again['token']!])
        assert.ok(!log.includes(secret));
    });

    it('gives a taken username a suffix', async () => {
      idp.accounts.set('sub-other-alice', { preferred_username: 'alice', email_verified: false });
      const landed = await signIn('sub-other-alice');
      assert.equal((await me(landed['token']!)).username, 'alice-2');
    });

    it('forgets the link of a deleted person: the next sign-in makes a new member', async () => {
      const before = await userNamed('alice-2');
      const deleted = await t.json(`/api/admin/users/${before.id}`, {
        method: 'DELETE',
        headers: admin,
        json: { shares: 'keep' },
      });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      const landed = await signIn('sub-other-alice');
      const after = await me(landed['token']!);
      assert.equal(after.username, 'alice-2');
      assert.notEqual(after.id, before.id);
    });

    it('refuses an unknown person when sign-up is not allowed', async () => {
      await setProvider({ allow_signup: false });
      idp.accounts.set('sub-bob', {
        preferred_username: 'bob',
        email: 'bob@example.test',
        email_verified: true,
      });
      assert.deepEqual(await signIn('sub-bob'), { error: 'signup_not_allowed' });
      assert.equal(await userNamed('bob'), undefined);
      // The audit log has the refusal and the sign-ins before it, each marked as single sign-on.
      const entries = await t.database.db.kysely
        .selectFrom('audit_log')
        .select(['outcome', 'actor_name', 'details'])
        .where('action', '=', 'auth.login')
        .orderBy('at')
        .orderBy('id')
        .execute();
      const sso = entries.filter((e) => JSON.parse(e.details ?? '{}').door === 'oidc');
      assert.ok(sso.some((e) => e.outcome === 'success' && e.actor_name === 'alice'));
      assert.equal(JSON.parse(sso.at(-1)!.details!).reason, 'signup_not_allowed');
      assert.equal(sso.at(-1)!.outcome, 'failure');
    });

    it('links to an existing person by a verified email, never by an unverified one', async () => {
      await setProvider({ allow_signup: true, link_by_email: true });
      for (const username of ['carol', 'dave']) {
        const made = await t.json('/api/admin/users', {
          method: 'POST',
          headers: admin,
          json: { username, password: `${username} password`, email: `${username}@example.test` },
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
      }
      idp.accounts.set('sub-carol', {
        preferred_username: 'carol.idp',
        email: 'carol@example.test',
        email_verified: true,
      });
      const carol = await signIn('sub-carol');
      assert.equal((await me(carol['token']!)).id, (await userNamed('carol')).id);

      idp.accounts.set('sub-dave', {
        preferred_username: 'dave.idp',
        email: 'dave@example.test',
        email_verified: false,
      });
      assert.deepEqual(await signIn('sub-dave'), { error: 'email_unverified' });
      assert.equal(await userNamed('dave.idp'), undefined);
    });

    it('sets the role from the groups claim at sign-up and at every sign-in', async () => {
      await setProvider({ allow_signup: true, role_claim: 'groups', admin_values: ['cubby-admins'] });
      idp.accounts.set('sub-erin', { preferred_username: 'erin', groups: ['staff', 'cubby-admins'] });
      const first = await signIn('sub-erin');
      assert.equal((await me(first['token']!)).role, 'admin');
      idp.accounts.set('sub-erin', { preferred_username: 'erin', groups: ['staff'] });
      const second = await signIn('sub-erin');
      assert.equal((await me(second['token']!)).role, 'member');
      await setProvider({ role_claim: null, admin_values: [] });
    });

    it('refuses a wrong or missing state', async () => {
      const url = new URL(await throughProvider('sub-alice'));
      const forged = new URL(url);
      forged.searchParams.set('state', 'not-the-state-we-sent');
      assert.deepEqual(await callback(forged.toString()), { error: 'state_invalid' });
      forged.searchParams.delete('state');
      assert.deepEqual(await callback(forged.toString()), { error: 'state_invalid' });
    });

    it('refuses a replayed code', async () => {
      const url = await throughProvider('sub-alice');
      assert.ok((await callback(url))['token']);
      // The same callback again: its sign-in was used.
      assert.deepEqual(await callback(url), { error: 'state_invalid' });
      // The used code with the state of a sign-in just begun: the provider refuses the code.
      const fresh = await t.request(`/api/auth/oidc/${providerId}/start`);
      const state = new URL(fresh.headers.get('location')!).searchParams.get('state')!;
      const replay = new URL(url);
      replay.searchParams.set('state', state);
      assert.deepEqual(await callback(replay.toString()), { error: 'code_rejected' });
    });

    it('refuses an ID token issued to another audience', async () => {
      idp.tamper.idToken = { aud: 'some-other-app' };
      try {
        assert.deepEqual(await signIn('sub-alice'), { error: 'token_audience' });
      } finally {
        delete idp.tamper.idToken;
      }
    });

    it('refuses an expired ID token', async () => {
      // An ID token that ran out two minutes ago (signed by the provider's own key): only its
      // times are wrong. Tokens are checked against the world's time, as the provider sets them.
      const now = Math.floor(Date.now() / 1000);
      idp.tamper.idToken = { iat: now - 3600, exp: now - 120 };
      try {
        const url = await throughProvider('sub-alice');
        assert.deepEqual(await callback(url), { error: 'token_expired' });
      } finally {
        delete idp.tamper.idToken;
      }
    });

    it("runs on the world's time: the app's clock moving between start and callback changes nothing", async () => {
      // Other requests may move the test clock (expiry tests do); a provider's tokens and a
      // sign-in's ten minutes are real time.
      const url = await throughProvider('sub-alice');
      t.clock.advance(24 * 3600_000);
      try {
        const landed = await callback(url);
        assert.ok(landed['token'], JSON.stringify(landed));
      } finally {
        t.clock.advance(-24 * 3600_000);
      }
    });

    it('refuses a disabled person', async () => {
      const alice = await userNamed('alice');
      await t.json(`/api/admin/users/${alice.id}`, {
        method: 'PUT',
        headers: admin,
        json: { status: 'disabled' },
      });
      try {
        assert.deepEqual(await signIn('sub-alice'), { error: 'account_disabled' });
      } finally {
        await t.json(`/api/admin/users/${alice.id}`, {
          method: 'PUT',
          headers: admin,
          json: { status: 'active' },
        });
      }
    });

    it('lets an address begin only so many sign-ins (each keeps state until it expires); others still can', async () => {
      const startFrom = async (address: string) =>
        (
          await t.request(`/api/auth/oidc/${providerId}/start`, { headers: { 'X-Forwarded-For': address } })
        ).headers.get('location')!;
      let begun = 0;
      while (begun < 100 && (await startFrom('198.51.100.7')).startsWith(idp.issuer)) begun++;
      assert.equal(begun, 30);
      assert.equal(await startFrom('198.51.100.7'), '/login/oidc#error=rate_limited');
      assert.ok((await startFrom('198.51.100.8')).startsWith(idp.issuer));
    });

    it('tells the browser when the provider does not answer', async () => {
      const down = await t.json('/api/admin/oidc-providers', {
        method: 'POST',
        headers: admin,
        json: { name: 'Down', issuer: `http://127.0.0.1:${await freePort()}`, client_id: 'cubby' },
      });
      const start = await t.request(`/api/auth/oidc/${down.body.data.id}/start`);
      assert.equal(start.headers.get('location'), '/login/oidc#error=provider_unreachable');
      assert.equal(
        (await t.json(`/api/admin/oidc-providers/${down.body.data.id}`, { method: 'DELETE', headers: admin }))
          .status,
        200,
      );
    });
  });
}
