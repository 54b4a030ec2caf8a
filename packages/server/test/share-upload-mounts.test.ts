/**
 * A share upload by an API key lands inside the key's folder of the virtual tree: where a mount
 * shows the storage, the key's base path (a virtual path) is translated into the storage's path
 * through that mount, on every upload route (form, raw body, presign + commit). A storage that no
 * mount shows keeps the base path as its storage path.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`share uploads into a mounted storage stay in the key's folder (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let mounted: string;
    let unmounted: string;

    const localConfig = async (name: string) => {
      const made = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name,
          provider_type: 'Local',
          root_path: `${t.database.dataDir}/${name}-${randomUUID()}`,
          is_public: true,
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.data.id as string;
    };

    /** Uploads one file through a route; answers the status and, when stored, its storage path. */
    const upload = async (
      route: 'form' | 'direct' | 'presign',
      key: string,
      config: string,
      path?: string,
    ): Promise<{ status: number; storagePath?: string }> => {
      let id: string | undefined;
      let status: number;
      if (route === 'form') {
        const form = new FormData();
        form.append('s3_config_id', config);
        if (path !== undefined) form.append('path', path);
        form.append('file', new Blob(['hello']), 'a.txt');
        const res = await t.json('/api/upload', { method: 'POST', headers: apiKey(key), body: form });
        status = res.status;
        id = res.body.data?.id;
      } else if (route === 'direct') {
        const query = new URLSearchParams({ s3_config_id: config, ...(path === undefined ? {} : { path }) });
        const res = await t.json(`/api/upload-direct/a.txt?${query}`, {
          method: 'PUT',
          headers: apiKey(key),
          body: 'hello',
        });
        status = res.status;
        id = res.body.data?.id;
      } else {
        const res = await t.json('/api/s3/presign', {
          method: 'POST',
          headers: apiKey(key),
          json: { filename: 'a.txt', size: 5, s3_config_id: config, ...(path === undefined ? {} : { path }) },
        });
        status = res.status;
        if (status === 200) {
          const put = await t.request(
            new URL(res.body.data.upload_url).pathname + new URL(res.body.data.upload_url).search,
            {
              method: 'PUT',
              headers: { 'Content-Type': res.body.data.contentType },
              body: 'hello',
            },
          );
          assert.ok(put.status < 300, `PUT ${put.status}`);
          const committed = await t.json('/api/s3/commit', {
            method: 'POST',
            headers: apiKey(key),
            json: { file_id: res.body.data.file_id },
          });
          assert.equal(committed.status, 200, JSON.stringify(committed.body));
          id = res.body.data.file_id;
        }
      }
      if (!id) return { status };
      const row = await t.json(`/api/admin/files/${id}`, { headers: admin });
      return { status, storagePath: row.body.data.storage_path };
    };

    before(async () => {
      t = await createTestApp(dialect);
      t.clock.followRealTime();
      admin = bearer(await t.adminToken());
      mounted = await localConfig('mounted');
      unmounted = await localConfig('unmounted');
      const mount = await t.json('/api/admin/mounts', {
        method: 'POST',
        headers: admin,
        json: { name: 'm', mount_path: '/m', storage_config_id: mounted },
      });
      assert.equal(mount.status, 201, JSON.stringify(mount.body));
    });
    after(() => t.close());

    for (const route of ['form', 'direct', 'presign'] as const) {
      it(`${route}: a key at /m/a/b writes below /a/b of the storage mounted at /m`, async () => {
        const { key } = await t.createKey({
          name: `ab-${route}`,
          file_permission: true,
          basic_path: '/m/a/b',
        });
        const plain = await upload(route, key, mounted);
        assert.equal(plain.status, 200);
        assert.match(plain.storagePath!, /^\/a\/b\/\d{4}\/\d{2}\//);
        const relative = await upload(route, key, mounted, 'reports');
        assert.match(relative.storagePath!, /^\/a\/b\/reports\/\d{4}\//);
        const absolute = await upload(route, key, mounted, '/a/b/x');
        assert.match(absolute.storagePath!, /^\/a\/b\/x\/\d{4}\//);
        // Its base path spelled as a storage path is beside its folder in the tree (/m/m/a/b).
        assert.equal((await upload(route, key, mounted, '/m/a/b')).status, 403);
        assert.equal((await upload(route, key, mounted, '/a')).status, 403);
      });
    }

    it("a storage mounted only outside the key's base path is refused; an unmounted one keeps the base path", async () => {
      const { key } = await t.createKey({ name: 'elsewhere', file_permission: true, basic_path: '/team' });
      const refused = await upload('form', key, mounted);
      assert.equal(refused.status, 403);
      const kept = await upload('form', key, unmounted);
      assert.equal(kept.status, 200);
      assert.match(kept.storagePath!, /^\/team\/\d{4}\//);
      // The admin's folder is the storage's root, whatever mounts show it.
      const form = new FormData();
      form.append('s3_config_id', mounted);
      form.append('path', 'admin-folder');
      form.append('file', new Blob(['x']), 'x.txt');
      const res = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const row = await t.json(`/api/admin/files/${res.body.data.id}`, { headers: admin });
      assert.match(row.body.data.storage_path, /^\/admin-folder\/\d{4}\//);
    });
  });
}
