/**
 * Storage configs over HTTP (/api/s3-configs): the first-start local default, who sees what,
 * validation, sealed and masked credentials, updates, the one default under concurrency, deletion
 * rules, and the storage test on local disk and on radosgw (a bucket with browser CORS rules and
 * one without). The S3 cases need S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY and are
 * skipped, saying so, when S3_ENDPOINT is unset.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { DIALECTS } from './support/databases.ts';
import { createBucket, deleteBucket, s3AdminClient, s3Env, S3_SKIP } from './support/s3.ts';
import { apiKey, bearer, createTestApp, fileRow, type TestApp } from './support/test-app.ts';

const ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = `wJalrXUtnFEMI-K7MDENG-${randomBytes(8).toString('hex')}`;
const EN = { 'X-Cubby-Lang': 'en-US' };

const s3Body = (patch: Record<string, unknown> = {}) => ({
  name: 'Ceph',
  provider_type: 'Other S3 Compatible',
  endpoint_url: 'http://127.0.0.1:9',
  bucket_name: 'cubby-bucket',
  region: 'us-east-1',
  access_key_id: ACCESS_KEY,
  secret_access_key: SECRET,
  path_style: true,
  ...patch,
});

for (const dialect of DIALECTS) {
  describe(`storage configs (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let fileKey: { id: string; key: string };
    let textKey: { id: string; key: string };
    /** Every answer body, to prove no credential ever leaves the server. */
    const answers: string[] = [];

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
      fileKey = await t.createKey({ name: 'files', file_permission: true });
      textKey = await t.createKey({ name: 'texts', text_permission: true });
    });
    after(() => t.close());

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
    const call = async (route: string, init: RequestInit & { json?: unknown } = {}): Promise<any> => {
      const res = await t.json(route, init);
      answers.push(JSON.stringify(res.body));
      return res;
    };
    const list = (headers: Record<string, string> = admin) => call('/api/s3-configs', { headers });
    const create = (body: unknown, headers: Record<string, string> = admin) =>
      call('/api/s3-configs', { method: 'POST', headers, json: body });
    const update = (id: string, body: unknown, headers: Record<string, string> = admin) =>
      call(`/api/s3-configs/${id}`, { method: 'PUT', headers, json: body });
    const remove = (id: string, headers: Record<string, string> = admin) =>
      call(`/api/s3-configs/${id}`, { method: 'DELETE', headers });
    const setDefault = (id: string, headers: Record<string, string> = admin) =>
      call(`/api/s3-configs/${id}/set-default`, { method: 'PUT', headers });
    const probe = (id: string, headers: Record<string, string> = admin) =>
      call(`/api/s3-configs/${id}/test`, { method: 'POST', headers });
    const row = (id: string) =>
      t.database.db.kysely
        .selectFrom('storage_configs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const defaults = async () =>
      (
        await t.database.db.kysely
          .selectFrom('storage_configs')
          .select('id')
          .where('is_default', '=', 1)
          .execute()
      ).map((r) => r.id);
    const insertFile = async (configId: string) => {
      await t.database.db.kysely
        .insertInto('files')
        .values(fileRow({ storage_config_id: configId }))
        .execute();
    };
    let localId: string;

    describe('first start', () => {
      it('has one local-disk config in DATA_DIR/storage, default and usable by keys', async () => {
        const { status, body } = await list();
        assert.equal(status, 200);
        assert.equal(body.success, true);
        assert.equal(body.data.length, 1);
        const [local] = body.data;
        localId = local.id;
        assert.equal(local.name, 'Local storage');
        assert.equal(local.driver, 'local');
        assert.equal(local.provider_type, 'Local');
        assert.equal(local.is_default, 1);
        assert.equal(local.is_public, 1);
        assert.equal(local.root_path, path.join(t.database.dataDir, 'storage'));
        assert.equal(local.access_key_id_masked, null);
        assert.equal(local.has_secret, false);
        assert.equal(local.bucket_name, null);
        assert.ok(fs.statSync(local.root_path).isDirectory());
        // Starting again does not add a second one.
        await t.services.storageConfigs.ensureDefault();
        assert.equal((await list()).body.data.length, 1);
      });
    });

    describe('access', () => {
      it('needs credentials; a key needs the file permission; writes need an admin', async () => {
        assert.equal((await call('/api/s3-configs')).status, 401);
        const text = await list(apiKey(textKey.key));
        assert.equal(text.status, 403);
        assert.equal(text.body.error, 'FORBIDDEN');
        assert.equal((await list(apiKey(fileKey.key))).status, 200);
        const byKey = await create(s3Body(), apiKey(fileKey.key));
        assert.equal(byKey.status, 403);
        assert.equal((await update(localId, { name: 'x' }, apiKey(fileKey.key))).status, 403);
        assert.equal((await remove(localId, apiKey(fileKey.key))).status, 403);
        assert.equal((await setDefault(localId, apiKey(fileKey.key))).status, 403);
        assert.equal((await probe(localId, apiKey(fileKey.key))).status, 403);
        assert.equal((await probe(localId, apiKey(textKey.key))).status, 403);
      });
    });

    describe('create', () => {
      it('stores an S3 config: 201, masked key, never the secret', async () => {
        const { status, body } = await create(
          s3Body({ default_folder: '/shares//2026/', custom_host: 'https://cdn.example.com/', is_public: 1 }),
        );
        assert.equal(status, 201);
        assert.equal(body.code, 201);
        const view = body.data;
        assert.equal(view.driver, 's3');
        assert.equal(view.provider_type, 'Other S3 Compatible');
        assert.equal(view.endpoint_url, 'http://127.0.0.1:9');
        assert.equal(view.bucket_name, 'cubby-bucket');
        assert.equal(view.path_style, 1);
        assert.equal(view.default_folder, 'shares/2026');
        assert.equal(view.custom_host, 'https://cdn.example.com');
        assert.equal(view.is_public, 1);
        assert.equal(view.is_default, 0, 'a default exists already');
        assert.equal(view.signature_expires_in, 3600);
        assert.equal(view.total_storage_bytes, null);
        assert.equal(view.access_key_id_masked, 'AKIA…MPLE');
        assert.equal(view.has_secret, true);
        assert.equal(view.root_path, null);
        for (const field of ['secret_access_key', 'access_key_id', 'secrets', 'settings']) {
          assert.equal(field in view, false, field);
        }
        assert.equal((await remove(view.id)).status, 200);
      });

      it('seals the credentials: not the plaintext, bound to the config id', async () => {
        const { body } = await create(s3Body({ name: 'sealed' }));
        const stored = await row(body.data.id);
        assert.ok(stored.secrets);
        assert.ok(!stored.secrets.includes(SECRET));
        assert.ok(!stored.secrets.includes(ACCESS_KEY));
        assert.ok(!Buffer.from(stored.secrets.slice(3), 'base64url').toString('latin1').includes(SECRET));
        assert.deepEqual(t.services.storageConfigs.openSecrets(stored), {
          access_key_id: ACCESS_KEY,
          secret_access_key: SECRET,
        });
        assert.throws(() => t.services.storageConfigs.openSecrets({ id: localId, secrets: stored.secrets }));
        // Copied onto another config, the credentials do not open: shown as missing, not as an error.
        const other = await create(s3Body({ name: 'victim', access_key_id: 'SHORTKEY' }));
        assert.equal(other.body.data.access_key_id_masked, '…', 'a short key is not shown at all');
        await t.database.db.kysely
          .updateTable('storage_configs')
          .set({ secrets: stored.secrets })
          .where('id', '=', other.body.data.id)
          .execute();
        const shown = await call(`/api/s3-configs/${other.body.data.id}`, { headers: admin });
        assert.equal(shown.body.data.has_secret, false);
        assert.equal(shown.body.data.access_key_id_masked, null);
        const renamed = await update(other.body.data.id, { name: 'renamed' }, { ...admin, ...EN });
        assert.equal(renamed.status, 400);
        assert.match(renamed.body.message, /cannot be decrypted/);
        const tested = await probe(other.body.data.id, { ...admin, ...EN });
        assert.equal(tested.status, 200);
        assert.equal(tested.body.data.success, false);
        assert.match(tested.body.data.result.steps[0].error, /cannot be decrypted/);
        // Both credentials entered again: usable again.
        const fixed = await update(other.body.data.id, {
          access_key_id: 'AKIA0000000000000FIX',
          secret_access_key: 'new-secret',
        });
        assert.equal(fixed.status, 200);
        assert.equal(fixed.body.data.has_secret, true);
        assert.equal(fixed.body.data.access_key_id_masked, 'AKIA…0FIX');
        await remove(other.body.data.id);
        await remove(body.data.id);
      });

      it('applies the provider presets and accepts CloudPaste spellings', async () => {
        const r2 = await create(
          s3Body({
            name: 'R2',
            provider_type: 'Cloudflare R2',
            endpoint_url: 'https://0123abcd.r2.cloudflarestorage.com',
            region: 'eu-west-1',
            path_style: false,
          }),
        );
        assert.equal(r2.status, 201);
        assert.equal(r2.body.data.region, 'auto');
        assert.equal(r2.body.data.path_style, 1);
        const b2 = await create(
          s3Body({ name: 'B2', provider_type: 'Backblaze B2', endpoint_url: '', region: 'us-west-004' }),
        );
        assert.equal(b2.status, 201);
        assert.equal(b2.body.data.endpoint_url, '');
        const aws = await create(
          s3Body({
            name: 'AWS',
            provider_type: 'AWS S3',
            endpoint_url: null,
            region: '',
            path_style: 'false',
          }),
        );
        assert.equal(aws.status, 201);
        assert.equal(aws.body.data.path_style, 0);
        const other = await create(
          s3Body({ name: 'Other', provider_type: 'Other', is_public: 'true', signature_expires_in: '600' }),
        );
        assert.equal(other.status, 201);
        assert.equal(other.body.data.provider_type, 'Other S3 Compatible');
        assert.equal(other.body.data.is_public, 1);
        assert.equal(other.body.data.signature_expires_in, 600);
        const quota = await create(
          s3Body({ name: 'Quota', total_storage_bytes: 5 * 1024 ** 3, is_public: 0 }),
        );
        assert.equal(quota.body.data.total_storage_bytes, 5 * 1024 ** 3);
        assert.equal(quota.body.data.is_public, 0);
        for (const created of [r2, b2, aws, other, quota])
          assert.equal((await remove(created.body.data.id)).status, 200);
      });

      it('creates a local-disk config, making its folder', async () => {
        const root = path.join(t.database.dataDir, 'second', 'disk');
        const { status, body } = await create({ name: 'Disk 2', provider_type: 'Local', root_path: root });
        assert.equal(status, 201);
        assert.equal(body.data.driver, 'local');
        assert.equal(body.data.root_path, root);
        assert.equal(body.data.endpoint_url, null);
        assert.ok(fs.statSync(root).isDirectory());
        const blocked = path.join(t.database.dataDir, 'a-file');
        fs.writeFileSync(blocked, 'x');
        const unusable = await create(
          { name: 'Bad', provider_type: 'Local', root_path: path.join(blocked, 'sub') },
          { ...admin, ...EN },
        );
        assert.equal(unusable.status, 400);
        assert.equal(
          unusable.body.details.root_path,
          'The server cannot create or write to a folder at this path',
        );
        assert.equal((await remove(body.data.id)).status, 200);
      });

      it('answers 400 with field details for every invalid field', async () => {
        const cases: Array<[Record<string, unknown>, string, RegExp]> = [
          [{ name: '' }, 'name', /name is required/],
          [{ name: 'x'.repeat(51) }, 'name', /at most 50/],
          [{ provider_type: 'Dropbox' }, 'provider_type', /Unknown provider type/],
          [{ provider_type: undefined }, 'provider_type', /Unknown provider type/],
          [{ endpoint_url: 'ftp://example.com' }, 'endpoint_url', /http or https/],
          [{ endpoint_url: '' }, 'endpoint_url', /needs its endpoint/],
          [{ provider_type: 'Cloudflare R2', endpoint_url: '' }, 'endpoint_url', /needs its endpoint/],
          [{ provider_type: 'Backblaze B2', endpoint_url: '', region: '' }, 'region', /Backblaze B2 needs/],
          [{ bucket_name: '' }, 'bucket_name', /bucket name is required/],
          [{ bucket_name: '-bad-' }, 'bucket_name', /3 to 63/],
          [{ bucket_name: 'with space' }, 'bucket_name', /3 to 63/],
          [{ region: 'us east' }, 'region', /Invalid region/],
          [{ access_key_id: '' }, 'access_key_id', /access key ID is required/],
          [{ secret_access_key: undefined }, 'secret_access_key', /secret access key is required/],
          [{ default_folder: 'a/../../etc' }, 'default_folder', /Invalid default folder/],
          [{ custom_host: 'javascript:alert(1)' }, 'custom_host', /http or https/],
          [{ signature_expires_in: 59 }, 'signature_expires_in', /60 to 604800/],
          [{ signature_expires_in: 604801 }, 'signature_expires_in', /60 to 604800/],
          [{ signature_expires_in: 'soon' }, 'signature_expires_in', /60 to 604800/],
          [{ total_storage_bytes: '12abc' }, 'total_storage_bytes', /positive whole number/],
          [{ total_storage_bytes: 0 }, 'total_storage_bytes', /positive whole number/],
          [{ total_storage_bytes: 1.5 }, 'total_storage_bytes', /positive whole number/],
          [{ is_public: 'yes' }, 'is_public', /true\/false or 1\/0/],
          [{ path_style: 2 }, 'path_style', /true\/false or 1\/0/],
          [{ provider_type: 'Local', root_path: 'relative/dir' }, 'root_path', /absolute path/],
          [{ provider_type: 'Local', root_path: '/srv/../etc' }, 'root_path', /absolute path/],
          [{ provider_type: 'Local', root_path: undefined }, 'root_path', /storage folder is required/],
        ];
        const before = (await list()).body.data.length;
        for (const [patch, field, message] of cases) {
          const { status, body } = await create(s3Body(patch), { ...admin, ...EN });
          assert.equal(status, 400, JSON.stringify(patch));
          assert.equal(body.error, 'VALIDATION_FAILED');
          assert.match(
            body.details?.[field] ?? '',
            message,
            `${JSON.stringify(patch)} → ${JSON.stringify(body)}`,
          );
        }
        const zh = await create(s3Body({ bucket_name: '' }));
        assert.equal(zh.body.message, '存储桶名称不能为空');
        const junk = await call('/api/s3-configs', {
          method: 'POST',
          headers: { ...admin, 'Content-Type': 'application/json' },
          body: '{"name":',
        });
        assert.equal(junk.status, 400);
        assert.equal((await list()).body.data.length, before, 'nothing was stored');
      });
    });

    describe('read', () => {
      it('a key sees only configs usable by keys, without admin-only fields', async () => {
        const hidden = await create(s3Body({ name: 'Private', is_public: false }));
        const shared = await create(s3Body({ name: 'Shared', is_public: true }));
        const byKey = await list(apiKey(fileKey.key));
        const ids = byKey.body.data.map((c: { id: string }) => c.id);
        assert.ok(ids.includes(shared.body.data.id));
        assert.ok(ids.includes(localId));
        assert.ok(!ids.includes(hidden.body.data.id));
        for (const view of byKey.body.data) {
          assert.equal(view.is_public, 1);
          for (const field of ['root_path', 'last_used', 'access_key_id_masked', 'has_secret']) {
            assert.equal(field in view, false, field);
          }
        }
        const one = await call(`/api/s3-configs/${shared.body.data.id}`, { headers: apiKey(fileKey.key) });
        assert.equal(one.status, 200);
        assert.equal(one.body.data.name, 'Shared');
        const notForKeys = await call(`/api/s3-configs/${hidden.body.data.id}`, {
          headers: apiKey(fileKey.key),
        });
        assert.equal(notForKeys.status, 404);
        const byAdmin = await call(`/api/s3-configs/${hidden.body.data.id}`, { headers: admin });
        assert.equal(byAdmin.status, 200);
        assert.equal(byAdmin.body.data.access_key_id_masked, 'AKIA…MPLE');
        const unknown = await call(`/api/s3-configs/${randomUUID()}`, { headers: admin });
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.error, 'NOT_FOUND');
        await remove(hidden.body.data.id);
        await remove(shared.body.data.id);
      });
    });

    describe('update', () => {
      it('changes fields, keeps credentials left empty, bumps updated_at and rebuilds the driver', async () => {
        const created = (await create(s3Body({ name: 'Editable' }))).body.data;
        const service = t.services.storageConfigs;
        const before = await service.driver(created.id);
        assert.equal(await service.driver(created.id), before, 'the driver is cached');

        const renamed = await update(created.id, {
          name: 'Edited',
          access_key_id: '',
          secret_access_key: null,
          default_folder: 'a/b/',
          total_storage_bytes: 1024,
        });
        assert.equal(renamed.status, 200);
        assert.equal(renamed.body.data.name, 'Edited');
        assert.equal(renamed.body.data.default_folder, 'a/b');
        assert.equal(renamed.body.data.total_storage_bytes, 1024);
        assert.equal(renamed.body.data.bucket_name, 'cubby-bucket', 'untouched fields stay');
        assert.ok(renamed.body.data.updated_at > created.updated_at, 'updated_at moves forward');
        const stored = await row(created.id);
        assert.deepEqual(service.openSecrets(stored), {
          access_key_id: ACCESS_KEY,
          secret_access_key: SECRET,
        });
        assert.notEqual(await service.driver(created.id), before, 'a new driver after the change');

        const secretOnly = await update(created.id, { secret_access_key: 'rotated-secret' });
        assert.equal(secretOnly.status, 200);
        assert.deepEqual(service.openSecrets(await row(created.id)), {
          access_key_id: ACCESS_KEY,
          secret_access_key: 'rotated-secret',
        });
        const cleared = await update(created.id, { custom_host: null, total_storage_bytes: null });
        assert.equal(cleared.body.data.custom_host, null);
        assert.equal(cleared.body.data.total_storage_bytes, null);
        await remove(created.id);
      });

      it('checks the merged config and refuses bad changes', async () => {
        const created = (await create(s3Body({ name: 'Strict' }))).body.data;
        const bad = async (body: unknown, field: string, message: RegExp) => {
          const res = await update(created.id, body, { ...admin, ...EN });
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.match(res.body.details?.[field] ?? res.body.message, message, JSON.stringify(res.body));
        };
        await bad({ endpoint_url: '' }, 'endpoint_url', /needs its endpoint/);
        await bad({ provider_type: 'Local', root_path: '/tmp/x' }, 'provider_type', /cannot switch/);
        await bad({ bucket_name: 'x' }, 'bucket_name', /3 to 63/);
        await bad({ signature_expires_in: 10 }, 'signature_expires_in', /60 to 604800/);
        await bad({}, 'body', /Nothing to update/);
        await bad({ provider_type: 'Cloudflare R2', endpoint_url: '' }, 'endpoint_url', /needs its endpoint/);
        // A switch between S3 providers is fine, with the new preset applied.
        const r2 = await update(created.id, { provider_type: 'Cloudflare R2', path_style: false });
        assert.equal(r2.status, 200);
        assert.equal(r2.body.data.region, 'auto');
        assert.equal(r2.body.data.path_style, 1);
        const localSwitch = await update(localId, { provider_type: 'AWS S3' }, { ...admin, ...EN });
        assert.equal(localSwitch.status, 400);
        assert.equal((await update(randomUUID(), { name: 'x' })).status, 404);
        assert.equal((await row(created.id)).name, 'Strict');
        await remove(created.id);
      });

      it('changes a local config folder and visibility', async () => {
        const root = path.join(t.database.dataDir, 'moved');
        const created = (
          await create({ name: 'Disk', provider_type: 'Local', root_path: path.join(root, 'a') })
        ).body.data;
        const moved = await update(created.id, { root_path: path.join(root, 'b'), is_public: 1 });
        assert.equal(moved.status, 200);
        assert.equal(moved.body.data.root_path, path.join(root, 'b'));
        assert.equal(moved.body.data.is_public, 1);
        assert.ok(fs.statSync(path.join(root, 'b')).isDirectory());
        await remove(created.id);
      });
    });

    describe('default', () => {
      it('set-default moves the one default; unknown is 404', async () => {
        const created = (await create(s3Body({ name: 'Next default' }))).body.data;
        const { status, body } = await setDefault(created.id);
        assert.equal(status, 200);
        assert.equal(body.data.is_default, 1);
        assert.deepEqual(await defaults(), [created.id]);
        assert.equal((await setDefault(randomUUID())).status, 404);
        assert.deepEqual(await defaults(), [created.id]);
        await setDefault(localId);
        assert.deepEqual(await defaults(), [localId]);
        await remove(created.id);
      });

      it('exactly one default after many concurrent set-default calls', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) ids.push((await create(s3Body({ name: `race ${i}` }))).body.data.id);
        for (let round = 0; round < 3; round++) {
          const results = await Promise.all([...ids, localId, ...ids].map((id) => setDefault(id)));
          assert.deepEqual(
            results.map((r) => r.status),
            results.map(() => 200),
          );
          const now = await defaults();
          assert.equal(now.length, 1, `round ${round}: ${now.length} defaults`);
        }
        await setDefault(localId);
        for (const id of ids) assert.equal((await remove(id)).status, 200);
      });
    });

    describe('delete', () => {
      it('409 with the file count while files use it; 404 unknown; then deleted', async () => {
        const created = (await create(s3Body({ name: 'Busy' }))).body.data;
        await insertFile(created.id);
        await insertFile(created.id);
        const zh = await remove(created.id);
        assert.equal(zh.status, 409);
        assert.equal(zh.body.error, 'CONFLICT');
        assert.equal(zh.body.message, '有文件正在使用此配置（2 个），无法删除');
        const en = await remove(created.id, { ...admin, ...EN });
        assert.match(en.body.message, /2 files use it/);
        await t.database.db.kysely.deleteFrom('files').where('storage_config_id', '=', created.id).execute();
        assert.equal((await remove(created.id)).status, 200);
        assert.equal((await remove(created.id)).status, 404);
        assert.equal((await call(`/api/s3-configs/${created.id}`, { headers: admin })).status, 404);
      });

      it('the default goes only when it is the last config', async () => {
        const other = (await create(s3Body({ name: 'Spare' }))).body.data;
        const refused = await remove(localId, { ...admin, ...EN });
        assert.equal(refused.status, 409);
        assert.match(refused.body.message, /set another one as default first/);
        await setDefault(other.id);
        assert.equal((await remove(localId)).status, 200);
        assert.deepEqual(await defaults(), [other.id]);
        // The last config may go; the next one created becomes the default.
        assert.equal((await remove(other.id)).status, 200);
        assert.equal((await list()).body.data.length, 0);
        const fresh = await create({
          name: 'Again',
          provider_type: 'Local',
          root_path: path.join(t.database.dataDir, 'again'),
        });
        assert.equal(fresh.body.data.is_default, 1);
        localId = fresh.body.data.id;
        const second = await create(s3Body({ name: 'Second' }));
        assert.equal(second.body.data.is_default, 0);
        await remove(second.body.data.id);
      });
    });

    describe('test endpoint, local disk', () => {
      it('passes every step and leaves nothing behind; notes last_used', async () => {
        const { status, body } = await probe(localId, { ...admin, ...EN, Origin: 'https://app.example' });
        assert.equal(status, 200);
        assert.equal(body.data.success, true, JSON.stringify(body.data.result.steps, null, 1));
        assert.equal(body.message, 'Local storage test passed (read and write work, browser upload works)');
        const steps = body.data.result.steps;
        assert.deepEqual(
          steps.map((s: { name: string }) => s.name),
          ['list', 'write', 'read', 'cors', 'etag', 'delete'],
        );
        for (const step of steps) {
          assert.equal(step.success, true, step.name);
          assert.equal(typeof step.duration_ms, 'number');
          assert.ok(step.note.length > 0);
        }
        assert.match(steps[3].note, /https:\/\/app\.example/);
        assert.equal(body.data.result.cors.uploadSupported, true);
        assert.equal(body.data.result.connectionInfo.provider, 'Local');
        const root = (await list()).body.data.find((c: { id: string }) => c.id === localId).root_path;
        assert.deepEqual(
          fs.readdirSync(root).filter((name) => name.includes('probe')),
          [],
          'the probe objects are gone',
        );
        assert.equal((await row(localId)).last_used, t.clock.now().toISOString());
        const zh = await probe(localId);
        assert.equal(zh.body.message, '本地存储配置测试成功 (读写权限均可用，前端上传测试通过)');
        assert.match(zh.body.data.result.steps[0].note, /已列出根目录/);
        assert.equal((await probe(randomUUID())).status, 404);
      });

      it('reports the preflight failing when CORS_ORIGINS leaves the origin out', async () => {
        const strict = await createTestApp(dialect, { CORS_ORIGINS: 'https://app.example' });
        try {
          const token = bearer(await strict.adminToken());
          const [config] = (await strict.json('/api/s3-configs', { headers: token })).body.data;
          const allowed = await strict.json(`/api/s3-configs/${config.id}/test`, {
            method: 'POST',
            headers: { ...token, Origin: 'https://app.example' },
          });
          assert.equal(allowed.body.data.success, true, JSON.stringify(allowed.body.data.result.steps));
          const { body } = await strict.json(`/api/s3-configs/${config.id}/test`, {
            method: 'POST',
            headers: { ...token, ...EN, Origin: 'https://elsewhere.example' },
          });
          const cors = body.data.result.steps.find((s: { name: string }) => s.name === 'cors');
          assert.equal(body.data.success, false);
          assert.equal(cors.success, false);
          assert.match(cors.note, /must allow origin https:\/\/elsewhere\.example/);
          assert.match(cors.error, /Access-Control-Allow-Origin: \(none\)/);
        } finally {
          await strict.close();
        }
      });
    });

    describe('test endpoint, S3 (radosgw)', { skip: S3_SKIP }, () => {
      let s3: S3Client;
      const buckets: string[] = [];
      before(async () => {
        // Presigned URLs are signed at the app's clock; a real server checks them against real time.
        t.clock.followRealTime();
        admin = bearer(await t.adminToken());
        s3 = s3AdminClient();
      });
      after(async () => {
        for (const bucket of buckets) await deleteBucket(s3, bucket);
        s3.destroy();
      });
      const bucket = async (withCors: boolean) => {
        const name = await createBucket(s3, 'cubby-cfg', { cors: withCors });
        buckets.push(name);
        return name;
      };
      const config = async (bucketName: string, patch: Record<string, unknown> = {}) => {
        const res = await create(
          s3Body({
            name: bucketName,
            endpoint_url: s3Env.endpoint,
            region: s3Env.region,
            bucket_name: bucketName,
            access_key_id: s3Env.accessKeyId,
            secret_access_key: s3Env.secretAccessKey,
            ...patch,
          }),
        );
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data.id as string;
      };
      const keysIn = async (bucketName: string) =>
        ((await s3.send(new ListObjectsV2Command({ Bucket: bucketName }))).Contents ?? []).map((o) => o.Key);

      it('a bucket whose CORS rules allow browser uploads passes every step', async () => {
        const name = await bucket(true);
        await s3.send(new PutObjectCommand({ Bucket: name, Key: 'cubby root/existing.txt', Body: 'hi' }));
        const id = await config(name, { default_folder: 'cubby root' });
        const { status, body } = await probe(id, { ...admin, ...EN, Origin: 'https://app.example' });
        assert.equal(status, 200);
        const steps = body.data.result.steps;
        assert.equal(body.data.success, true, JSON.stringify(steps, null, 1));
        assert.deepEqual(
          steps.map((s: { name: string; success: boolean }) => [s.name, s.success]),
          [
            ['list', true],
            ['write', true],
            ['read', true],
            ['cors', true],
            ['etag', true],
            ['delete', true],
          ],
        );
        assert.match(steps[0].note, /1 entries/);
        assert.equal(body.data.result.read.firstObjects[0].key, '/existing.txt');
        assert.equal(body.data.result.connectionInfo.bucket, name);
        assert.equal(body.data.result.connectionInfo.endpoint, s3Env.endpoint);
        assert.deepEqual(await keysIn(name), ['cubby root/existing.txt'], 'probe objects deleted');
        assert.ok((await row(id)).last_used);
        // CloudPaste 0.6's wording, word for word, in Chinese.
        const zh = await probe(id, { ...admin, Origin: 'https://app.example' });
        assert.equal(zh.body.message, 'S3配置测试成功 (读写权限均可用，前端上传测试通过)');
        await remove(id);
      });

      it('a bucket without CORS rules fails the browser steps with a useful note', async () => {
        const name = await bucket(false);
        const id = await config(name);
        const { status, body } = await probe(id, { ...admin, ...EN, Origin: 'https://app.example' });
        assert.equal(status, 200);
        assert.equal(body.data.success, false);
        const byName = Object.fromEntries(body.data.result.steps.map((s: { name: string }) => [s.name, s]));
        for (const ok of ['list', 'write', 'read', 'delete']) assert.equal(byName[ok].success, true, ok);
        assert.equal(byName.cors.success, false);
        assert.match(byName.cors.note, /CORS rules must allow origin https:\/\/app\.example/);
        assert.equal(byName.etag.success, false);
        assert.match(byName.etag.note, /Access-Control-Allow-Origin|ETag|upload failed/);
        assert.match(body.message, /partly passed \(failed: cors, etag\)/);
        assert.equal(body.data.result.cors.uploadSupported, false);
        assert.deepEqual(await keysIn(name), [], 'probe objects deleted');
        await remove(id);
      });

      it('CORS rules that hide the ETag fail only the ETag step', async () => {
        const name = await bucket(false);
        await s3.send(
          new PutBucketCorsCommand({
            Bucket: name,
            CORSConfiguration: {
              CORSRules: [{ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'PUT'], AllowedHeaders: ['*'] }],
            },
          }),
        );
        const id = await config(name);
        const { body } = await probe(id, { ...admin, ...EN });
        const byName = Object.fromEntries(body.data.result.steps.map((s: { name: string }) => [s.name, s]));
        assert.equal(byName.cors.success, true, JSON.stringify(byName.cors));
        assert.equal(byName.etag.success, false);
        assert.match(byName.etag.note, /do not list ETag in Access-Control-Expose-Headers/);
        assert.deepEqual(await keysIn(name), []);
        await remove(id);
      });

      it('wrong credentials and an unreachable endpoint fail with notes, never the secret', async () => {
        const name = await bucket(true);
        const wrong = await config(name, { secret_access_key: SECRET });
        const denied = await probe(wrong, { ...admin, ...EN });
        assert.equal(denied.body.data.success, false);
        assert.match(denied.body.message, /^S3 storage test failed/);
        const [listStep, writeStep] = denied.body.data.result.steps;
        assert.equal(listStep.success, false);
        assert.match(listStep.error, /refused the credentials/);
        assert.equal(writeStep.success, false);
        await remove(wrong);

        const down = await config(name, { endpoint_url: 'http://127.0.0.1:9' });
        const unreachable = await probe(down, { ...admin, ...EN });
        const steps = unreachable.body.data.result.steps;
        assert.equal(steps[0].success, false);
        assert.match(steps[0].error, /cannot be reached/);
        for (const step of steps.slice(1, 5)) assert.match(step.note, /Skipped/, step.name);
        await remove(down);
      });
    });

    describe('secrets', () => {
      it('no answer and no log line holds a secret or a full access key', async () => {
        assert.ok(answers.length > 50);
        const secrets = [
          SECRET,
          ACCESS_KEY,
          'rotated-secret',
          'new-secret',
          ...(s3Env.secretAccessKey ? [s3Env.secretAccessKey] : []),
        ];
        for (const secret of secrets) {
          assert.ok(!answers.some((a) => a.includes(secret)), `answer holds ${secret}`);
          assert.ok(!t.logLines.some((l) => l.includes(secret)), `log holds ${secret}`);
        }
        const sealed = await t.database.db.kysely.selectFrom('storage_configs').select('secrets').execute();
        for (const { secrets: value } of sealed) {
          if (value)
            assert.ok(!answers.some((a) => a.includes(value)) && !t.logLines.some((l) => l.includes(value)));
        }
      });
    });
  });
}
