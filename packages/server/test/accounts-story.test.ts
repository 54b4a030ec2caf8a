/**
 * Issue 23's "done when", as one story over HTTP on both databases (docs/accounts.md): an admin
 * invites two people; Alice signs in with a password and a second factor, Bob with single sign-on
 * (a real OpenID provider on 127.0.0.1); each works in their own home folder within a quota and
 * mounts it over WebDAV with an app password; the admin reads in the audit log who did what; and a
 * CloudPaste 0.6 script (admin login, Bearer token, ApiKey key) works as before. The parts have
 * their own suites (accounts, two-factor, oidc, audit); this one checks they hold together.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { DIALECTS } from './support/databases.ts';
import { startTestIdp, type TestIdp } from './support/oidc-idp.ts';
import { freePort } from './support/server-process.ts';
import { followCallback, throughProvider } from './support/sso.ts';
import {
  ADMIN,
  apiKey,
  basic,
  bearer,
  createTestApp,
  type TestApp,
  mountLocalDisk,
} from './support/test-app.ts';

const QUOTA = 1000;

for (const dialect of DIALECTS) {
  describe(`accounts, the whole story (${dialect})`, () => {
    let t: TestApp;
    let idp: TestIdp;
    let admin: Record<string, string>;
    let providerId: string;

    const invite = async (email: string) => {
      const made = await t.json('/api/admin/invites', {
        method: 'POST',
        headers: admin,
        json: { role: 'member', email, quota_bytes: QUOTA },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.data.token as string;
    };
    const accept = async (token: string, username: string) => {
      const res = await t.json(`/api/public/invites/${token}/accept`, {
        method: 'POST',
        json: { username, password: `${username} long password` },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };
    const login = (username: string, factor: Record<string, string> = {}) =>
      t.json('/api/admin/login', {
        method: 'POST',
        json: { username, password: `${username} long password`, ...factor },
      });
    const write = (headers: Record<string, string>, path: string, content: string) =>
      t.json('/api/user/fs/update', { method: 'POST', headers, json: { path, content } });
    const dav = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      t.request(`/dav${path}`, { method, headers: { Depth: '1', ...headers }, ...(body ? { body } : {}) });
    const appPassword = async (headers: Record<string, string>) => {
      const made = await t.json('/api/auth/app-passwords', {
        method: 'POST',
        headers,
        json: { name: 'laptop rclone' },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.data.password as string;
    };

    before(async () => {
      t = await createTestApp(dialect);
      // ID tokens and authenticator codes run on the world's time.
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      await mountLocalDisk(t, admin);
      const port = await freePort();
      const provider = await t.json('/api/admin/oidc-providers', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'Company SSO',
          issuer: `http://127.0.0.1:${port}`,
          client_id: 'cubby',
          client_secret: 'cubby-test-secret',
          link_by_email: true,
        },
      });
      assert.equal(provider.status, 201, JSON.stringify(provider.body));
      providerId = provider.body.data.id;
      idp = await startTestIdp(port, [provider.body.data.redirect_uri]);
    });
    after(async () => {
      await idp.close();
      await t.close();
    });

    it('two invited people sign in (password + code, SSO), work in their homes over REST and WebDAV, and the admin reads it all', async () => {
      // The admin invites two people; each takes their link once.
      await accept(await invite('alice@example.com'), 'alice');
      await accept(await invite('bob@example.com'), 'bob');

      // Alice turns on an authenticator app; from then on her password alone is not enough.
      const first = bearer((await login('alice')).body.data.token);
      const setup = await t.json('/api/auth/two-factor/totp/setup', { method: 'POST', headers: first });
      const totp = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), digits: 6, period: 30 });
      const now = () => t.clock.now().getTime();
      const enabled = await t.json('/api/auth/two-factor/totp/enable', {
        method: 'POST',
        headers: first,
        json: { code: totp.generate({ timestamp: now() }) },
      });
      assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
      assert.equal(enabled.body.data.recovery_codes.length, 10);
      const passwordOnly = await login('alice');
      assert.equal(passwordOnly.status, 401);
      assert.equal(passwordOnly.body.error, 'TWO_FACTOR_REQUIRED');
      // The next time step's code (the current one was spent on enabling), inside the ±1 window.
      const withCode = await login('alice', { otp: totp.generate({ timestamp: now() + 30_000 }) });
      assert.equal(withCode.status, 200, JSON.stringify(withCode.body));
      const alice = bearer(withCode.body.data.token);

      // Bob signs in through the company's provider, linked to his invited account by verified email.
      idp.accounts.set('bob-at-idp', { email: 'bob@example.com', email_verified: true, name: 'Bob' });
      const landing = await followCallback(t, await throughProvider(t, idp, providerId, 'bob-at-idp'));
      assert.equal(landing.username, 'bob', JSON.stringify(landing));
      const bob = bearer(landing.token!);
      const bobMe = (await t.json('/api/auth/me', { headers: bob })).body.data;
      assert.equal(bobMe.role, 'member');
      assert.equal(bobMe.home_path, '/home/bob');

      // Each works in their own home, within the quota, and never in the other's.
      assert.equal((await write(alice, '/home/alice/notes.md', 'a'.repeat(600))).status, 200);
      assert.equal((await write(bob, '/home/bob/plan.md', 'b'.repeat(600))).status, 200);
      const over = await write(alice, '/home/alice/more.md', 'a'.repeat(600));
      assert.equal(over.status, 507, JSON.stringify(over.body));
      assert.equal((await write(alice, '/home/bob/intrude.md', 'x')).status, 403);
      const peek = await t.request('/api/user/fs/download?path=%2Fhome%2Fbob%2Fplan.md', { headers: alice });
      assert.equal(peek.status, 403);

      // Each mounts their home over WebDAV with an app password; Alice's account password, now
      // one factor of two, is refused there.
      for (const [name, headers] of [
        ['alice', alice],
        ['bob', bob],
      ] as const) {
        const davAuth = basic(name, await appPassword(headers));
        const listing = await dav('PROPFIND', `/home/${name}/`, davAuth);
        assert.equal(listing.status, 207);
        assert.match(await listing.text(), new RegExp(`/dav/home/${name}/`));
        assert.equal((await dav('PUT', `/home/${name}/from-dav.txt`, davAuth, 'over dav')).status, 201);
        assert.equal((await dav('PUT', `/home/${name}/too-big.bin`, davAuth, 'z'.repeat(QUOTA))).status, 507);
        const other = name === 'alice' ? 'bob' : 'alice';
        assert.equal((await dav('PROPFIND', `/home/${other}/`, davAuth)).status, 403);
      }
      assert.equal(
        (await dav('PROPFIND', '/home/alice/', basic('alice', 'alice long password'))).status,
        401,
      );

      // The admin reads who did what.
      const audit = async (query: string) => {
        const res = await t.json(`/api/admin/audit?limit=200&${query}`, { headers: admin });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.items as { action: string; actor_name: string | null; outcome: string }[];
      };
      const actions = (entries: { action: string; outcome: string }[]) =>
        entries.map((e) => `${e.action} ${e.outcome}`);
      const aliceDid = actions(await audit('actor=alice'));
      for (const expected of [
        'invite.accept success',
        'two_factor.enable success',
        'auth.login failure',
        'auth.login success',
        'app_password.create success',
      ]) {
        assert.ok(aliceDid.includes(expected), `${expected} in ${aliceDid.join(', ')}`);
      }
      const bobDid = actions(await audit('actor=bob'));
      for (const expected of ['invite.accept success', 'auth.login success', 'app_password.create success']) {
        assert.ok(bobDid.includes(expected), `${expected} in ${bobDid.join(', ')}`);
      }
      assert.equal((await audit('action=invite.create')).length, 2);
    });

    it('a CloudPaste 0.6 script still works unchanged: admin login, Bearer token, ApiKey key', async () => {
      const loginRes = await t.json('/api/admin/login', { method: 'POST', json: ADMIN });
      assert.equal(loginRes.status, 200);
      assert.equal(loginRes.body.code, 200);
      assert.equal(typeof loginRes.body.data.token, 'string');
      const token = bearer(loginRes.body.data.token);
      assert.equal((await t.json('/api/test/admin-token', { headers: token })).status, 200);
      const paste = await t.json('/api/paste', {
        method: 'POST',
        headers: token,
        json: { content: 'still here' },
      });
      assert.equal(paste.status, 201, JSON.stringify(paste.body));
      const read = await t.json(`/api/paste/${paste.body.data.slug}`);
      assert.equal(read.body.data.content, 'still here');
      const key = await t.createKey({ name: 'script', text_permission: true });
      const byKey = await t.json('/api/paste', {
        method: 'POST',
        headers: apiKey(key.key),
        json: { content: 'from a key' },
      });
      assert.equal(byKey.status, 201, JSON.stringify(byKey.body));
      assert.equal((await t.json('/api/test/api-key', { headers: apiKey(key.key) })).status, 200);
    });
  });
}
