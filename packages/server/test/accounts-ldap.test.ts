/**
 * Signing in with an LDAP password (docs/accounts.md, "LDAP"), on both databases over HTTP, against
 * a real OpenLDAP slapd the test starts on 127.0.0.1 (support/slapd.ts): the admin's settings (the
 * bind password never answered nor logged) and their step-by-step test; the password login and
 * WebDAV Basic through the directory — a member made with a home at the first sign-in and the same
 * one after, the role from the admin group at every sign-in, and every way it must refuse: a wrong
 * password (the message a wrong local one gets), filter injections, an empty password, a disabled
 * person, sign-up not allowed; and a directory that is down, while the local admin still gets in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LDAP_SECRET_MASK } from '@cubby/shared';
import { DIALECTS } from './support/databases.ts';
import {
  LDAP_ADMINS_GROUP,
  LDAP_PEOPLE,
  LDAP_READER_DN,
  LDAP_READER_PASSWORD,
  startTestSlapd,
  type TestSlapd,
} from './support/slapd.ts';
import {
  ADMIN,
  basic,
  bearer,
  createTestApp,
  mountLocalDisk,
  turnOffTwoFactorRule,
  type TestApp,
} from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`LDAP sign-in (${dialect})`, () => {
    let t: TestApp;
    let slapd: TestSlapd;
    let admin: Record<string, string>;

    const settings = () => ({
      enabled: true,
      url: slapd.url,
      bind_dn: LDAP_READER_DN,
      bind_password: LDAP_READER_PASSWORD,
      user_base: LDAP_PEOPLE,
      admin_group: LDAP_ADMINS_GROUP,
      allow_signup: true,
      timeout_seconds: 2,
    });
    const save = async (fields: Record<string, unknown>) => {
      const res = await t.json('/api/admin/ldap', { method: 'PUT', headers: admin, json: fields });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };
    const login = (username: string, password: string) =>
      t.json('/api/admin/login', {
        method: 'POST',
        headers: { 'X-Cubby-Lang': 'en' },
        json: { username, password },
      });
    const signIn = async (username: string, password: string) => {
      const res = await login(username, password);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return bearer(res.body.data.token as string);
    };
    const me = async (headers: Record<string, string>) =>
      (await t.json('/api/auth/me', { headers })).body.data;
    const users = async () =>
      (await t.json('/api/admin/users', { headers: admin })).body.data as { username: string; id: string }[];

    before(async () => {
      slapd = await startTestSlapd([
        { uid: 'lina', password: 'lina ldap pw', mail: 'lina@example.test', cn: 'Lina Example' },
        { uid: 'otto', password: 'otto ldap pw' },
        { uid: 'dora', password: 'dora ldap pw' },
        { uid: 'webby', password: 'webby ldap pw' },
      ]);
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      await mountLocalDisk(t, admin);
    });
    after(async () => {
      await t.close();
      await slapd.close();
    });

    it('keeps the settings with the bind password masked; the mask sent back keeps it', async () => {
      const empty = await t.json('/api/admin/ldap', { headers: admin });
      assert.equal(empty.status, 200);
      assert.equal(empty.body.data.configured, false);

      const saved = await save(settings());
      assert.equal(saved.bind_password, LDAP_SECRET_MASK);
      assert.equal(saved.user_filter, '(uid={username})');
      assert.equal(saved.email_attribute, 'mail');
      const again = await save({ ...settings(), bind_password: LDAP_SECRET_MASK });
      assert.equal(again.bind_password, LDAP_SECRET_MASK);
      const read = await t.json('/api/admin/ldap', { headers: admin });
      assert.ok(!JSON.stringify(read.body).includes(LDAP_READER_PASSWORD));

      const bad = await t.json('/api/admin/ldap', {
        method: 'PUT',
        headers: { ...admin, 'X-Cubby-Lang': 'en' },
        json: { ...settings(), url: 'http://127.0.0.1', user_filter: '(uid=x)' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.details.url, /ldap:\/\//);
      assert.match(bad.body.details.user_filter, /\{username\}/);

      const member = await t.json('/api/admin/ldap', { headers: {} });
      assert.equal(member.status, 401);
    });

    it('tests the settings step by step, with the saved password when the mask is sent', async () => {
      const test = (fields: Record<string, unknown>) =>
        t.json('/api/admin/ldap/test', {
          method: 'POST',
          headers: admin,
          json: { ...settings(), ...fields },
        });
      const good = await test({ bind_password: LDAP_SECRET_MASK, username: 'lina' });
      assert.equal(good.status, 200, JSON.stringify(good.body));
      assert.equal(good.body.data.ok, true);
      assert.deepEqual(
        good.body.data.steps.map((s: { step: string; ok: boolean }) => `${s.step}:${s.ok}`),
        ['reach:true', 'bind:true', 'search:true'],
      );
      assert.deepEqual(good.body.data.user, {
        dn: slapd.dnOf('lina'),
        email: 'lina@example.test',
        admin: false,
      });

      const failure = async (fields: Record<string, unknown>) => {
        const res = await test(fields);
        assert.equal(res.status, 200);
        assert.equal(res.body.data.ok, false);
        const last = res.body.data.steps.at(-1);
        return `${last.step}:${last.failure}`;
      };
      assert.equal(await failure({ bind_password: 'wrong' }), 'bind:bind_refused');
      assert.equal(await failure({ username: 'nobody' }), 'search:user_not_found');
      assert.equal(await failure({ username: '*' }), 'search:user_not_found');
      assert.equal(await failure({ url: 'ldap://127.0.0.1:1' }), 'reach:unreachable');
      assert.equal(await failure({ start_tls: true }), 'tls:tls_failed');
    });

    it('signs a directory person in as a member with a home, and the same one the next time', async () => {
      const first = await signIn('lina', 'lina ldap pw');
      const who = await me(first);
      assert.equal(who.username, 'lina');
      assert.equal(who.role, 'member');
      assert.equal(who.email, 'lina@example.test');
      const home = await t.json('/api/user/fs/list?path=%2Fhome%2Flina%2F', { headers: first });
      assert.equal(home.status, 200, JSON.stringify(home.body));

      const second = await signIn('lina', 'lina ldap pw');
      assert.equal((await me(second)).id, who.id);
      assert.equal((await users()).filter((u) => u.username.toLowerCase() === 'lina').length, 1);
      // The name as typed in another case finds the same entry, and so the same person.
      const upper = await signIn('LINA', 'lina ldap pw');
      assert.equal((await me(upper)).id, who.id);
    });

    it('refuses a wrong password, injections and an empty password as it refuses a wrong local one', async () => {
      const local = await login(ADMIN.username, 'not the password');
      assert.equal(local.status, 401);
      for (const [username, password] of [
        ['lina', 'wrong'],
        ['nobody', 'lina ldap pw'],
        ['*', 'lina ldap pw'],
        ['lin*', 'lina ldap pw'],
        ['admin)(uid=*', 'lina ldap pw'],
        ['lina)(|(uid=*', 'lina ldap pw'],
        // Escapes typed as text: `\61` is an `a` to a filter that took them unescaped.
        ['lin\\61', 'lina ldap pw'],
        ['lina\\00', 'lina ldap pw'],
      ]) {
        const res = await login(username!, password!);
        assert.equal(res.status, 401, `${username}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.message, local.body.message, username);
      }
      // A NUL never gets as far as the directory.
      assert.equal((await login('lina\u0000', 'lina ldap pw')).status, 400);
      const empty = await login('lina', '');
      assert.equal(empty.status, 400);
      assert.equal(
        (await users()).some((u) => u.username.includes('*') || u.username.includes(')')),
        false,
      );
    });

    it('gives the admin role from the admin group at each sign-in', async () => {
      await slapd.setAdmin('otto', true);
      const asAdmin = await signIn('otto', 'otto ldap pw');
      assert.equal((await me(asAdmin)).role, 'admin');
      assert.equal((await t.json('/api/admin/users', { headers: asAdmin })).status, 200);
      await slapd.setAdmin('otto', false);
      const asMember = await signIn('otto', 'otto ldap pw');
      assert.equal((await me(asMember)).role, 'member');
      assert.equal((await t.json('/api/admin/users', { headers: asMember })).status, 403);
    });

    it("applies Cubby's two-factor rule after the directory's password", async () => {
      const everyone = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { require_two_factor: 'everyone' },
      });
      assert.equal(everyone.status, 200);
      try {
        const res = await login('lina', 'lina ldap pw');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.data.two_factor_setup_required, true);
        const blocked = await t.json('/api/user/pastes', { headers: bearer(res.body.data.token) });
        assert.equal(blocked.status, 403);
        // WebDAV takes no password alone from someone who must set up a second factor first.
        const dav = await t.request('/dav/home/lina/', {
          method: 'PROPFIND',
          headers: { Depth: '1', ...basic('lina', 'lina ldap pw') },
        });
        assert.equal(dav.status, 403);
        await dav.body?.cancel();
      } finally {
        await turnOffTwoFactorRule(t);
      }
      assert.equal((await t.json('/api/admin/users', { headers: admin })).status, 200);
    });

    it('keeps a disabled person out, after the right password only', async () => {
      await signIn('dora', 'dora ldap pw');
      const dora = (await users()).find((u) => u.username === 'dora')!;
      const disabled = await t.json(`/api/admin/users/${dora.id}`, {
        method: 'PUT',
        headers: admin,
        json: { status: 'disabled' },
      });
      assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
      assert.equal((await login('dora', 'dora ldap pw')).status, 403);
      assert.equal((await login('dora', 'wrong')).status, 401);
    });

    it('takes the LDAP password on WebDAV Basic', async () => {
      const pw = basic('webby', 'webby ldap pw');
      const put = await t.request('/dav/home/webby/hello.txt', {
        method: 'PUT',
        headers: pw,
        body: 'over dav',
      });
      assert.equal(put.status, 201);
      const list = await t.request('/dav/home/webby/', {
        method: 'PROPFIND',
        headers: { Depth: '1', ...pw },
      });
      assert.equal(list.status, 207);
      assert.match(await list.text(), /hello\.txt/);
      const wrong = await t.request('/dav/home/webby/', {
        method: 'PROPFIND',
        headers: { Depth: '1', ...basic('webby', 'wrong') },
      });
      assert.equal(wrong.status, 401);
      await wrong.body?.cancel();
    });

    it('refuses a person unknown here when sign-up is off', async () => {
      await slapd.addPerson({ uid: 'newbie', password: 'newbie ldap pw' });
      await save({ ...settings(), bind_password: LDAP_SECRET_MASK, allow_signup: false });
      assert.equal((await login('newbie', 'newbie ldap pw')).status, 401);
      // People already linked still sign in.
      await signIn('lina', 'lina ldap pw');
      await save({ ...settings(), bind_password: LDAP_SECRET_MASK });
      await signIn('newbie', 'newbie ldap pw');
    });

    it('answers a clear 503 for directory people while it is down; the local admin still signs in', async () => {
      await slapd.stop();
      try {
        const down = await login('lina', 'lina ldap pw');
        assert.equal(down.status, 503, JSON.stringify(down.body));
        assert.match(down.body.message, /LDAP directory cannot be reached/);
        const unknown = await login('someone', 'some password');
        assert.equal(unknown.status, 503);
        await signIn(ADMIN.username, ADMIN.password);
      } finally {
        await slapd.start();
      }
      await signIn('lina', 'lina ldap pw');
    });

    it('says so when the stored bind password cannot be opened (SECRET_KEY changed)', async () => {
      const db = t.database.db.kysely;
      const stored = await db.selectFrom('ldap_config').select('bind_password').executeTakeFirstOrThrow();
      await db
        .updateTable('ldap_config')
        .set({ bind_password: 'v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
        .execute();
      try {
        const test = await t.json('/api/admin/ldap/test', {
          method: 'POST',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          json: { ...settings(), bind_password: LDAP_SECRET_MASK },
        });
        assert.equal(test.status, 503);
        assert.match(test.body.message, /SECRET_KEY/);
        assert.equal((await login('lina', 'lina ldap pw')).status, 503);
        await signIn(ADMIN.username, ADMIN.password);
      } finally {
        await db.updateTable('ldap_config').set(stored).execute();
      }
    });

    it('never lets a password into an answer or the log, and audits settings and sign-ins', async () => {
      const log = t.logLines.join('\n');
      for (const secret of [LDAP_READER_PASSWORD, 'lina ldap pw', 'webby ldap pw']) {
        assert.ok(!log.includes(secret), `the log holds ${secret}`);
      }
      assert.match(log, /the LDAP directory failed a sign-in/);
      const audit = await t.json('/api/admin/audit?limit=200', { headers: admin });
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      const entries = audit.body.data.items as { action: string; outcome: string; details: string | null }[];
      assert.ok(entries.some((e) => e.action === 'ldap.update' && e.outcome === 'success'));
      const door = (e: { details: string | null }) => JSON.parse(e.details ?? 'null')?.door;
      assert.ok(
        entries.some((e) => e.action === 'auth.login' && e.outcome === 'success' && door(e) === 'ldap'),
      );
      assert.ok(!JSON.stringify(audit.body).includes(LDAP_READER_PASSWORD));
    });
  });
}
