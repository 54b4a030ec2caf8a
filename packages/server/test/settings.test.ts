/** System settings over HTTP: the largest upload size with units, and the WebDAV upload mode. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`system settings (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
    });
    after(() => t.close());

    const put = (json: unknown, headers = admin) =>
      t.json('/api/admin/system-settings', { method: 'PUT', headers, json });

    it('answers the largest upload size to anyone, 100 MB until set', async () => {
      const res = await t.json('/api/system/max-upload-size');
      assert.equal(res.status, 200);
      assert.equal(res.body.data.max_upload_size, 100);
      assert.equal(res.body.data.max_upload_bytes, 100 * 1024 ** 2);
    });

    it('only an admin reads or changes settings', async () => {
      const { key } = await t.createKey({
        name: 'everything',
        text_permission: true,
        file_permission: true,
        mount_permission: true,
      });
      assert.equal((await t.json('/api/admin/system-settings')).status, 401);
      assert.equal((await t.json('/api/admin/system-settings', { headers: apiKey(key) })).status, 403);
      assert.equal((await put({ max_upload_size: 5 }, {})).status, 401);
      assert.equal((await put({ max_upload_size: 5 }, apiKey(key))).status, 403);
    });

    it('sets the limit in KB, MB (the default unit, fractions allowed) or GB', async () => {
      assert.equal((await put({ max_upload_size: 512, max_upload_size_unit: 'KB' })).status, 200);
      assert.equal((await t.json('/api/system/max-upload-size')).body.data.max_upload_bytes, 512 * 1024);
      await put({ max_upload_size: 1.5 });
      assert.equal((await t.json('/api/system/max-upload-size')).body.data.max_upload_bytes, 1.5 * 1024 ** 2);
      const gb = await put({ max_upload_size: 2, max_upload_size_unit: 'GB' });
      const rows = gb.body.data as Array<{ key: string; value: string }>;
      assert.equal(rows.find((r) => r.key === 'max_upload_size')?.value, '2048');
      assert.equal((await t.json('/api/system/max-upload-size')).body.data.max_upload_size, 2048);
    });

    it('refuses a limit that is not positive or out of range, and a bad mode, changing nothing', async () => {
      await put({ max_upload_size: 10 });
      for (const body of [
        { max_upload_size: 0 },
        { max_upload_size: -5 },
        { max_upload_size: '10' },
        { max_upload_size: 2, max_upload_size_unit: 'TB' },
        { max_upload_size: 5000, max_upload_size_unit: 'GB' },
        { webdav_upload_mode: 'turbo' },
        {},
      ]) {
        const res = await put(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'VALIDATION_FAILED');
      }
      assert.equal((await t.json('/api/system/max-upload-size')).body.data.max_upload_size, 10);
    });

    it('stores the WebDAV upload mode (auto until set)', async () => {
      const before = await t.json('/api/admin/system-settings', { headers: admin });
      assert.equal(
        before.body.data.find((r: { key: string }) => r.key === 'webdav_upload_mode').value,
        'auto',
      );
      await put({ webdav_upload_mode: 'multipart' });
      const after = await t.json('/api/admin/system-settings', { headers: admin });
      assert.equal(
        after.body.data.find((r: { key: string }) => r.key === 'webdav_upload_mode').value,
        'multipart',
      );
    });
  });
}
