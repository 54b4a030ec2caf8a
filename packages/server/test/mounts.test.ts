/**
 * Mount management over HTTP (/api/admin/mounts, /api/user/mounts) on both databases: who may call
 * each route, every input rule with its Chinese and English message, the unique path (409), the
 * answer's fields (a mount on local disk says "Local", on S3 "S3"), list order, what an API key sees
 * (the way to its base path and what lies inside it), that changing or deleting a mount forgets its
 * cached listings and never deletes a file, and that a storage config mounts use cannot be deleted.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Principal } from '@cubby/shared';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, fileRow, type TestApp } from './support/test-app.ts';

const EN = { 'X-Cubby-Lang': 'en' };
const ADMIN: Principal = { type: 'admin', id: 'admin-1', username: 'admin' };

for (const dialect of DIALECTS) {
  describe(`mounts (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let adminId: string;
    let defaultConfigId: string;
    let mountKey: string;
    let fileKey: string;

    before(async () => {
      t = await createTestApp(dialect);
      const token = await t.adminToken();
      admin = bearer(token);
      adminId = (await t.database.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
      defaultConfigId = (await t.services.storageConfigs.repo.findDefault())!.id;
      mountKey = (await t.createKey({ name: 'team', mount_permission: true, basic_path: '/team' })).key;
      fileKey = (await t.createKey({ name: 'files', file_permission: true, text_permission: true })).key;
    });
    after(() => t.close());

    // Each test starts without mounts and with an empty directory cache.
    beforeEach(async () => {
      await t.database.db.kysely.deleteFrom('mounts').execute();
      await t.services.vfs.clearCache();
    });

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
    type Answer = { status: number; body: any };
    const create = (
      body: Record<string, unknown>,
      headers: Record<string, string> = admin,
    ): Promise<Answer> => t.json('/api/admin/mounts', { method: 'POST', headers, json: body });
    const update = (id: string, body: unknown, headers: Record<string, string> = admin): Promise<Answer> =>
      t.json(`/api/admin/mounts/${id}`, { method: 'PUT', headers, json: body });
    const remove = (id: string, headers: Record<string, string> = admin): Promise<Answer> =>
      t.json(`/api/admin/mounts/${id}`, { method: 'DELETE', headers });
    const mount = (patch: Record<string, unknown> = {}) => ({
      name: 'Photos',
      storage_type: 'S3',
      storage_config_id: defaultConfigId,
      mount_path: `/m-${randomUUID().slice(0, 8)}`,
      ...patch,
    });
    const made = async (patch: Record<string, unknown> = {}) => {
      const res = await create(mount(patch));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data as { id: string; mount_path: string; name: string };
    };
    const localConfig = async () => {
      const root = path.join(t.database.dataDir, `root-${randomUUID()}`);
      const res = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: { name: `disk-${randomUUID().slice(0, 8)}`, provider_type: 'Local', root_path: root },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { id: res.body.data.id as string, root };
    };

    describe('who may call', () => {
      const adminRoutes: Array<[string, string]> = [
        ['GET', '/api/admin/mounts'],
        ['POST', '/api/admin/mounts'],
        ['GET', '/api/admin/mounts/some-id'],
        ['PUT', '/api/admin/mounts/some-id'],
        ['DELETE', '/api/admin/mounts/some-id'],
      ];
      const userRoutes: Array<[string, string]> = [
        ['GET', '/api/user/mounts'],
        ['GET', '/api/user/mounts/some-id'],
      ];
      const body = (method: string) => (method === 'POST' || method === 'PUT' ? mount() : undefined);

      it('answers 401 without credentials on every route', async () => {
        for (const [method, route] of [...adminRoutes, ...userRoutes]) {
          const res = await t.json(route, { method, json: body(method) });
          assert.equal(res.status, 401, `${method} ${route}`);
          assert.equal(res.body.error, 'UNAUTHENTICATED');
        }
      });

      it('refuses every management route to API keys, even one with the mount permission', async () => {
        const existing = await made();
        for (const key of [mountKey, fileKey]) {
          for (const [method, route] of adminRoutes) {
            const res = await t.json(route.replace('some-id', existing.id), {
              method,
              headers: apiKey(key),
              json: body(method),
            });
            assert.equal(res.status, 403, `${method} ${route}`);
            assert.equal(res.body.message, '需要管理员权限');
          }
        }
        // Nothing changed.
        const after = await t.json(`/api/admin/mounts/${existing.id}`, { headers: admin });
        assert.equal(after.body.data.name, 'Photos');
      });

      it('needs the mount permission on the user routes', async () => {
        for (const [method, route] of userRoutes) {
          const res = await t.json(route, { method, headers: apiKey(fileKey) });
          assert.equal(res.status, 403, `${method} ${route}`);
          assert.equal(res.body.message, '需要以下权限之一: mount');
        }
      });

      it('lets an admin call the user routes (every active mount; no crash as in the reference)', async () => {
        const a = await made();
        await made({ is_active: false });
        const list = await t.json('/api/user/mounts', { headers: admin });
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.data.map((m: { id: string }) => m.id),
          [a.id],
        );
        assert.equal((await t.json(`/api/user/mounts/${a.id}`, { headers: admin })).status, 200);
      });
    });

    describe('create', () => {
      it('answers 201 with the mount: boolean is_active, ISO times, admin creator, Local from its config', async () => {
        const res = await create({
          name: '  Team files ',
          storage_type: 'S3',
          storage_config_id: defaultConfigId,
          mount_path: '/team-files',
        });
        assert.equal(res.status, 201);
        assert.equal(res.body.code, 201);
        assert.equal(res.body.success, true);
        assert.equal(res.body.message, '挂载点创建成功');
        const m = res.body.data;
        assert.equal(typeof m.id, 'string');
        assert.equal(m.name, 'Team files');
        assert.equal(m.storage_type, 'Local', 'what the config is, not what the client said');
        assert.equal(m.storage_config_id, defaultConfigId);
        assert.equal(m.storage_config_name, 'Local storage');
        assert.equal(m.mount_path, '/team-files');
        assert.equal(m.remark, null);
        assert.equal(m.is_active, true);
        assert.equal(m.sort_order, 0);
        assert.equal(m.cache_ttl, 300);
        // CloudPaste's form: a bare admin id (its client shows any other form verbatim).
        assert.equal(m.created_by, adminId);
        assert.equal(m.created_at, t.clock.now().toISOString());
        assert.equal(m.updated_at, m.created_at);
        assert.equal(m.last_used, null);
      });

      it('takes every optional field; 0 seconds of cache stays 0 (no cache); storage_type may be left out', async () => {
        const res = await create({
          name: 'Archive',
          storage_config_id: defaultConfigId,
          mount_path: '/archive',
          remark: 'old things',
          is_active: false,
          sort_order: -5,
          cache_ttl: 0,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        const m = res.body.data;
        assert.deepEqual([m.remark, m.is_active, m.sort_order, m.cache_ttl], ['old things', false, -5, 0]);
        const row = await t.database.db.kysely
          .selectFrom('mounts')
          .selectAll()
          .where('id', '=', m.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.cache_ttl, 0);
        assert.equal(row.is_active, 0);
        // 0/1 flags (some clients) and "Local" are accepted too; an empty remark is no remark.
        const flags = await create(mount({ is_active: 1, storage_type: 'Local', remark: '' }));
        assert.equal(flags.status, 201, JSON.stringify(flags.body));
        assert.equal(flags.body.data.is_active, true);
        assert.equal(flags.body.data.remark, null);
      });

      it('puts a mount on an S3 config and says so', async () => {
        const s3 = await t.json('/api/s3-configs', {
          method: 'POST',
          headers: admin,
          json: {
            name: 'Bucket',
            provider_type: 'Other S3 Compatible',
            endpoint_url: 'http://127.0.0.1:9',
            bucket_name: 'cubby-bucket',
            region: 'us-east-1',
            access_key_id: 'AKIAIOSFODNN7EXAMPLE',
            secret_access_key: 'secret-secret-secret',
            path_style: true,
          },
        });
        assert.equal(s3.status, 201, JSON.stringify(s3.body));
        const m = await made({ storage_config_id: s3.body.data.id, storage_type: undefined });
        const got = await t.json(`/api/admin/mounts/${m.id}`, { headers: admin });
        assert.equal(got.body.data.storage_type, 'S3');
        assert.equal(got.body.data.storage_config_name, 'Bucket');
        await remove(m.id);
        assert.equal(
          (await t.json(`/api/s3-configs/${s3.body.data.id}`, { method: 'DELETE', headers: admin })).status,
          200,
        );
      });

      it('accepts / and paths in Chinese', async () => {
        for (const mount_path of ['/', '/中文路径', '/photos/2026_a-b', '/binary', '/apis']) {
          const res = await create(mount({ mount_path }));
          assert.equal(res.status, 201, `${mount_path}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.data.mount_path, mount_path);
        }
      });

      type Rule = [what: string, patch: Record<string, unknown>, field: string, zh: string, en: string];
      /** Reserved paths: the message names the prefix hit (lower case, as the list has it). */
      const reservedRules = (kind: 'system' | 'app', zhKind: string, paths: string[]): Rule[] =>
        paths.map((mount_path) => {
          const prefix = `/${mount_path.split('/')[1]!.toLowerCase()}`;
          return [
            `the ${kind} path ${mount_path}`,
            { mount_path },
            'mount_path',
            `不允许使用${zhKind}保留路径: ${prefix}`,
            `The mount path may not use the ${kind} path ${prefix}`,
          ];
        });
      // [what, body patch, field, Chinese message, English message]
      const rules: Rule[] = [
        ['no name', { name: undefined }, 'name', '缺少必填字段: name', 'The mount name is required'],
        ['a blank name', { name: '   ' }, 'name', '缺少必填字段: name', 'The mount name is required'],
        [
          'a name of 51 characters',
          { name: 'n'.repeat(51) },
          'name',
          '挂载点名称长度必须在1-50个字符之间',
          'The mount name may have at most 50 characters',
        ],
        [
          'no path',
          { mount_path: undefined },
          'mount_path',
          '挂载路径不能为空',
          'The mount path is required',
        ],
        ['an empty path', { mount_path: '' }, 'mount_path', '挂载路径不能为空', 'The mount path is required'],
        [
          'no leading slash',
          { mount_path: 'photos' },
          'mount_path',
          '挂载路径必须以斜杠(/)开头',
          'The mount path must start with a slash (/)',
        ],
        [
          'a trailing slash',
          { mount_path: '/photos/' },
          'mount_path',
          '挂载路径不应以斜杠结尾',
          'The mount path must not end with a slash',
        ],
        [
          'a double slash',
          { mount_path: '/a//b' },
          'mount_path',
          '挂载路径不能包含连续的斜杠',
          'The mount path must not contain consecutive slashes',
        ],
        ...['/a b', '/a.b', '/a?b', '/a%20b', '/a\\b', '/a/../b', '/a/./b', '/a\u0001'].map(
          (mount_path): Rule => [
            `the character(s) in ${JSON.stringify(mount_path)}`,
            { mount_path },
            'mount_path',
            '挂载路径只能包含字母、数字、中文、下划线、连字符和斜杠，不允许其他特殊字符',
            'The mount path may only contain letters, digits, Chinese characters, underscores, hyphens and slashes',
          ],
        ),
        [
          'a path of 101 characters',
          { mount_path: `/${'a'.repeat(100)}` },
          'mount_path',
          '挂载路径不能超过100个字符',
          'The mount path may have at most 100 characters',
        ],
        ...reservedRules('system', '系统', ['/bin', '/etc/nginx', '/var', '/TMP/x']),
        ...reservedRules('app', '应用', ['/api', '/admin/x', '/upload', '/assets']),
        [
          'no storage config',
          { storage_config_id: undefined },
          'storage_config_id',
          '缺少必填字段: storage_config_id',
          'Choose the storage configuration',
        ],
        [
          'an unknown storage config',
          { storage_config_id: 'no-such-config' },
          'storage_config_id',
          '指定的S3配置不存在',
          'The chosen storage configuration does not exist',
        ],
        [
          'an unknown storage type',
          { storage_type: 'GOPHER' },
          'storage_type',
          '存储类型只能是 S3、Local、WebDAV、SFTP 或 FTP（实际类型由存储配置决定）',
          'The storage type must be S3, Local, WebDAV, SFTP or FTP (the storage configuration decides what it really is)',
        ],
        ...[-1, 86_401, 1.5, '300', null].map((cache_ttl): Rule => [
          `a cache time of ${JSON.stringify(cache_ttl)}`,
          { cache_ttl },
          'cache_ttl',
          '缓存时间必须是 0 到 86400 之间的整数（秒）',
          'The cache time must be a whole number of seconds from 0 to 86400',
        ]),
        ...[1.5, 1_000_001, '1'].map((sort_order): Rule => [
          `a sort order of ${JSON.stringify(sort_order)}`,
          { sort_order },
          'sort_order',
          '排序顺序必须是 -1000000 到 1000000 之间的整数',
          'The sort order must be a whole number from -1000000 to 1000000',
        ]),
        [
          'an is_active that is not a flag',
          { is_active: 'yes' },
          'is_active',
          '必须是 true/false 或 1/0',
          'Must be true/false or 1/0',
        ],
        [
          'a remark of 501 characters',
          { remark: 'r'.repeat(501) },
          'remark',
          '备注最多 500 个字符',
          'The remark may have at most 500 characters',
        ],
      ];
      for (const [what, patch, field, zh, en] of rules) {
        it(`refuses ${what} (400, both languages), on create and on update`, async () => {
          const body = mount(patch);
          const zhAnswer = await create(body);
          assert.equal(zhAnswer.status, 400, JSON.stringify(zhAnswer.body));
          assert.equal(zhAnswer.body.success, false);
          assert.equal(zhAnswer.body.message, zh);
          assert.equal(zhAnswer.body.details?.[field], zh);
          const enAnswer = await create(body, { ...admin, ...EN });
          assert.equal(enAnswer.body.message, en);
          assert.equal(enAnswer.body.details?.[field], en);
          const stored = await t.database.db.kysely.selectFrom('mounts').selectAll().execute();
          assert.deepEqual(stored, [], 'nothing was stored');
          // An update is checked by the same rules (a field left out is simply not changed).
          const fieldPatch = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
          if (Object.keys(fieldPatch).length > 0) {
            const existing = await made();
            const before = await t.database.db.kysely.selectFrom('mounts').selectAll().execute();
            const updated = await update(existing.id, fieldPatch);
            assert.equal(updated.status, 400, JSON.stringify(updated.body));
            assert.equal(updated.body.message, zh);
            const after = await t.database.db.kysely.selectFrom('mounts').selectAll().execute();
            assert.deepEqual(after, before, 'nothing was changed');
          }
        });
      }

      it('accepts the limits themselves: 50-character name, 100-character path, 0 and 86400 seconds', async () => {
        const res = await create(
          mount({ name: 'n'.repeat(50), mount_path: `/${'a'.repeat(99)}`, cache_ttl: 86_400 }),
        );
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal((await create(mount({ cache_ttl: 0 }))).status, 201);
      });

      it('refuses a path another mount has (409), whatever else differs', async () => {
        await made({ mount_path: '/shared' });
        const res = await create(mount({ mount_path: '/shared', name: 'Other' }));
        assert.equal(res.status, 409);
        assert.equal(res.body.error, 'CONFLICT');
        assert.equal(res.body.message, '挂载路径已被使用');
        assert.equal(res.body.details.mount_path, '挂载路径已被使用');
        assert.equal(
          (await create(mount({ mount_path: '/shared' }), { ...admin, ...EN })).body.message,
          'Another mount already uses this path',
        );
      });

      it('keeps paths unique when two creates race (one 201, one 409)', async () => {
        const results = await Promise.all(
          Array.from({ length: 4 }, () => create(mount({ mount_path: '/raced' }))),
        );
        assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409]);
      });
    });

    describe('list, get, update, delete', () => {
      it('lists every mount, active or not, by sort order then name', async () => {
        await made({ name: 'b', sort_order: 2 });
        await made({ name: 'z', sort_order: 1 });
        await made({ name: 'a', sort_order: 1, is_active: false });
        await made({ name: 'c', sort_order: -1 });
        const res = await t.json('/api/admin/mounts', { headers: admin });
        assert.equal(res.status, 200);
        assert.equal(res.body.message, '获取挂载点列表成功');
        assert.deepEqual(
          res.body.data.map((m: { name: string }) => m.name),
          ['c', 'a', 'z', 'b'],
        );
        assert.equal(res.body.data[1].is_active, false);
      });

      it('gets one mount; 404 for an unknown id', async () => {
        const m = await made();
        const res = await t.json(`/api/admin/mounts/${m.id}`, { headers: admin });
        assert.equal(res.status, 200);
        assert.equal(res.body.message, '获取挂载点成功');
        assert.equal(res.body.data.id, m.id);
        const missing = await t.json('/api/admin/mounts/nope', { headers: admin });
        assert.equal(missing.status, 404);
        assert.equal(missing.body.message, '挂载点不存在');
      });

      it('changes only the fields sent; 0 seconds stays 0; an empty remark clears it', async () => {
        const m = await made({ remark: 'note', sort_order: 3, cache_ttl: 60 });
        t.clock.advance(5_000);
        const res = await update(m.id, { name: 'Renamed', cache_ttl: 0, remark: '', is_active: false });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.message, '挂载点已更新');
        const d = res.body.data;
        assert.deepEqual(
          [d.name, d.cache_ttl, d.remark, d.is_active, d.sort_order, d.mount_path],
          ['Renamed', 0, null, false, 3, m.mount_path],
        );
        assert.equal(d.updated_at, t.clock.now().toISOString());
        assert.notEqual(d.updated_at, d.created_at);
        // What CloudPaste's form sends back: every field, its own path included.
        const again = await update(m.id, { ...d, storage_type: 'S3', is_active: true });
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.equal(again.body.data.is_active, true);
      });

      it('refuses a path another mount has, and an unknown config, on update', async () => {
        const a = await made({ mount_path: '/first' });
        const b = await made({ mount_path: '/second' });
        const taken = await update(b.id, { mount_path: '/first' });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.message, '挂载路径已被使用');
        const config = await update(a.id, { storage_config_id: 'missing' });
        assert.equal(config.status, 400);
        assert.equal(config.body.message, '指定的S3配置不存在');
        const moved = await update(b.id, { mount_path: '/third' });
        assert.equal(moved.body.data.mount_path, '/third');
        assert.equal((await update(a.id, { mount_path: '/second' })).status, 200, 'the old path is free');
      });

      it('answers 404 for updating or deleting an unknown mount', async () => {
        const up = await update('nope', { name: 'x' });
        assert.equal(up.status, 404);
        assert.equal(up.body.message, '挂载点不存在或无权限修改');
        const del = await remove('nope');
        assert.equal(del.status, 404);
        assert.equal(del.body.message, '挂载点不存在或无权限删除');
      });

      it('deletes a mount (once)', async () => {
        const m = await made();
        const res = await remove(m.id);
        assert.equal(res.status, 200);
        assert.equal(res.body.message, '挂载点删除成功');
        assert.equal((await t.json(`/api/admin/mounts/${m.id}`, { headers: admin })).status, 404);
        assert.equal((await remove(m.id)).status, 404);
      });

      it('never deletes a file: deactivating and deleting leave the storage as it was', async () => {
        const { id, root } = await localConfig();
        const m = await made({ storage_config_id: id, mount_path: '/keep' });
        await t.services.vfs.write(ADMIN, '/keep/dir/report.txt', new Blob(['kept']).stream());
        const file = path.join(root, 'dir', 'report.txt');
        assert.equal(fs.readFileSync(file, 'utf8'), 'kept');
        assert.equal((await update(m.id, { is_active: false })).status, 200);
        await assert.rejects(t.services.vfs.list(ADMIN, '/keep'), { status: 404 });
        assert.equal(fs.readFileSync(file, 'utf8'), 'kept');
        assert.equal((await remove(m.id)).status, 200);
        assert.equal(fs.readFileSync(file, 'utf8'), 'kept');
      });
    });

    describe('the directory cache', () => {
      const names = async (p: string) => (await t.services.vfs.list(ADMIN, p)).items.map((i) => i.name);

      it('is forgotten for the mount when it changes', async () => {
        const { id, root } = await localConfig();
        const m = await made({ storage_config_id: id, mount_path: '/cached', cache_ttl: 3600 });
        const other = await made({ storage_config_id: id, mount_path: '/other', cache_ttl: 3600 });
        assert.deepEqual(await names('/cached'), []);
        assert.deepEqual(await names('/other'), []);
        // A file that arrives behind the server's back is not seen while the listing is cached…
        fs.writeFileSync(path.join(root, 'new.txt'), 'x');
        assert.deepEqual(await names('/cached'), []);
        // …until the mount changes.
        assert.equal((await update(m.id, { remark: 'touched' })).status, 200);
        assert.deepEqual(await names('/cached'), ['new.txt']);
        // Only that mount's listings went.
        assert.deepEqual(await names('/other'), []);
        assert.equal((await update(other.id, { sort_order: 1 })).status, 200);
        assert.deepEqual(await names('/other'), ['new.txt']);
      });

      it('is forgotten for the mount when it is deleted', async () => {
        const { id } = await localConfig();
        const m = await made({ storage_config_id: id, mount_path: '/gone', cache_ttl: 3600 });
        await names('/gone');
        assert.equal(t.services.vfs.cacheStats().cacheSize, 1);
        assert.equal((await remove(m.id)).status, 200);
        assert.equal(t.services.vfs.cacheStats().cacheSize, 0);
      });
    });

    describe('what an API key sees', () => {
      it("lists the active mounts on the way to or inside the key's base path (/team)", async () => {
        const root = await made({ mount_path: '/', name: 'root' });
        const team = await made({ mount_path: '/team', name: 'team' });
        const inside = await made({ mount_path: '/team/x', name: 'team-x' });
        await made({ mount_path: '/team/off', name: 'off', is_active: false });
        await made({ mount_path: '/other', name: 'other' });
        await made({ mount_path: '/teams', name: 'teams' });
        const res = await t.json('/api/user/mounts', { headers: apiKey(mountKey) });
        assert.equal(res.status, 200);
        assert.equal(res.body.message, '获取挂载点列表成功');
        assert.deepEqual(
          res.body.data.map((m: { id: string }) => m.id),
          [root.id, team.id, inside.id],
        );
      });

      it('gets a mount it sees (the one above its base path too); 403 off its way; 404 inactive or unknown', async () => {
        const root = await made({ mount_path: '/' });
        const inside = await made({ mount_path: '/team/x' });
        const other = await made({ mount_path: '/other' });
        const off = await made({ mount_path: '/team/off', is_active: false });
        const get = (id: string, headers: Record<string, string> = {}) =>
          t.json(`/api/user/mounts/${id}`, { headers: { ...apiKey(mountKey), ...headers } });
        const ok = await get(inside.id);
        assert.equal(ok.status, 200);
        assert.equal(ok.body.message, '获取挂载点成功');
        assert.equal(ok.body.data.mount_path, '/team/x');
        // The reference answers 403 here although its list shows the mount (docs/compatibility.md §5).
        assert.equal((await get(root.id)).status, 200);
        const denied = await get(other.id);
        assert.equal(denied.status, 403);
        assert.equal(denied.body.message, '没有权限访问此挂载点');
        assert.equal((await get(other.id, EN)).body.message, 'This mount is outside what your key may reach');
        const inactive = await get(off.id);
        assert.equal(inactive.status, 404);
        assert.equal(inactive.body.message, '挂载点不存在');
        assert.equal((await get('nope')).status, 404);
      });

      it('a key deeper down sees the mounts on its way; a key at / sees every active one', async () => {
        const root = await made({ mount_path: '/' });
        const team = await made({ mount_path: '/team' });
        const deep = await made({ mount_path: '/team/x' });
        await made({ mount_path: '/team/y' });
        await made({ mount_path: '/off', is_active: false });
        const deepKey = (
          await t.createKey({ name: 'deep', mount_permission: true, basic_path: '/team/x/sub' })
        ).key;
        const everything = (await t.createKey({ name: 'all', mount_permission: true })).key;
        const ids = async (key: string) =>
          (await t.json('/api/user/mounts', { headers: apiKey(key) })).body.data.map(
            (m: { id: string }) => m.id,
          );
        assert.deepEqual(await ids(deepKey), [root.id, team.id, deep.id]);
        assert.equal((await ids(everything)).length, 4);
      });
    });

    describe('deleting a storage config that mounts use', () => {
      it('is refused with 409 naming the mounts, before the files it holds', async () => {
        const { id } = await localConfig();
        await made({ storage_config_id: id, mount_path: '/docs', name: 'Docs' });
        await made({ storage_config_id: id, mount_path: '/photos', name: 'Photos' });
        await t.database.db.kysely
          .insertInto('files')
          .values(fileRow({ storage_config_id: id }))
          .execute();
        const res = await t.json(`/api/s3-configs/${id}`, { method: 'DELETE', headers: admin });
        assert.equal(res.status, 409);
        assert.equal(res.body.error, 'CONFLICT');
        assert.equal(res.body.message, '有挂载点正在使用此配置，无法删除：Docs (/docs), Photos (/photos)');
        assert.deepEqual(
          res.body.data.mounts.map((m: { name: string; mount_path: string }) => [m.name, m.mount_path]),
          [
            ['Docs', '/docs'],
            ['Photos', '/photos'],
          ],
        );
        const en = await t.json(`/api/s3-configs/${id}`, { method: 'DELETE', headers: { ...admin, ...EN } });
        assert.equal(
          en.body.message,
          'This configuration cannot be deleted because mounts use it: Docs (/docs), Photos (/photos)',
        );
        // Without the mounts, the files' 409 is what is left.
        await t.database.db.kysely.deleteFrom('mounts').execute();
        const files = await t.json(`/api/s3-configs/${id}`, { method: 'DELETE', headers: admin });
        assert.equal(files.status, 409);
        assert.match(files.body.message, /有文件正在使用此配置/);
        assert.equal(files.body.data, null);
      });

      it('is allowed once the mounts are gone', async () => {
        const { id } = await localConfig();
        const m = await made({ storage_config_id: id });
        assert.equal(
          (await t.json(`/api/s3-configs/${id}`, { method: 'DELETE', headers: admin })).status,
          409,
        );
        await remove(m.id);
        assert.equal(
          (await t.json(`/api/s3-configs/${id}`, { method: 'DELETE', headers: admin })).status,
          200,
        );
      });
    });
  });
}
