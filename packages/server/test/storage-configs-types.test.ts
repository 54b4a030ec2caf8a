/**
 * Storage configs of the types that reach another server (WebDAV, SFTP, FTP) over HTTP, through
 * CloudPaste 1.9's routes (`/api/storage…`, `storage_type`) and CloudPaste 0.6's (`/api/s3-configs…`):
 * made, read, changed and deleted; their credentials sealed, never answered (masked), kept when the
 * mask or nothing is sent back; clear messages for bad input in both languages
 * (docs/storage.md, "Storage beyond S3 and local disk").
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SECRET_MASK } from '@cubby/shared';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const KEY_TEXT = `-----BEGIN OPENSSH PRIVATE KEY-----\n${randomBytes(48).toString('base64')}\n-----END OPENSSH PRIVATE KEY-----`;
const EN = { 'X-Cubby-Lang': 'en-US' };
const ZH = { 'X-Cubby-Lang': 'zh-CN' };

for (const dialect of DIALECTS) {
  describe(`storage configs of WebDAV, SFTP and FTP (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let fileKey: { id: string; key: string };
    /** Every answer body, to prove no credential ever leaves the server. */
    const answers: string[] = [];

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      fileKey = await t.createKey({ name: 'files', file_permission: true });
    });
    after(() => t.close());

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
    const call = async (route: string, init: RequestInit & { json?: unknown } = {}): Promise<any> => {
      const res = await t.json(route, init);
      answers.push(JSON.stringify(res.body));
      return res;
    };
    const row = (id: string) =>
      t.database.db.kysely
        .selectFrom('storage_configs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('makes each type through /api/storage with CloudPaste 1.9 storage_type, and answers it masked', async () => {
      const webdav = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'NAS',
          storage_type: 'WEBDAV',
          endpoint_url: 'https://nas.example.com/dav/',
          username: 'me',
          password: PASSWORD,
          default_folder: '/cubby/',
          tls_insecure_skip_verify: true,
        },
      });
      assert.equal(webdav.status, 201, JSON.stringify(webdav.body));
      const w = webdav.body.data;
      assert.equal(w.storage_type, 'WEBDAV');
      assert.equal(w.driver, 'webdav');
      assert.equal(w.provider_type, 'WebDAV');
      assert.equal(w.endpoint_url, 'https://nas.example.com/dav');
      assert.equal(w.default_folder, 'cubby');
      assert.equal(w.username, 'me');
      assert.equal(w.tls_insecure_skip_verify, 1);
      assert.equal(w.password, SECRET_MASK);
      assert.equal(w.has_secret, true);

      const sftp = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'Seedbox',
          storage_type: 'SFTP',
          host: 'box.example.com',
          username: 'u',
          private_key: KEY_TEXT,
        },
      });
      assert.equal(sftp.status, 201, JSON.stringify(sftp.body));
      const s = sftp.body.data;
      assert.deepEqual(
        [s.storage_type, s.host, s.port, s.root, s.host_key_fingerprint, s.password, s.private_key],
        ['SFTP', 'box.example.com', 22, '/', null, null, SECRET_MASK],
      );

      const ftp = await call('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'Old FTP',
          provider_type: 'FTP',
          host: '10.0.0.5',
          port: '2121',
          root: '/pub/',
          tls: 'explicit',
        },
      });
      assert.equal(ftp.status, 201, JSON.stringify(ftp.body));
      const f = ftp.body.data;
      assert.deepEqual(
        [f.storage_type, f.port, f.root, f.username, f.tls, f.password],
        ['FTP', 2121, '/pub', 'anonymous', 'explicit', null],
      );

      // Both route families list the same configs.
      const listed = await call('/api/storage', { headers: admin });
      const old = await call('/api/s3-configs', { headers: admin });
      const names = (body: { data: Array<{ name: string }> }) => body.data.map((c) => c.name).sort();
      assert.deepEqual(names(listed.body), names(old.body));
      assert.ok(names(listed.body).includes('NAS') && names(listed.body).includes('Seedbox'));

      // Sealed in the database: no credential in the clear.
      const stored = await row(s.id);
      assert.ok(!stored.settings.includes('BEGIN') && !stored.secrets!.includes('BEGIN'));
      const stored2 = await row(w.id);
      assert.ok(!stored2.settings.includes(PASSWORD) && !stored2.secrets!.includes(PASSWORD));
    });

    it('keeps a stored password when the mask or nothing is sent back, and replaces it when a new one is', async () => {
      const made = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: { name: 'Keeper', storage_type: 'SFTP', host: '127.0.0.1', username: 'u', password: PASSWORD },
      });
      const id = made.body.data.id;
      const secretsBefore = (await row(id)).secrets;
      // A client that sends back what it read: the mask keeps the password.
      const read = await call(`/api/storage/${id}`, { headers: admin });
      const echoed = await call(`/api/storage/${id}`, {
        method: 'PUT',
        headers: admin,
        json: { ...read.body.data, name: 'Keeper 2' },
      });
      assert.equal(echoed.status, 200, JSON.stringify(echoed.body));
      assert.equal(echoed.body.data.name, 'Keeper 2');
      assert.equal((await row(id)).secrets, secretsBefore, 'the sealed password is untouched');
      const blank = await call(`/api/storage/${id}`, {
        method: 'PUT',
        headers: admin,
        json: { password: '' },
      });
      assert.equal(blank.status, 200);
      assert.equal((await row(id)).secrets, secretsBefore);
      const changed = await call(`/api/storage/${id}`, {
        method: 'PUT',
        headers: admin,
        json: { password: 'another-password' },
      });
      assert.equal(changed.status, 200);
      assert.notEqual((await row(id)).secrets, secretsBefore);
      assert.equal(changed.body.data.password, SECRET_MASK);
    });

    it('refuses bad input with a message for each field, in the caller’s language', async () => {
      const bad = await call('/api/storage', {
        method: 'POST',
        headers: { ...admin, ...EN },
        json: {
          name: 'x',
          storage_type: 'SFTP',
          host: 'http://bad host',
          port: 70000,
          root: 'relative',
          username: 'u',
        },
      });
      assert.equal(bad.status, 400);
      const fields = bad.body.details ?? bad.body.data?.details ?? bad.body.data;
      const text = JSON.stringify(bad.body);
      for (const field of ['host', 'port', 'root'])
        assert.ok(text.includes(field), `${field} named: ${text}`);
      assert.ok(fields, text);
      const missing = await call('/api/storage', {
        method: 'POST',
        headers: { ...admin, ...ZH },
        json: { name: 'x', storage_type: 'SFTP', host: 'h', username: 'u' },
      });
      assert.equal(missing.status, 400);
      assert.match(JSON.stringify(missing.body), /[\u4e00-\u9fff]/, 'a Chinese message');
      const unknownType = await call('/api/storage', {
        method: 'POST',
        headers: { ...admin, ...EN },
        json: { name: 'x', storage_type: 'GOPHER' },
      });
      assert.equal(unknownType.status, 400);
      const wrongFingerprint = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'x',
          storage_type: 'SFTP',
          host: 'h',
          username: 'u',
          password: 'p',
          host_key_fingerprint: 'MD5:aa',
        },
      });
      assert.equal(wrongFingerprint.status, 400);
      const badKey = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: { name: 'x', storage_type: 'SFTP', host: 'h', username: 'u', private_key: 'not a key' },
      });
      assert.equal(badKey.status, 400);
    });

    it('does not let a config change its type', async () => {
      const made = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: { name: 'Fixed', storage_type: 'FTP', host: 'ftp.example.com' },
      });
      const id = made.body.data.id;
      const moved = await call(`/api/storage/${id}`, {
        method: 'PUT',
        headers: admin,
        json: { provider_type: 'SFTP' },
      });
      assert.equal(moved.status, 400);
      assert.equal((await call(`/api/storage/${id}`, { headers: admin })).body.data.storage_type, 'FTP');
    });

    it('sets the default and deletes through /api/storage', async () => {
      const made = await call('/api/storage', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'Doomed',
          storage_type: 'WEBDAV',
          endpoint_url: 'http://127.0.0.1:9/dav',
          is_public: true,
        },
      });
      const id = made.body.data.id;
      const def = await call(`/api/storage/${id}/set-default`, { method: 'PUT', headers: admin });
      assert.equal(def.status, 200);
      assert.equal(def.body.data.is_default, 1);
      // A key sees the config (usable by keys) without its connection or credentials.
      const seen = await call(`/api/storage/${id}`, { headers: apiKey(fileKey.key) });
      assert.equal(seen.status, 200);
      for (const field of ['endpoint_url', 'username', 'password', 'host']) {
        assert.ok(seen.body.data[field] === null || seen.body.data[field] === undefined, field);
      }
      const others = (await call('/api/storage', { headers: admin })).body.data.filter(
        (c: { id: string }) => c.id !== id,
      );
      await call(`/api/storage/${others[0].id}/set-default`, { method: 'PUT', headers: admin });
      const gone = await call(`/api/storage/${id}`, { method: 'DELETE', headers: admin });
      assert.equal(gone.status, 200);
      assert.equal((await call(`/api/storage/${id}`, { headers: admin })).status, 404);
    });

    it('never answered a credential', () => {
      const all = answers.join('\n');
      assert.ok(!all.includes(PASSWORD), 'no password');
      assert.ok(!all.includes('BEGIN OPENSSH'), 'no private key');
      assert.ok(!all.includes('another-password'), 'no changed password');
    });
  });
}
