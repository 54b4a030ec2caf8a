/**
 * Accounts (docs/accounts.md), on both databases over HTTP: members and their reach (home folder
 * made on first sign-in, extra paths read only or read-write) on the REST fs routes, WebDAV and zip
 * links; their own pastes, file shares and keys (and an admin sees everyone's); invites taken once;
 * sessions listed and ended; app passwords on WebDAV; disable and delete that stop every credential
 * at once; the last admin kept; and CloudPaste's admin contract unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import {
  ADMIN,
  apiKey,
  bearer,
  createSecondInstance,
  createTestApp,
  type TestApp,
  basic,
  mountDiskAtRoot,
} from './support/test-app.ts';

const names = (body: { data: { items: { name: string }[] } }) => body.data.items.map((i) => i.name).sort();

for (const dialect of DIALECTS) {
  describe(`accounts (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let adminId: string;

    /** Makes a person through the admin's route and signs them in; answers their id and headers. */
    const person = async (username: string, fields: Record<string, unknown> = {}, userAgent = 'test') => {
      const made = await t.json('/api/admin/users', {
        method: 'POST',
        headers: admin,
        json: { username, password: `${username} password`, ...fields },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return { id: made.body.data.id as string, headers: await signIn(username, userAgent) };
    };
    const signIn = async (username: string, userAgent = 'test') => {
      const login = await t.json('/api/admin/login', {
        method: 'POST',
        headers: { 'User-Agent': userAgent },
        json: { username, password: `${username} password` },
      });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      return bearer(login.body.data.token as string);
    };
    const list = (headers: Record<string, string>, path: string) =>
      t.json(`/api/user/fs/list?path=${encodeURIComponent(path)}`, { headers });
    const write = (headers: Record<string, string>, path: string, content = 'x') =>
      t.json('/api/user/fs/update', { method: 'POST', headers, json: { path, content } });
    const dav = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      t.request(`/dav${path}`, {
        method,
        headers: { Depth: '1', ...headers },
        ...(body === undefined ? {} : { body }),
      });

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      adminId = (await t.json('/api/auth/me', { headers: admin })).body.data.id;
      await mountDiskAtRoot(t, admin);
      for (const path of ['/shared/readme.txt', '/team/plan.txt', '/home/zoe/private.txt']) {
        assert.equal((await write(admin, path, 'from the admin')).status, 200);
      }
    });
    after(() => t.close());

    it('the admin stays an admin: CloudPaste login, admin token check, /api/auth/me', async () => {
      const me = await t.json('/api/auth/me', { headers: admin });
      assert.equal(me.status, 200);
      assert.equal(me.body.data.username, ADMIN.username);
      assert.equal(me.body.data.role, 'admin');
      assert.equal(me.body.data.home_path, null);
      assert.equal((await t.json('/api/test/admin-token', { headers: admin })).status, 200);
    });

    it('a member reaches their home (made at first sign-in) and extra paths, nothing else', async () => {
      const alice = await person('alice', {
        paths: [
          { path: '/shared', access: 'read' },
          { path: '/team', access: 'write' },
        ],
      });
      const me = await t.json('/api/auth/me', { headers: alice.headers });
      assert.equal(me.body.data.role, 'member');
      assert.equal(me.body.data.home_path, '/home/alice');

      // The way there shows only the way: no zoe under /home, no other top-level folders.
      assert.deepEqual(names((await list(alice.headers, '/')).body), ['home', 'shared', 'team']);
      assert.deepEqual(names((await list(alice.headers, '/home')).body), ['alice']);
      // Made at sign-in: the admin sees it in storage.
      assert.ok(names((await list(admin, '/home')).body).includes('alice'));

      assert.equal((await write(alice.headers, '/home/alice/notes.txt', 'mine')).status, 200);
      assert.equal((await write(alice.headers, '/team/alice.txt')).status, 200);
      assert.equal((await write(alice.headers, '/shared/nope.txt')).status, 403);
      assert.equal((await write(alice.headers, '/home/zoe/nope.txt')).status, 403);
      assert.equal((await list(alice.headers, '/home/zoe')).status, 403);
      const read = await t.request('/api/user/fs/download?path=%2Fshared%2Freadme.txt', {
        headers: alice.headers,
      });
      assert.equal(read.status, 200);
      assert.equal(await read.text(), 'from the admin');
      const secret = await t.request('/api/user/fs/download?path=%2Fhome%2Fzoe%2Fprivate.txt', {
        headers: alice.headers,
      });
      assert.equal(secret.status, 403);
      await secret.body?.cancel();

      // Over WebDAV with the account password: the same reach.
      const pw = basic('alice', 'alice password');
      assert.equal((await dav('PUT', '/home/alice/dav.txt', pw, 'over dav')).status, 201);
      assert.equal((await dav('PUT', '/shared/dav.txt', pw, 'no')).status, 403);
      const home = await dav('PROPFIND', '/home/', pw);
      assert.equal(home.status, 207);
      const xml = await home.text();
      assert.match(xml, /\/dav\/home\/alice\//);
      assert.doesNotMatch(xml, /zoe/);

      // Admin-only routes stay closed.
      for (const path of ['/api/admin/users', '/api/admin/mounts', '/api/admin/invites']) {
        assert.equal((await t.json(path, { headers: alice.headers })).status, 403, path);
      }
      const token = await t.json('/api/test/admin-token', { headers: alice.headers });
      assert.equal(token.status, 403);
    });

    it("a member's zip link reaches only what they reach", async () => {
      const bob = await person('bob');
      assert.equal((await write(bob.headers, '/home/bob/a.txt', 'a')).status, 200);
      const link = await t.json('/api/user/fs/zip-link', {
        method: 'POST',
        headers: bob.headers,
        json: { paths: ['/home/bob/a.txt'] },
      });
      assert.equal(link.status, 200, JSON.stringify(link.body));
      const url = new URL(link.body.data.url);
      const zip = await t.request(url.pathname + url.search);
      assert.equal(zip.status, 200);
      await zip.body?.cancel();
      const outside = await t.json('/api/user/fs/zip-link', {
        method: 'POST',
        headers: bob.headers,
        json: { paths: ['/home/zoe/private.txt'] },
      });
      assert.equal(outside.status, 403);
    });

    it('members see and manage only their own pastes; the admin sees everyone’s', async () => {
      const carol = await person('carol');
      const dave = await person('dave');
      const paste = async (headers: Record<string, string>, content: string) => {
        const res = await t.json('/api/paste', { method: 'POST', headers, json: { content } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data.slug as string;
      };
      const carols = await paste(carol.headers, 'carol writes');
      const daves = await paste(dave.headers, 'dave writes');
      const mine = await t.json('/api/user/pastes', { headers: carol.headers });
      assert.deepEqual(
        mine.body.data.map((p: { slug: string }) => p.slug),
        [carols],
      );
      const all = await t.json('/api/admin/pastes?limit=100', { headers: admin });
      const slugs = all.body.data.map((p: { slug: string }) => p.slug);
      assert.ok(slugs.includes(carols) && slugs.includes(daves));
      const steal = await t.json(`/api/user/pastes/${daves}`, {
        method: 'PUT',
        headers: carol.headers,
        json: { content: 'carol was here' },
      });
      assert.equal(steal.status, 404);
      const del = await t.json('/api/user/pastes/batch-delete', {
        method: 'POST',
        headers: carol.headers,
        json: { ids: all.body.data.map((p: { id: string }) => p.id) },
      });
      assert.equal(del.status, 200);
      const left = (await t.json('/api/admin/pastes?limit=100', { headers: admin })).body.data.map(
        (p: { slug: string }) => p.slug,
      );
      assert.ok(!left.includes(carols) && left.includes(daves));
    });

    it("a member's key never reaches beyond its owner, and members see only their own keys", async () => {
      const erin = await person('erin', { paths: [{ path: '/shared', access: 'read' }] });
      const made = await t.json('/api/admin/api-keys', {
        method: 'POST',
        headers: erin.headers,
        json: { name: `erin-${dialect}`, mount_permission: true, text_permission: true, basic_path: '/' },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const key = apiKey(made.body.data.key);
      assert.equal((await write(key, '/home/erin/by-key.txt')).status, 200);
      assert.equal((await write(key, '/home/zoe/by-key.txt')).status, 403);
      assert.equal((await write(key, '/shared/by-key.txt')).status, 403);
      const outside = await t.json('/api/admin/api-keys', {
        method: 'POST',
        headers: erin.headers,
        json: { name: `erin-zoe-${dialect}`, mount_permission: true, basic_path: '/home/zoe' },
      });
      assert.equal(outside.status, 400);
      assert.equal(
        outside.body.details?.basic_path !== undefined || /基本路径/.test(outside.body.message),
        true,
      );

      // A paste made with the key is erin's.
      const pasted = await t.json('/api/paste', {
        method: 'POST',
        headers: key,
        json: { content: 'via key' },
      });
      assert.equal(pasted.status, 201);
      const erins = await t.json('/api/user/pastes', { headers: erin.headers });
      assert.ok(erins.body.data.some((p: { slug: string }) => p.slug === pasted.body.data.slug));

      const own = await t.json('/api/admin/api-keys', { headers: erin.headers });
      assert.deepEqual(
        own.body.data.map((k: { name: string }) => k.name),
        [`erin-${dialect}`],
      );
      const everyone = await t.json('/api/admin/api-keys', { headers: admin });
      const erinKey = everyone.body.data.find((k: { name: string }) => k.name === `erin-${dialect}`);
      assert.equal(erinKey.owner_name, 'erin');
      assert.ok(!JSON.stringify(everyone.body).includes(made.body.data.key));
      // Another member cannot delete it.
      const frank = await person('frank');
      const steal = await t.json(`/api/admin/api-keys/${erinKey.id}`, {
        method: 'DELETE',
        headers: frank.headers,
      });
      assert.equal(steal.status, 404);
    });

    it("a member's quota holds for their home folder on every door: fs, WebDAV, relay uploads, copies, share uploads", async () => {
      const pat = await person('pat', { quota_bytes: 100, paths: [{ path: '/shared', access: 'read' }] });
      const h = pat.headers;
      const full = (res: { status: number; body: { message?: string } }, what: string) => {
        assert.equal(res.status, 507, `${what}: ${JSON.stringify(res.body)}`);
      };
      assert.equal((await write(h, '/home/pat/a.txt', 'a'.repeat(60))).status, 200);
      const over = await write(h, '/home/pat/b.txt', 'b'.repeat(60));
      full(over, 'fs update');
      assert.match(over.body.message, /配额/);
      // WebDAV PUT, with the account password.
      const put = await dav('PUT', '/home/pat/c.txt', basic('pat', 'pat password'), 'c'.repeat(60));
      assert.equal(put.status, 507);
      // A form upload.
      const form = new FormData();
      form.append('path', '/home/pat/');
      form.append('file', new Blob(['d'.repeat(60)]), 'd.txt');
      full(await t.json('/api/user/fs/upload', { method: 'POST', headers: h, body: form }), 'fs upload');
      // A relay (multipart) upload that declares its size.
      const init = await t.json('/api/user/fs/multipart/init', {
        method: 'POST',
        headers: h,
        json: { path: '/home/pat/', filename: 'e.bin', fileSize: 60 },
      });
      full(init, 'multipart init');
      // A copy task into the home: the task fails, nothing lands.
      assert.equal((await write(admin, '/shared/big.txt', 'x'.repeat(60))).status, 200);
      const task = await t.json('/api/user/fs/tasks', {
        method: 'POST',
        headers: h,
        json: { items: [{ sourcePath: '/shared/big.txt', targetPath: '/home/pat/' }] },
      });
      assert.ok([200, 201, 202].includes(task.status), JSON.stringify(task.body));
      const taskId = task.body.data.taskId ?? task.body.data.id;
      let state: { status: string } = { status: 'pending' };
      for (let i = 0; i < 200 && ['pending', 'running'].includes(state.status); i++) {
        state = (await t.json(`/api/user/fs/tasks/${taskId}`, { headers: h })).body.data;
        if (['pending', 'running'].includes(state.status)) await new Promise((r) => setTimeout(r, 25));
      }
      assert.notEqual(state.status, 'completed', JSON.stringify(state));
      // A share upload (it lands in the member's home).
      const share = new FormData();
      share.append('file', new Blob(['f'.repeat(60)]), 'f.txt');
      full(await t.json('/api/upload', { method: 'POST', headers: h, body: share }), 'share upload');
      // The admin writing into the member's home meets the same quota: it is the folder's.
      full(await write(admin, '/home/pat/g.txt', 'g'.repeat(60)), 'admin into the home');
      // Nothing of the refused writes is there; outside the home the quota does not apply.
      assert.deepEqual(
        names((await t.json('/api/user/fs/list?path=%2Fhome%2Fpat&refresh=true', { headers: h })).body),
        ['a.txt'],
      );
      // Room comes back when a file goes; raising the quota makes room at once.
      const removed = await t.json('/api/user/fs/remove?path=%2Fhome%2Fpat%2Fa.txt', {
        method: 'DELETE',
        headers: h,
      });
      assert.equal(removed.status, 200);
      assert.equal((await write(h, '/home/pat/b.txt', 'b'.repeat(60))).status, 200);
      full(await write(h, '/home/pat/c.txt', 'c'.repeat(60)), 'second 60 bytes');
      const raised = await t.json(`/api/admin/users/${pat.id}`, {
        method: 'PUT',
        headers: admin,
        json: { quota_bytes: 1000 },
      });
      assert.equal(raised.status, 200);
      assert.equal((await write(h, '/home/pat/c.txt', 'c'.repeat(60))).status, 200);
    });

    it('sessions: each device listed with its address; ending one signs that device out at once', async () => {
      const gina = await person('gina', {}, 'Laptop Firefox');
      const phone = await signIn('gina', 'Phone Safari');
      const sessions = await t.json('/api/auth/sessions', { headers: gina.headers });
      assert.equal(sessions.status, 200);
      assert.equal(sessions.body.data.length, 2);
      const current = sessions.body.data.find((s: { current: boolean }) => s.current);
      assert.equal(current.user_agent, 'Laptop Firefox');
      const other = sessions.body.data.find((s: { current: boolean }) => !s.current);
      assert.equal(other.user_agent, 'Phone Safari');
      assert.ok(!JSON.stringify(sessions.body).includes(phone.Authorization.slice(7)));
      const ended = await t.json(`/api/auth/sessions/${other.id}`, {
        method: 'DELETE',
        headers: gina.headers,
      });
      assert.equal(ended.status, 200);
      assert.equal((await t.json('/api/auth/me', { headers: phone })).status, 401);
      assert.equal((await t.json('/api/auth/me', { headers: gina.headers })).status, 200);
      // Someone else's session id is not theirs to end.
      const hugo = await person('hugo');
      const notHers = await t.json(`/api/auth/sessions/${current.id}`, {
        method: 'DELETE',
        headers: hugo.headers,
      });
      assert.equal(notHers.status, 404);
      const again = await signIn('gina', 'Tablet');
      const all = await t.json('/api/auth/sessions', { method: 'DELETE', headers: gina.headers });
      assert.equal(all.body.data.ended, 1);
      assert.equal((await t.json('/api/auth/me', { headers: again })).status, 401);
      assert.equal((await t.json('/api/auth/me', { headers: gina.headers })).status, 200);
    });

    it('app passwords: shown once, hashed, read only or one folder, revoked at once', async () => {
      const ivy = await person('ivy');
      assert.equal((await write(ivy.headers, '/home/ivy/docs/a.txt', 'doc')).status, 200);
      assert.equal((await write(ivy.headers, '/home/ivy/other.txt', 'other')).status, 200);
      const made = await t.json('/api/auth/app-passwords', {
        method: 'POST',
        headers: ivy.headers,
        json: { name: 'phone', access: 'read', path: '/home/ivy/docs' },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const secret = made.body.data.password as string;
      assert.ok(secret.length >= 32);
      const listed = await t.json('/api/auth/app-passwords', { headers: ivy.headers });
      assert.equal(listed.body.data.length, 1);
      assert.ok(!JSON.stringify(listed.body).includes(secret));
      const stored = await t.database.db.kysely.selectFrom('app_passwords').selectAll().execute();
      assert.ok(!JSON.stringify(stored).includes(secret));

      const app = basic('ivy', secret);
      const get = await dav('GET', '/home/ivy/docs/a.txt', app);
      assert.equal(get.status, 200);
      assert.equal(await get.text(), 'doc');
      assert.equal((await dav('PUT', '/home/ivy/docs/b.txt', app, 'no')).status, 403);
      const beside = await dav('GET', '/home/ivy/other.txt', app);
      assert.equal(beside.status, 403);
      await beside.body?.cancel();
      // Someone else's name with her app password is no login.
      assert.equal((await dav('PROPFIND', '/home/', basic('hugo', secret))).status, 401);
      // Not a credential for the REST API.
      assert.equal((await t.json('/api/auth/me', { headers: app })).status, 401);
      const lastUsed = (await t.json('/api/auth/app-passwords', { headers: ivy.headers })).body.data[0]
        .last_used;
      assert.ok(lastUsed);

      const revoked = await t.json(`/api/auth/app-passwords/${made.body.data.id}`, {
        method: 'DELETE',
        headers: ivy.headers,
      });
      assert.equal(revoked.status, 200);
      assert.equal((await dav('PROPFIND', '/home/ivy/docs/', app)).status, 401);
    });

    it('disabling a person stops their sessions, keys and app passwords at once; enabling lets them sign in again', async () => {
      const jack = await person('jack');
      const key = await t.json('/api/admin/api-keys', {
        method: 'POST',
        headers: jack.headers,
        json: { name: `jack-${dialect}`, mount_permission: true },
      });
      const app = await t.json('/api/auth/app-passwords', {
        method: 'POST',
        headers: jack.headers,
        json: { name: 'sync' },
      });
      const davApp = basic('jack', app.body.data.password);
      const davPw = basic('jack', 'jack password');
      assert.equal((await dav('PROPFIND', '/home/jack/', davPw)).status, 207);
      assert.equal((await dav('PROPFIND', '/home/jack/', davApp)).status, 207);

      const off = await t.json(`/api/admin/users/${jack.id}`, {
        method: 'PUT',
        headers: admin,
        json: { status: 'disabled' },
      });
      assert.equal(off.status, 200);
      assert.equal(off.body.data.status, 'disabled');
      assert.equal((await t.json('/api/auth/me', { headers: jack.headers })).status, 401);
      assert.equal((await list(apiKey(key.body.data.key), '/home/jack')).status, 401);
      assert.equal((await dav('PROPFIND', '/home/jack/', davApp)).status, 401);
      // The account password, remembered a minute for sync clients, stops too.
      assert.notEqual((await dav('PROPFIND', '/home/jack/', davPw)).status, 207);
      const login = await t.json('/api/admin/login', {
        method: 'POST',
        json: { username: 'jack', password: 'jack password' },
      });
      assert.equal(login.status, 403);
      assert.equal(login.body.message, '此账户已被停用');

      await t.json(`/api/admin/users/${jack.id}`, {
        method: 'PUT',
        headers: admin,
        json: { status: 'active' },
      });
      assert.equal((await list(apiKey(key.body.data.key), '/home/jack')).status, 200);
      await signIn('jack');
    });

    it('invites: the link makes one account, once, with the role it was made for', async () => {
      const made = await t.json('/api/admin/invites', {
        method: 'POST',
        headers: admin,
        json: { role: 'member', email: 'kim@example.com', expires_in_days: 2 },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const token = made.body.data.token as string;
      assert.match(made.body.data.url, new RegExp(`/invite/${token}$`));
      const listed = await t.json('/api/admin/invites', { headers: admin });
      assert.ok(!JSON.stringify(listed.body).includes(token));

      const seen = await t.json(`/api/public/invites/${token}`);
      assert.equal(seen.status, 200);
      assert.equal(seen.body.data.role, 'member');
      assert.equal(seen.body.data.email, 'kim@example.com');

      const bad = await t.json(`/api/public/invites/${token}/accept`, {
        method: 'POST',
        json: { username: 'k/m', password: 'short' },
      });
      assert.equal(bad.status, 400);
      assert.ok(bad.body.details.username && bad.body.details.password);

      // Two people with the same link at once: one account.
      const accept = (username: string) =>
        t.json(`/api/public/invites/${token}/accept`, {
          method: 'POST',
          json: { username, password: `${username} password` },
        });
      const answers = await Promise.all([accept('kim'), accept('kim2')]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 410]);
      const winner = answers.find((a) => a.status === 201)!.body.data.username as string;
      const kim = await signIn(winner);
      assert.equal((await t.json('/api/auth/me', { headers: kim })).body.data.role, 'member');
      assert.equal((await t.json(`/api/public/invites/${token}`)).status, 410);
      assert.equal((await t.json('/api/public/invites/not-a-token')).status, 404);

      // An expired invite is refused.
      const old = await t.json('/api/admin/invites', {
        method: 'POST',
        headers: admin,
        json: { expires_in_days: 1 },
      });
      t.clock.advance(25 * 3600_000);
      const late = await t.json(`/api/public/invites/${old.body.data.token}/accept`, {
        method: 'POST',
        json: { username: 'late', password: 'late password' },
      });
      assert.equal(late.status, 410);
      admin = bearer(await t.adminToken()); // the day that passed ended the admin's session
    });

    it('deleting a person: their shares kept, handed to an admin, or deleted, as the admin chooses', async () => {
      const shares = async (username: string) => {
        const p = await person(username);
        const res = await t.json('/api/paste', {
          method: 'POST',
          headers: p.headers,
          json: { content: username },
        });
        return { ...p, slug: res.body.data.slug as string };
      };
      const owners = async () =>
        new Map(
          (await t.database.db.kysely.selectFrom('pastes').select(['slug', 'owner_id']).execute()).map(
            (r) => [r.slug, r.owner_id],
          ),
        );
      const [keep, move, drop] = await Promise.all([shares('leo'), shares('mia'), shares('ned')]);
      const del = (id: string, json: unknown) =>
        t.json(`/api/admin/users/${id}`, { method: 'DELETE', headers: admin, json });
      const wrongTarget = await del(move.id, { shares: 'transfer', transfer_to: keep.id });
      assert.equal(wrongTarget.status, 409);
      assert.equal((await del(keep.id, { shares: 'keep' })).status, 200);
      assert.equal((await del(move.id, { shares: 'transfer', transfer_to: adminId })).status, 200);
      assert.equal((await del(drop.id, { shares: 'delete' })).status, 200);
      const after = await owners();
      assert.equal(after.get(keep.slug), keep.id);
      assert.equal(after.get(move.slug), adminId);
      assert.equal(after.has(drop.slug), false);
      assert.equal((await t.json('/api/auth/me', { headers: keep.headers })).status, 401);
      assert.equal((await t.json(`/api/paste/${keep.slug}`)).status, 200);
    });

    it('the last active admin cannot be demoted, disabled or deleted; nor can one delete oneself', async () => {
      const demote = await t.json(`/api/admin/users/${adminId}`, {
        method: 'PUT',
        headers: admin,
        json: { role: 'member' },
      });
      assert.equal(demote.status, 409);
      const self = await t.json(`/api/admin/users/${adminId}`, {
        method: 'DELETE',
        headers: admin,
        json: {},
      });
      assert.equal(self.status, 409);
      assert.equal((await t.json('/api/auth/me', { headers: admin })).body.data.role, 'admin');
    });

    if (dialect === 'postgres') {
      it('a person disabled on one instance is refused on the next request to another', async () => {
        const b = await createSecondInstance(t);
        try {
          const oscar = await person('oscar');
          assert.equal((await b.json('/api/auth/me', { headers: oscar.headers })).status, 200);
          await t.json(`/api/admin/users/${oscar.id}`, {
            method: 'PUT',
            headers: admin,
            json: { status: 'disabled' },
          });
          assert.equal((await b.json('/api/auth/me', { headers: oscar.headers })).status, 401);
          const davPw = basic('oscar', 'oscar password');
          assert.notEqual(
            (await b.request('/dav/', { method: 'PROPFIND', headers: { ...davPw, Depth: '0' } })).status,
            207,
          );
        } finally {
          await b.close();
        }
      });
    }
  });
}
