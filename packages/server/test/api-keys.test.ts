/** API keys over HTTP: management by the admin, the key checking itself, expiry and last use. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`API keys (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
    });
    after(() => t.close());

    const create = (body: unknown) =>
      t.json('/api/admin/api-keys', { method: 'POST', headers: admin, json: body });

    describe('who may manage keys', () => {
      const routes: Array<[string, string]> = [
        ['GET', '/api/admin/api-keys'],
        ['POST', '/api/admin/api-keys'],
        ['PUT', '/api/admin/api-keys/some-id'],
        ['DELETE', '/api/admin/api-keys/some-id'],
      ];
      const withBody = (method: string) =>
        method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined;
      it('answers 401 without credentials on every management route', async () => {
        for (const [method, path] of routes) {
          const res = await t.json(path, { method, json: withBody(method) });
          assert.equal(res.status, 401, `${method} ${path}`);
          assert.equal(res.body.error, 'UNAUTHENTICATED');
        }
      });
      it('answers 403 to an API key, even one with every permission', async () => {
        const { key } = await t.createKey({
          name: 'all-perms',
          text_permission: true,
          file_permission: true,
          mount_permission: true,
        });
        for (const [method, path] of routes) {
          const res = await t.json(path, { method, headers: apiKey(key), json: withBody(method) });
          assert.equal(res.status, 403, `${method} ${path}`);
          assert.equal(res.body.error, 'FORBIDDEN');
        }
      });
    });

    describe('POST /api/admin/api-keys', () => {
      it('returns a generated key of ≥ 128 bits once; lists show only a masked form', async () => {
        const res = await create({
          name: 'uploader',
          text_permission: true,
          file_permission: true,
          basic_path: '/team//docs/',
          expires_at: 'never',
        });
        assert.equal(res.status, 201);
        assert.equal(res.body.code, 201);
        const created = res.body.data;
        assert.match(created.key, /^[A-Za-z0-9]{32}$/);
        assert.equal(created.basic_path, '/team/docs');
        assert.equal(created.expires_at, '9999-12-31T23:59:59.000Z');
        assert.deepEqual(
          [created.text_permission, created.file_permission, created.mount_permission],
          [true, true, false],
        );

        const list = await t.json('/api/admin/api-keys', { headers: admin });
        assert.equal(list.status, 200);
        const listed = list.body.data.find((k: { id: string }) => k.id === created.id);
        assert.ok(listed);
        assert.equal(listed.key, undefined, 'the key is never in a list');
        assert.equal(listed.key_masked, created.key.slice(0, 4) + '...');
        assert.equal(listed.last_used, null);
        assert.ok(!JSON.stringify(list.body).includes(created.key));

        const row = await t.database.db.kysely
          .selectFrom('api_keys')
          .selectAll()
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow();
        assert.ok(!Object.values(row).some((v) => typeof v === 'string' && v.includes(created.key)));
      });

      it('accepts a custom key of letters, digits, _ and - with at least 16 characters', async () => {
        const custom = 'my_custom-key_0123';
        const res = await create({
          name: 'custom',
          custom_key: custom,
          mount_permission: true,
          expires_at: null,
        });
        assert.equal(res.status, 201);
        assert.equal(res.body.data.key, custom);
        const check = await t.json('/api/test/api-key', { headers: apiKey(custom) });
        assert.equal(check.status, 200);
        assert.deepEqual(check.body.data.permissions, { text: false, file: false, mount: true });

        const dup = await create({ name: 'custom-2', custom_key: custom });
        assert.equal(dup.status, 409);
        assert.equal(dup.body.message, '密钥已存在');
      });

      it('refuses bad input with field details', async () => {
        const cases: Array<[unknown, string, string]> = [
          [{ name: '' }, 'name', '密钥名称不能为空'],
          [{}, 'name', '密钥名称不能为空'],
          [{ name: 'short-key', custom_key: 'abc123' }, 'custom_key', '自定义密钥至少需要 16 个字符'],
          [
            { name: 'bad-chars', custom_key: 'has spaces in it!!' },
            'custom_key',
            '密钥只能包含字母、数字、横杠和下划线',
          ],
          [{ name: 'bad-date', expires_at: 'tomorrow' }, 'expires_at', '无效的过期时间'],
          [{ name: 'past-date', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at', '无效的过期时间'],
          [{ name: 'escape', basic_path: '/../etc' }, 'basic_path', '路径无效'],
        ];
        for (const [body, field, message] of cases) {
          const res = await create(body);
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.equal(res.body.error, 'VALIDATION_FAILED');
          assert.equal(res.body.details?.[field], message, JSON.stringify(res.body));
        }
      });

      it('refuses a name that is taken (409)', async () => {
        assert.equal((await create({ name: 'twice' })).status, 201);
        const again = await create({ name: 'twice' });
        assert.equal(again.status, 409);
        assert.equal(again.body.message, '密钥名称已存在');
      });

      it('defaults to expiring after one day and to the base path /', async () => {
        const res = await create({ name: 'defaults' });
        assert.equal(res.body.data.basic_path, '/');
        assert.equal(
          res.body.data.expires_at,
          new Date(t.clock.now().getTime() + 24 * 3600_000).toISOString(),
        );
      });
    });

    describe('GET /api/test/api-key', () => {
      it('answers permissions and key_info for a valid key', async () => {
        const { id, key } = await t.createKey({ name: 'reader', text_permission: true, basic_path: '/a/b' });
        const res = await t.json('/api/test/api-key', { headers: apiKey(key) });
        assert.equal(res.status, 200);
        assert.equal(res.body.success, true);
        assert.deepEqual(res.body.data.permissions, { text: true, file: false, mount: false });
        assert.deepEqual(res.body.data.key_info, { id, name: 'reader', basic_path: '/a/b' });
      });

      it('answers 401 for an unknown key or no key, 403 for an admin token', async () => {
        assert.equal((await t.json('/api/test/api-key', { headers: apiKey('nope'.repeat(8)) })).status, 401);
        assert.equal((await t.json('/api/test/api-key')).status, 401);
        assert.equal((await t.json('/api/test/api-key', { headers: admin })).status, 403);
      });

      it('stops accepting a key once it has expired', async () => {
        const expires = new Date(t.clock.now().getTime() + 3600_000).toISOString();
        const { key } = await t.createKey({
          name: 'short-lived',
          text_permission: true,
          expires_at: expires,
        });
        assert.equal((await t.json('/api/test/api-key', { headers: apiKey(key) })).status, 200);
        t.clock.advance(3600_000);
        const res = await t.json('/api/test/api-key', { headers: apiKey(key) });
        assert.equal(res.status, 401);
        assert.equal(res.body.error, 'UNAUTHENTICATED');
        admin = bearer(await t.adminToken()); // the admin token may have aged too
      });

      it('writes last_used at most once a minute', async () => {
        const { id, key } = await t.createKey({ name: 'busy', file_permission: true });
        const lastUsed = async () =>
          (
            await t.database.db.kysely
              .selectFrom('api_keys')
              .select('last_used')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).last_used;
        await t.json('/api/test/api-key', { headers: apiKey(key) });
        const first = await lastUsed();
        assert.equal(first, t.clock.now().toISOString());
        t.clock.advance(30_000);
        await t.json('/api/test/api-key', { headers: apiKey(key) });
        assert.equal(await lastUsed(), first, 'not rewritten within the minute');
        t.clock.advance(31_000);
        await t.json('/api/test/api-key', { headers: apiKey(key) });
        assert.equal(await lastUsed(), t.clock.now().toISOString());
        admin = bearer(await t.adminToken());
      });
    });

    describe('PUT and DELETE /api/admin/api-keys/:id', () => {
      it('changes only the fields it is sent', async () => {
        const { id, key } = await t.createKey({ name: 'editable', text_permission: true, basic_path: '/x' });
        const res = await t.json(`/api/admin/api-keys/${id}`, {
          method: 'PUT',
          headers: admin,
          json: { mount_permission: true, basic_path: 'y/z/' },
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.data.name, 'editable');
        assert.equal(res.body.data.text_permission, true);
        assert.equal(res.body.data.mount_permission, true);
        assert.equal(res.body.data.basic_path, '/y/z');
        const check = await t.json('/api/test/api-key', { headers: apiKey(key) });
        assert.deepEqual(check.body.data.permissions, { text: true, file: false, mount: true });
        assert.equal(check.body.data.key_info.basic_path, '/y/z');
      });

      it('refuses an empty update, a taken name and an unknown id', async () => {
        const { id } = await t.createKey({ name: 'rename-me' });
        await t.createKey({ name: 'occupied' });
        assert.equal(
          (await t.json(`/api/admin/api-keys/${id}`, { method: 'PUT', headers: admin, json: {} })).status,
          400,
        );
        const taken = await t.json(`/api/admin/api-keys/${id}`, {
          method: 'PUT',
          headers: admin,
          json: { name: 'occupied' },
        });
        assert.equal(taken.status, 409);
        const missing = await t.json('/api/admin/api-keys/no-such-id', {
          method: 'PUT',
          headers: admin,
          json: { name: 'n' },
        });
        assert.equal(missing.status, 404);
        assert.equal(missing.body.error, 'NOT_FOUND');
      });

      it('can make a key never expire, or expire it', async () => {
        const { id, key } = await t.createKey({ name: 'lifetime' });
        const never = await t.json(`/api/admin/api-keys/${id}`, {
          method: 'PUT',
          headers: admin,
          json: { expires_at: 'never' },
        });
        assert.equal(never.body.data.expires_at, '9999-12-31T23:59:59.000Z');
        const soon = new Date(t.clock.now().getTime() + 60_000).toISOString();
        await t.json(`/api/admin/api-keys/${id}`, {
          method: 'PUT',
          headers: admin,
          json: { expires_at: soon },
        });
        t.clock.advance(61_000);
        assert.equal((await t.json('/api/test/api-key', { headers: apiKey(key) })).status, 401);
        admin = bearer(await t.adminToken());
      });

      it('deletes a key, which then stops working; deleting again is 404', async () => {
        const { id, key } = await t.createKey({ name: 'doomed', text_permission: true });
        const res = await t.json(`/api/admin/api-keys/${id}`, { method: 'DELETE', headers: admin });
        assert.equal(res.status, 200);
        assert.equal((await t.json('/api/test/api-key', { headers: apiKey(key) })).status, 401);
        assert.equal(
          (await t.json(`/api/admin/api-keys/${id}`, { method: 'DELETE', headers: admin })).status,
          404,
        );
      });
    });
  });
}
