/**
 * A storage whose endpoint does not speak S3 (a web page, a proxy's notice, a JSON API) is a storage
 * that is unavailable: every route that reaches it answers 503 with the storage message, never 500.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { bearer, createTestApp, type TestApp } from './support/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`a storage endpoint that is not S3 (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let configId: string;
    let body = 'Hello';
    const page = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(body);
    });

    before(async () => {
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      const made = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'not s3',
          provider_type: 'Other S3 Compatible',
          endpoint_url: `http://127.0.0.1:${(page.address() as AddressInfo).port}`,
          bucket_name: 'bucket',
          region: 'us-east-1',
          access_key_id: 'AKIAEXAMPLEEXAMPLE',
          secret_access_key: 'secret-secret-secret',
          path_style: true,
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      configId = made.body.data.id;
    });
    after(async () => {
      await t.close();
      await new Promise((resolve) => page.close(resolve));
    });

    it('presign answers 503 with the storage message, whatever the endpoint sends back', async () => {
      for (const sent of ['Hello', '{"status":"ok"}', '<?xml version="1.0"?><Broken><Tag>']) {
        body = sent;
        const res = await t.json('/api/s3/presign', {
          method: 'POST',
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
          json: { filename: 'a.txt', size: 5, s3_config_id: configId },
        });
        assert.equal(res.status, 503, `${sent}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error, 'STORAGE_UNAVAILABLE');
      }
    });
  });
}
