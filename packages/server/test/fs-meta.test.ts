/**
 * Folder rules (CloudPaste 1.9's fs_meta; docs/architecture.md, "Folder rules") and guest browsing
 * (docs/accounts.md, "Guests"), on both databases over HTTP: the admin's routes and their
 * validation; README, hide patterns and password, each inherited or not; hidden names neither listed
 * nor reachable by a guessed path on the fs routes, WebDAV and zip (the admin still sees them);
 * folder-password tokens (missing, wrong, rate limited, bound to their folder and password); guests
 * off and on, read only on their folders, nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { basic, bearer, createTestApp, mountLocalDisk, type TestApp } from './support/test-app.ts';

const q = (p: string) => encodeURIComponent(p);
const names = (body: { data: { items: { name: string }[] } }) => body.data.items.map((i) => i.name).sort();

for (const dialect of DIALECTS) {
  describe(`folder rules and guests (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    /** A member who may read /pub (and write nowhere). */
    let member: Record<string, string>;

    const rule = (json: Record<string, unknown>) =>
      t.json('/api/fs-meta/create', { method: 'POST', headers: admin, json });
    const put = (id: string, json: Record<string, unknown>) =>
      t.json(`/api/fs-meta/${id}`, { method: 'PUT', headers: admin, json });
    const list = (headers: Record<string, string>, path: string, tree = 'user') =>
      t.json(`/api/${tree}/fs/list?path=${q(path)}`, { headers });
    const get = (headers: Record<string, string>, path: string) =>
      t.json(`/api/user/fs/get?path=${q(path)}`, { headers });
    const write = (headers: Record<string, string>, path: string, content = 'x') =>
      t.json('/api/user/fs/update', { method: 'POST', headers, json: { path, content } });
    const verify = (path: string, password: string) =>
      t.json('/api/fs/meta/password/verify', { method: 'POST', json: { path, password } });
    const settings = (json: Record<string, unknown>) =>
      t.json('/api/admin/system-settings', { method: 'PUT', headers: admin, json });

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      await mountLocalDisk(t, admin, '/pub');
      await mountLocalDisk(t, admin, '/priv');
      for (const path of [
        '/pub/readme.txt',
        '/pub/notes.secret',
        '/pub/.env',
        '/pub/sub/deep.secret',
        '/pub/sub/plain.txt',
        '/pub/hidden-dir/inside.txt',
        '/pub/locked/treasure.txt',
        '/pub/locked/inner/more.txt',
        '/pub/vault/gold.txt',
        '/priv/private.txt',
      ]) {
        assert.equal((await write(admin, path, `content of ${path}`)).status, 200, path);
      }
      const made = await t.json('/api/admin/users', {
        method: 'POST',
        headers: admin,
        json: { username: 'mia', password: 'mia password', paths: [{ path: '/pub', access: 'read' }] },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const login = await t.json('/api/admin/login', {
        method: 'POST',
        json: { username: 'mia', password: 'mia password' },
      });
      member = bearer(login.body.data.token as string);
    });
    after(() => t.close());

    it('the admin manages rules: create, list, get, change, delete; answers never carry the password', async () => {
      const made = await rule({
        path: '/priv/',
        header_markdown: '# Private',
        hide_patterns: ['*.tmp'],
        password: 'letmein',
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = made.body.data.id as string;
      assert.equal(made.body.data.path, '/priv');
      assert.equal(made.body.data.has_password, true);
      assert.equal(made.body.data.password_inherit, true);
      for (const answer of [made.body, (await t.json('/api/fs-meta/list', { headers: admin })).body]) {
        const text = JSON.stringify(answer);
        assert.ok(!text.includes('letmein') && !/password_hash|"password"/.test(text), text);
      }
      assert.equal(
        (await t.json(`/api/fs-meta/${id}`, { headers: admin })).body.data.header_markdown,
        '# Private',
      );
      // One rule per folder.
      const twice = await rule({ path: '/priv' });
      assert.equal(twice.status, 409);
      assert.ok(twice.body.details.path);
      // The mask (or nothing) keeps the password; "" removes it.
      assert.equal(
        (await put(id, { password: '********', footer_markdown: 'bye' })).body.data.has_password,
        true,
      );
      assert.equal((await put(id, { header_inherit: true })).body.data.has_password, true);
      const cleared = await put(id, { password: '' });
      assert.equal(cleared.body.data.has_password, false);
      assert.equal(cleared.body.data.footer_markdown, 'bye');
      assert.equal(cleared.body.data.header_inherit, true);
      // Only the admin.
      assert.equal((await t.json('/api/fs-meta/list')).status, 401);
      assert.equal((await t.json('/api/fs-meta/list', { headers: member })).status, 403);
      assert.equal(
        (await t.json('/api/fs-meta/create', { method: 'POST', headers: member, json: { path: '/x' } }))
          .status,
        403,
      );
      assert.equal((await t.json(`/api/fs-meta/${id}`, { method: 'DELETE', headers: admin })).status, 200);
      assert.equal((await t.json(`/api/fs-meta/${id}`, { headers: admin })).status, 404);
    });

    it('bad rules are refused with the field at fault', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ path: '/pub/a', hide_patterns: ['a/b'] }, 'hide_patterns.0'],
        [{ path: '/pub/a', hide_patterns: ['x'.repeat(201)] }, 'hide_patterns.0'],
        [{ path: '/pub/a', hide_patterns: Array.from({ length: 101 }, (_, i) => `p${i}`) }, 'hide_patterns'],
        [{ path: '/pub/a', hide_patterns: 'not a list' }, 'hide_patterns'],
        [{ path: '/pub/../x' }, 'path'],
        [{ header_markdown: 'no path' }, 'path'],
        [{ path: '/pub/a', header_inherit: 'yes' }, 'header_inherit'],
      ];
      for (const [json, field] of cases) {
        const res = await t.json('/api/fs-meta/create', {
          method: 'POST',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          json,
        });
        assert.equal(res.status, 400, JSON.stringify(json));
        assert.ok(res.body.details?.[field], `${JSON.stringify(json)} → ${JSON.stringify(res.body)}`);
      }
      assert.equal((await t.json('/api/fs-meta/list', { headers: admin })).body.data.length, 0);
    });

    it('README and hide patterns apply per field: own folder always, below only when inherited', async () => {
      const top = await rule({
        path: '/pub',
        header_markdown: '# Welcome',
        header_inherit: true,
        footer_markdown: 'top footer',
        footer_inherit: false,
        hide_patterns: ['*.secret', '.env', 'hidden-dir'],
        hide_inherit: false,
      });
      const sub = await rule({ path: '/pub/sub', footer_markdown: 'sub footer' });
      try {
        const atTop = await list(member, '/pub');
        assert.equal(atTop.status, 200);
        assert.equal(atTop.body.data.header_markdown, '# Welcome');
        assert.equal(atTop.body.data.footer_markdown, 'top footer');
        assert.deepEqual(names(atTop.body), ['locked', 'readme.txt', 'sub', 'vault']);
        const below = await list(member, '/pub/sub');
        assert.equal(below.body.data.header_markdown, '# Welcome', 'the header inherits');
        assert.equal(below.body.data.footer_markdown, 'sub footer', "the folder's own footer");
        assert.equal(
          (await list(member, '/pub/locked')).body.data.footer_markdown,
          null,
          'the footer does not inherit',
        );
        // Not inherited: the subfolder's names show.
        assert.deepEqual(names(below.body), ['deep.secret', 'plain.txt']);
        const inherit = await put(top.body.data.id, { hide_inherit: true });
        assert.equal(inherit.status, 200);
        assert.deepEqual(names((await list(member, '/pub/sub')).body), ['plain.txt']);
        // The admin sees everything.
        assert.deepEqual(names((await list(admin, '/pub', 'admin')).body), [
          '.env',
          'hidden-dir',
          'locked',
          'notes.secret',
          'readme.txt',
          'sub',
          'vault',
        ]);
      } finally {
        await t.json(`/api/fs-meta/${top.body.data.id}`, { method: 'DELETE', headers: admin });
        await t.json(`/api/fs-meta/${sub.body.data.id}`, { method: 'DELETE', headers: admin });
      }
      // Rules gone: everything shows again (the rules are read again after a change).
      assert.equal((await list(member, '/pub')).body.data.items.length, 7);
    });

    it('a hidden name is 404 by a guessed path on fs routes, WebDAV and zip; the admin reaches it', async () => {
      const made = await rule({
        path: '/pub',
        hide_patterns: ['*.secret', 'hidden-dir'],
        hide_inherit: true,
      });
      try {
        for (const path of [
          '/pub/notes.secret',
          '/pub/hidden-dir',
          '/pub/hidden-dir/inside.txt',
          '/pub/sub/deep.secret',
        ]) {
          assert.equal((await get(member, path)).status, 404, path);
        }
        assert.equal((await list(member, '/pub/hidden-dir')).status, 404);
        const download = await t.request(`/api/user/fs/download?path=${q('/pub/notes.secret')}`, {
          headers: member,
        });
        assert.equal(download.status, 404);
        await download.body?.cancel();
        assert.equal((await get(admin, '/pub/notes.secret')).status, 200);
        // WebDAV: not listed, not readable.
        const dav = basic('mia', 'mia password');
        const propfind = await t.request('/dav/pub/', {
          method: 'PROPFIND',
          headers: { ...dav, Depth: '1' },
        });
        assert.equal(propfind.status, 207);
        const xml = await propfind.text();
        assert.ok(
          xml.includes('readme.txt') && !xml.includes('notes.secret') && !xml.includes('hidden-dir'),
          xml,
        );
        const davGet = await t.request('/dav/pub/notes.secret', { headers: dav });
        assert.equal(davGet.status, 404);
        await davGet.body?.cancel();
        const davDeep = await t.request('/dav/pub/hidden-dir/inside.txt', {
          method: 'PROPFIND',
          headers: { ...dav, Depth: '0' },
        });
        assert.equal(davDeep.status, 404);
        await davDeep.body?.cancel();
        // Zip of the folder: the hidden entries are not in it; a hidden path asked for is 404.
        const zip = await t.request(`/api/user/fs/download-zip?path=${q('/pub/sub')}`, { headers: member });
        assert.equal(zip.status, 200);
        const bytes = Buffer.from(await zip.arrayBuffer());
        assert.ok(bytes.includes('plain.txt') && !bytes.includes('deep.secret'));
        const hiddenZip = await t.request(`/api/user/fs/download-zip?path=${q('/pub/hidden-dir')}`, {
          headers: member,
        });
        assert.equal(hiddenZip.status, 404);
        await hiddenZip.body?.cancel();
      } finally {
        await t.json(`/api/fs-meta/${made.body.data.id}`, { method: 'DELETE', headers: admin });
      }
    });

    it('a copy task takes only what the copier may see: no hidden name, no folder whose password is not given', async () => {
      const hide = await rule({
        path: '/pub',
        hide_patterns: ['*.secret', 'hidden-dir'],
        hide_inherit: true,
      });
      const lock = await rule({ path: '/pub/tree/locked', password: 'open sesame' });
      try {
        for (const path of ['/pub/tree/a.txt', '/pub/tree/x.secret', '/pub/tree/hidden-dir/y.txt']) {
          assert.equal((await write(admin, path, 'tree')).status, 200, path);
        }
        for (const path of ['/pub/tree/locked/z.txt', '/pub/tree/sub/b.txt', '/pub/tree/sub/c.secret']) {
          assert.equal((await write(admin, path, 'tree')).status, 200, path);
        }
        const made = await t.json('/api/admin/users', {
          method: 'POST',
          headers: admin,
          json: {
            username: 'copier',
            password: 'copier password',
            paths: [
              { path: '/pub', access: 'read' },
              { path: '/priv/drop', access: 'write' },
            ],
          },
        });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const login = await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: 'copier', password: 'copier password' },
        });
        const copier = bearer(login.body.data.token as string);
        const started = await t.json('/api/user/fs/tasks', {
          method: 'POST',
          headers: copier,
          json: { kind: 'copy', items: [{ sourcePath: '/pub/tree/', targetPath: '/priv/drop/tree/' }] },
        });
        assert.equal(started.status, 202, JSON.stringify(started.body));
        let task: { status: string } = { status: 'pending' };
        while (task.status === 'pending' || task.status === 'running') {
          const res = await t.json(`/api/user/fs/tasks/${started.body.data.id}`, { headers: copier });
          task = res.body.data;
          if (task.status === 'pending' || task.status === 'running')
            await new Promise((r) => setTimeout(r, 20));
        }
        assert.equal(task.status, 'done', JSON.stringify(task));
        // What the admin finds at the target (no rule hides anything there).
        assert.deepEqual(names((await list(admin, '/priv/drop/tree', 'admin')).body), ['a.txt', 'sub']);
        assert.deepEqual(names((await list(admin, '/priv/drop/tree/sub', 'admin')).body), ['b.txt']);
      } finally {
        await t.json(`/api/fs-meta/${hide.body.data.id}`, { method: 'DELETE', headers: admin });
        await t.json(`/api/fs-meta/${lock.body.data.id}`, { method: 'DELETE', headers: admin });
      }
    });

    it('a folder password asks for a token; a wrong one is 403 and then 429; the token opens that folder only, until the password changes', async () => {
      const locked = await rule({ path: '/pub/locked', password: 'open sesame' });
      const vault = await rule({ path: '/pub/vault', password: 'vault words' });
      try {
        for (const path of ['/pub/locked', '/pub/locked/inner']) {
          const res = await list(member, path);
          assert.equal(res.status, 403, path);
          assert.equal(res.body.error, 'FS_PATH_PASSWORD_REQUIRED');
          assert.equal(res.body.data.path, '/pub/locked');
        }
        assert.equal((await get(member, '/pub/locked/treasure.txt')).status, 403);
        // The folder itself shows in its parent, and the admin needs no token.
        assert.ok(names((await list(member, '/pub')).body).includes('locked'));
        assert.equal((await list(admin, '/pub/locked', 'admin')).status, 200);

        const wrong = await verify('/pub/locked', 'guess');
        assert.equal(wrong.status, 403);
        const right = await verify('/pub/locked', 'open sesame');
        assert.equal(right.status, 200, JSON.stringify(right.body));
        assert.equal(right.body.data.path, '/pub/locked');
        const token = right.body.data.token as string;
        const opened = await list({ ...member, 'X-FS-Path-Token': token }, '/pub/locked/inner');
        assert.equal(opened.status, 200);
        assert.deepEqual(names(opened.body), ['more.txt']);
        const viaQuery = await t.json(
          `/api/user/fs/get?path=${q('/pub/locked/treasure.txt')}&path_token=${token}`,
          {
            headers: member,
          },
        );
        assert.equal(viaQuery.status, 200);
        // Not for another folder.
        assert.equal((await list({ ...member, 'X-FS-Path-Token': token }, '/pub/vault')).status, 403);
        // A zip of the folder above leaves out the folders whose password was not given, and takes
        // in the one the token opens; the protected folder itself still asks for its password.
        const zipOf = async (headers: Record<string, string>, path = '/pub') => {
          const res = await t.request(`/api/user/fs/download-zip?path=${q(path)}`, { headers });
          return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
        };
        const closed = await zipOf(member);
        assert.equal(closed.status, 200);
        assert.ok(closed.bytes.includes('pub/readme.txt'));
        assert.ok(!closed.bytes.includes('treasure.txt') && !closed.bytes.includes('gold.txt'));
        const withToken = await zipOf({ ...member, 'X-FS-Path-Token': token });
        assert.equal(withToken.status, 200);
        assert.ok(withToken.bytes.includes('pub/locked/inner/more.txt'));
        assert.ok(!withToken.bytes.includes('gold.txt'));
        assert.equal((await zipOf(member, '/pub/locked')).status, 403);
        // A folder with no password needs none.
        const open = await verify('/pub/sub', 'anything');
        assert.equal(open.body.data.requiresPassword, false);

        // A new password retires the token.
        await put(locked.body.data.id, { password: 'new words' });
        assert.equal((await list({ ...member, 'X-FS-Path-Token': token }, '/pub/locked')).status, 403);

        // Guesses are limited as share passwords are.
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) statuses.push((await verify('/pub/vault', `guess ${i}`)).status);
        assert.deepEqual(statuses, [403, 403, 403, 403, 403, 429]);
      } finally {
        await t.json(`/api/fs-meta/${locked.body.data.id}`, { method: 'DELETE', headers: admin });
        await t.json(`/api/fs-meta/${vault.body.data.id}`, { method: 'DELETE', headers: admin });
      }
    });

    it('guests: off by default (401); on, they read their folders only, and write only when allowed', async () => {
      assert.equal((await list({}, '/pub')).status, 401);
      const on = await settings({ guest_enabled: true, guest_paths: '/pub' });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      try {
        const root = await list({}, '/');
        assert.equal(root.status, 200);
        assert.deepEqual(names(root.body), ['pub']);
        assert.equal((await list({}, '/pub')).status, 200);
        assert.equal((await get({}, '/pub/readme.txt')).status, 200);
        const download = await t.request(`/api/user/fs/download?path=${q('/pub/readme.txt')}`);
        assert.equal(download.status, 200);
        assert.equal(await download.text(), 'content of /pub/readme.txt');
        const zip = await t.request(`/api/user/fs/download-zip?path=${q('/pub/sub')}`);
        assert.equal(zip.status, 200);
        await zip.body?.cancel();
        // Other mounts: as if absent from the tree.
        assert.equal((await list({}, '/priv')).status, 403);
        assert.equal((await get({}, '/priv/private.txt')).status, 403);
        // No writes, no shares, nothing beyond the fs routes.
        assert.equal((await write({}, '/pub/new.txt')).status, 403);
        assert.equal(
          (await t.json('/api/user/fs/mkdir', { method: 'POST', json: { path: '/pub/d' } })).status,
          403,
        );
        assert.equal(
          (await t.json('/api/user/fs/share', { method: 'POST', json: { path: '/pub/readme.txt' } })).status,
          401,
        );
        assert.equal((await t.json('/api/user/files')).status, 401);
        assert.equal((await t.json('/api/user/cache/clear', { method: 'POST' })).status, 401);
        assert.equal((await t.json('/api/admin/fs/list?path=/pub')).status, 401);
        // A rejected credential is never taken for a guest.
        assert.equal((await list(bearer('not-a-token'), '/pub')).status, 401);
        // Folder rules bind guests too.
        const made = await rule({ path: '/pub', hide_patterns: ['*.secret'] });
        assert.ok(!names((await list({}, '/pub')).body).includes('notes.secret'));
        await t.json(`/api/fs-meta/${made.body.data.id}`, { method: 'DELETE', headers: admin });

        // The listing says whether the caller may write there (the explorer shows uploads by it).
        assert.equal((await list({}, '/pub')).body.data.writable, false);
        assert.equal((await list(admin, '/pub', 'admin')).body.data.writable, true);
        assert.equal((await list({}, '/')).body.data.writable, false);
        await settings({ guest_write: true });
        assert.equal((await list({}, '/pub')).body.data.writable, true);
        assert.equal((await write({}, '/pub/by-guest.txt', 'hello')).status, 200);
        assert.equal((await write({}, '/priv/by-guest.txt', 'hello')).status, 403);
      } finally {
        await settings({ guest_enabled: false, guest_write: false });
      }
      assert.equal((await list({}, '/pub')).status, 401);
    });
  });
}
