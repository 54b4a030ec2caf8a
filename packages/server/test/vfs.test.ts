/**
 * The virtual tree over the mounts (vfs/vfs.ts), on both databases with local storage: the
 * longest mount wins and a mount at `/` works, paths above mounts are virtual folders, an API key sees
 * only the way to its base path and nothing touches storage outside it, listings are complete and
 * sorted, and the directory cache is invalidated by every write and expires with the mount's TTL.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Principal } from '@cubby/shared';
import type { MountsTable } from '../src/db/schema.ts';
import { DIALECTS } from './support/databases.ts';
import { createTestApp, mountRow, type TestApp } from './support/test-app.ts';

const admin: Principal = { type: 'admin', id: 'admin-1', username: 'admin' };
const keyAt = (basicPath: string): Principal => ({
  type: 'apikey',
  id: 'key-1',
  name: 'k',
  basicPath,
  permissions: { text: false, file: false, mount: true },
  ownerId: null,
  grants: [{ path: basicPath, write: true }],
});
const body = (text: string) => new Blob([text]).stream();

for (const dialect of DIALECTS) {
  describe(`vfs (${dialect})`, () => {
    let t: TestApp;
    let configId: string;

    let token: string;

    before(async () => {
      t = await createTestApp(dialect);
      token = await t.adminToken();
    });
    after(() => t.close());

    const vfs = () => t.services.vfs;
    const mount = async (mount_path: string, extra: Partial<MountsTable> = {}) => {
      const now = t.clock.now().toISOString();
      const row = mountRow({
        storage_config_id: configId,
        mount_path,
        created_at: now,
        updated_at: now,
        ...extra,
      });
      await t.database.db.kysely.insertInto('mounts').values(row).execute();
      return row;
    };

    // Each test gets its own empty local storage and no mounts.
    beforeEach(async () => {
      await t.database.db.kysely.deleteFrom('mounts').execute();
      await vfs().clearCache();
      const created = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        json: {
          name: `vfs-${randomUUID().slice(0, 8)}`,
          provider_type: 'Local',
          root_path: `${t.database.dataDir}/vfs-${randomUUID()}`,
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      configId = created.body.data.id;
    });

    it('resolves to the longest mount, whole segments, a mount at / included', async () => {
      const root = await mount('/');
      const a = await mount('/a');
      const ab = await mount('/a/b');
      const at = async (path: string) => {
        const r = await vfs().resolve(admin, path, 'read');
        assert.equal(r.kind, 'mount');
        return r.kind === 'mount' ? [r.mount.id, r.subPath] : [];
      };
      assert.deepEqual(await at('/a/b/c'), [ab.id, '/c']);
      assert.deepEqual(await at('/a/bc'), [a.id, '/bc']);
      assert.deepEqual(await at('/a'), [a.id, '/']);
      assert.deepEqual(await at('/a/'), [a.id, '/']);
      assert.deepEqual(await at('/z/y'), [root.id, '/z/y']);
      assert.deepEqual(await at('/'), [root.id, '/']);
    });

    it('hands out places, never drivers: reads, links and what a storage can do are asked of it', async () => {
      await mount('/m');
      await vfs().write(admin, '/m/a.txt', body('hello'));
      const at = await vfs().resolveMounted(admin, '/m/a.txt', 'read');
      // A door that holds a mounted path cannot go around the vfs's rules with it.
      assert.equal('driver' in at, false);
      assert.deepEqual(Object.keys(at).sort(), ['config', 'kind', 'mount', 'path', 'subPath']);
      assert.equal((await vfs().entry(at)).size, 5);
      assert.equal(await new Response((await vfs().read(at)).body).text(), 'hello');
      assert.equal(await vfs().find(await vfs().resolveMounted(admin, '/m/none.txt', 'read')), null);
      // Local disk signs its own links; a PUT proxied to them would only come back to this server.
      assert.equal(await vfs().can(at, 'presignGet'), true);
      assert.equal(await vfs().can(at, 'proxyPut'), false);
      const link = await vfs().presignGet(at, { expiresIn: 60, filename: 'a.txt' });
      assert.ok(link instanceof URL);
    });

    it('lists paths above the mounts as virtual folders; 404 where no mount leads', async () => {
      await mount('/photos/2026');
      await mount('/docs');
      const top = await vfs().list(admin, '/');
      assert.equal(top.isVirtual, true);
      assert.deepEqual(
        top.items.map((i) => [i.name, i.path, i.isVirtual]),
        [
          ['docs', '/docs/', true],
          ['photos', '/photos/', true],
        ],
      );
      assert.deepEqual(
        (await vfs().list(admin, '/photos')).items.map((i) => i.path),
        ['/photos/2026/'],
      );
      await assert.rejects(vfs().list(admin, '/nope'), { status: 404 });
      await assert.rejects(vfs().resolveMounted(admin, '/', 'write'), { status: 403 });
    });

    it('an inactive mount is not there', async () => {
      await mount('/off', { is_active: 0 });
      await assert.rejects(vfs().list(admin, '/off'), { status: 404 });
      assert.deepEqual((await vfs().list(admin, '/')).items, []);
    });

    it('shows a key only the way to its base path, and refuses everything else before storage', async () => {
      await mount('/');
      await mount('/other');
      await vfs().write(admin, '/secret.txt', body('s'));
      await vfs().write(admin, '/team/inside.txt', body('i'));
      const key = keyAt('/team');
      const top = await vfs().list(key, '/');
      assert.equal(top.hasPermission, false);
      assert.deepEqual(
        top.items.map((i) => i.name),
        ['team'],
        'neither the root folder nor the other mount shows',
      );
      const inside = await vfs().list(key, '/team');
      assert.equal(inside.hasPermission, true);
      assert.deepEqual(
        inside.items.map((i) => i.name),
        ['inside.txt'],
      );
      for (const path of ['/secret.txt', '/other', '/team-b', '/teammate/x']) {
        await assert.rejects(vfs().resolve(key, path, 'read'), { status: 403 }, path);
      }
      await assert.rejects(vfs().list(key, '/other'), { status: 403 });
      await assert.rejects(vfs().write(key, '/secret.txt', body('x')), { status: 403 });
      assert.equal((await vfs().stat(admin, '/secret.txt')).entry.size, 1);
    });

    it('refuses paths with dot segments, control characters or full-width separators', async () => {
      await mount('/m');
      for (const path of ['/m/../x', '/m/./a', '/m/a\u0000', '/m/\uff0e\uff0e/x', '']) {
        await assert.rejects(vfs().resolve(admin, path, 'read'), { status: 400 }, JSON.stringify(path));
      }
    });

    it('lists every entry, folders first, names in reading order', async () => {
      await mount('/m');
      for (const name of ['b10.txt', 'b9.txt', 'A.txt']) await vfs().write(admin, `/m/${name}`, body(name));
      await vfs().mkdir(admin, '/m/zdir');
      const listing = await vfs().list(admin, '/m');
      assert.deepEqual(
        listing.items.map((i) => i.name),
        ['zdir', 'A.txt', 'b9.txt', 'b10.txt'],
      );
      const file = listing.items.find((i) => i.name === 'A.txt')!;
      assert.deepEqual([file.path, file.isDirectory, file.size], ['/m/A.txt', false, 5]);
      assert.ok(file.etag && !file.etag.startsWith('"'));
      assert.equal(listing.items[0]!.path, '/m/zdir/');
    });

    it('caches a listing for the mount TTL and forgets it on every write', async () => {
      await mount('/m', { cache_ttl: 60 });
      await vfs().write(admin, '/m/one.txt', body('1'));
      const names = async () => (await vfs().list(admin, '/m')).items.map((i) => i.name);
      assert.deepEqual(await names(), ['one.txt']);
      const before = vfs().cacheStats();
      assert.deepEqual(await names(), ['one.txt']);
      assert.equal(vfs().cacheStats().hits, before.hits + 1);

      // A write behind the vfs's back is not seen until the TTL has passed…
      const { config } = await vfs().resolveMounted(admin, '/m', 'read');
      const driver = await t.services.storageConfigs.driver(config.id);
      await driver.write('/behind.txt', body('b'));
      assert.deepEqual(await names(), ['one.txt']);
      t.clock.advance(61_000);
      assert.deepEqual(await names(), ['behind.txt', 'one.txt']);

      // …while a write through it is seen at once.
      await vfs().write(admin, '/m/two.txt', body('2'));
      assert.deepEqual(await names(), ['behind.txt', 'one.txt', 'two.txt']);
      await vfs().rename(admin, '/m/two.txt', '/m/three.txt');
      assert.deepEqual(await names(), ['behind.txt', 'one.txt', 'three.txt']);
      await vfs().remove(admin, '/m/one.txt');
      assert.deepEqual(await names(), ['behind.txt', 'three.txt']);
      // A share upload into the mounted storage counts as a write too.
      await driver.write('/shared.txt', body('s'));
      await vfs().report({
        kind: 'written',
        at: { configId, path: '/shared.txt' },
        size: 1,
        etag: undefined,
      });
      assert.deepEqual(await names(), ['behind.txt', 'shared.txt', 'three.txt']);
    });

    it('does not cache when the TTL is 0', async () => {
      await mount('/m', { cache_ttl: 0 });
      await vfs().list(admin, '/m');
      await vfs().list(admin, '/m');
      assert.equal(vfs().cacheStats().cacheSize, 0);
    });

    it('renames within one mount only, and never onto something that exists', async () => {
      await mount('/a');
      await mount('/b');
      await vfs().write(admin, '/a/x.txt', body('x'));
      await vfs().write(admin, '/a/y.txt', body('y'));
      await assert.rejects(vfs().rename(admin, '/a/x.txt', '/b/x.txt'), { status: 400 });
      await assert.rejects(vfs().rename(admin, '/a/x.txt', '/a/y.txt'), { status: 409 });
      await assert.rejects(vfs().remove(admin, '/a'), { status: 403 }, "a mount's root stays");
      await vfs().rename(admin, '/a/x.txt', '/a/sub/z.txt');
      assert.equal((await vfs().stat(admin, '/a/sub/z.txt')).entry.size, 1);
    });
  });
}
