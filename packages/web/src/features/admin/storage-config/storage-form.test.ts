/**
 * The storage config dialogs' rules (docs/product.md §3 "Storage config",
 * docs/storage.md, "Adding an S3 bucket").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageConfig } from './api/types.ts';
import {
  applyProvider,
  emptyStorageForm,
  parseQuota,
  providerOf,
  validateStorageForm,
  valuesOf,
  type StorageFormValues,
} from './storage-form.ts';

const s3Form = (patch: Partial<StorageFormValues> = {}): StorageFormValues => ({
  ...emptyStorageForm('Other S3 Compatible'),
  name: 'Ceph',
  endpointUrl: 'http://127.0.0.1:7480',
  bucketName: 'cubby-files',
  accessKeyId: 'AKIA0000',
  secretAccessKey: 'secret',
  ...patch,
});

test('an empty form names every required S3 field', () => {
  const result = validateStorageForm(emptyStorageForm('Other S3 Compatible'), 'create');
  assert.deepEqual(result, {
    ok: false,
    errors: {
      name: 'admin.storage.errors.nameRequired',
      endpointUrl: 'admin.storage.errors.endpointRequired',
      bucketName: 'admin.storage.errors.bucketRequired',
      accessKeyId: 'admin.storage.errors.accessKeyRequired',
      secretAccessKey: 'admin.storage.errors.secretRequired',
    },
  });
});

test('a valid S3-compatible config becomes the POST body the server expects', () => {
  const result = validateStorageForm(
    s3Form({
      name: '  Ceph  ',
      region: 'us-east-1',
      defaultFolder: '/shares//2026/',
      customHost: 'https://cdn.example.com',
      signatureExpiresIn: '900',
      quotaValue: '1.5',
      quotaUnit: 'GB',
      isPublic: true,
    }),
    'create',
  );
  assert.deepEqual(result, {
    ok: true,
    input: {
      name: 'Ceph',
      provider_type: 'Other S3 Compatible',
      endpoint_url: 'http://127.0.0.1:7480',
      bucket_name: 'cubby-files',
      region: 'us-east-1',
      path_style: true,
      default_folder: 'shares/2026',
      custom_host: 'https://cdn.example.com',
      signature_expires_in: 900,
      total_storage_bytes: 1.5 * 1024 ** 3,
      is_public: true,
      access_key_id: 'AKIA0000',
      secret_access_key: 'secret',
    },
  });
  // The server trims a trailing slash off addresses; the form sends what it will store.
  const slash = validateStorageForm(s3Form({ endpointUrl: 'http://127.0.0.1:7480/' }), 'create');
  assert.equal(slash.ok && slash.input.endpoint_url, 'http://127.0.0.1:7480');
});

test('edit: empty credentials are left out, so the stored ones are kept', () => {
  const result = validateStorageForm(s3Form({ accessKeyId: '', secretAccessKey: '' }), 'edit');
  assert.equal(result.ok, true);
  assert.equal(result.ok && 'access_key_id' in result.input, false);
  assert.equal(result.ok && 'secret_access_key' in result.input, false);
  // Creating still needs both.
  const create = validateStorageForm(s3Form({ accessKeyId: '', secretAccessKey: '' }), 'create');
  assert.deepEqual(create.ok ? null : Object.keys(create.errors).sort(), ['accessKeyId', 'secretAccessKey']);
  // A retyped secret alone replaces only the secret.
  const secretOnly = validateStorageForm(s3Form({ accessKeyId: '', secretAccessKey: 'new' }), 'edit');
  assert.equal(secretOnly.ok && secretOnly.input.secret_access_key, 'new');
  assert.equal(secretOnly.ok && 'access_key_id' in secretOnly.input, false);
});

test('endpoint and custom host must be http(s) URLs; bucket and region names are checked', () => {
  const result = validateStorageForm(
    s3Form({
      endpointUrl: 'https://<account-id>.r2.cloudflarestorage.com',
      customHost: 'ftp://cdn.example.com',
      bucketName: 'a',
      region: 'us east',
    }),
    'create',
  );
  assert.deepEqual(result, {
    ok: false,
    errors: {
      endpointUrl: 'admin.storage.errors.urlInvalid',
      customHost: 'admin.storage.errors.urlInvalid',
      bucketName: 'admin.storage.errors.bucketInvalid',
      region: 'admin.storage.errors.regionInvalid',
    },
  });
  for (const bad of ['-bucket', 'bucket-', 'with space', 'x'.repeat(64)]) {
    const r = validateStorageForm(s3Form({ bucketName: bad }), 'create');
    assert.equal(r.ok ? null : r.errors.bucketName, 'admin.storage.errors.bucketInvalid', bad);
  }
});

test('R2 needs its account endpoint and always signs with region auto, path-style', () => {
  const missing = validateStorageForm(s3Form({ providerType: 'Cloudflare R2', endpointUrl: '' }), 'create');
  assert.equal(missing.ok ? null : missing.errors.endpointUrl, 'admin.storage.errors.endpointRequired');
  const ok = validateStorageForm(
    s3Form({
      providerType: 'Cloudflare R2',
      endpointUrl: 'https://0123abcd.r2.cloudflarestorage.com',
      region: 'eu-west-1',
      pathStyle: false,
    }),
    'create',
  );
  assert.equal(ok.ok && ok.input.region, 'auto');
  assert.equal(ok.ok && ok.input.path_style, true);
});

test('B2 needs its region or its endpoint; AWS needs neither', () => {
  const b2 = s3Form({ providerType: 'Backblaze B2', endpointUrl: '', region: '' });
  assert.equal(
    ((r) => (r.ok ? null : r.errors.region))(validateStorageForm(b2, 'create')),
    'admin.storage.errors.regionRequired',
  );
  assert.equal(validateStorageForm({ ...b2, region: 'us-west-004' }, 'create').ok, true);
  assert.equal(
    validateStorageForm({ ...b2, endpointUrl: 'https://s3.us-west-004.backblazeb2.com' }, 'create').ok,
    true,
  );
  const aws = validateStorageForm(s3Form({ providerType: 'AWS S3', endpointUrl: '', region: '' }), 'create');
  assert.equal(aws.ok, true);
});

test('switching provider applies its preset but keeps what the user changed', () => {
  const other = emptyStorageForm('Other S3 Compatible');
  assert.equal(other.pathStyle, true);
  const aws = applyProvider(other, 'AWS S3');
  assert.equal(aws.region, 'us-east-1');
  assert.equal(aws.pathStyle, false);
  const r2 = applyProvider(aws, 'Cloudflare R2');
  assert.equal(r2.region, 'auto');
  assert.equal(r2.pathStyle, true);
  const custom = applyProvider({ ...other, region: 'eu-central-1', pathStyle: false, name: 'x' }, 'AWS S3');
  assert.equal(custom.region, 'eu-central-1');
  assert.equal(custom.pathStyle, false);
  assert.equal(custom.name, 'x');
});

test('local disk needs an absolute folder on the server', () => {
  const local = { ...emptyStorageForm('Local'), name: 'Disk' };
  const missing = validateStorageForm(local, 'create');
  assert.deepEqual(missing, { ok: false, errors: { rootPath: 'admin.storage.errors.rootPathRequired' } });
  for (const bad of ['relative/dir', '/srv/../etc', '~/files']) {
    const r = validateStorageForm({ ...local, rootPath: bad }, 'create');
    assert.equal(r.ok ? null : r.errors.rootPath, 'admin.storage.errors.rootPathInvalid', bad);
  }
  assert.deepEqual(validateStorageForm({ ...local, rootPath: ' /srv/cubby ', isPublic: true }, 'create'), {
    ok: true,
    input: {
      name: 'Disk',
      provider_type: 'Local',
      root_path: '/srv/cubby',
      signature_expires_in: 3600,
      total_storage_bytes: null,
      is_public: true,
    },
  });
  assert.equal(validateStorageForm({ ...local, rootPath: 'C:\\data\\cubby' }, 'create').ok, true);
});

test('signature expiry is 60 s to 7 days; the quota is empty (none) or a positive size', () => {
  for (const bad of ['', '0', '59', '-5', '1.5', '604801', 'abc']) {
    const r = validateStorageForm(s3Form({ signatureExpiresIn: bad }), 'create');
    assert.equal(r.ok ? null : r.errors.signatureExpiresIn, 'admin.storage.errors.signatureInvalid', bad);
  }
  for (const good of ['60', '604800'])
    assert.equal(validateStorageForm(s3Form({ signatureExpiresIn: good }), 'create').ok, true);
  assert.equal(parseQuota('', 'GB'), null);
  assert.equal(parseQuota('10', 'GB'), 10 * 1024 ** 3);
  assert.equal(parseQuota('512', 'MB'), 512 * 1024 ** 2);
  for (const bad of ['0', '-1', '1e3', 'ten']) assert.equal(parseQuota(bad, 'GB'), undefined, bad);
  const result = validateStorageForm(s3Form({ signatureExpiresIn: '0', quotaValue: '0' }), 'create');
  assert.deepEqual(result.ok ? null : result.errors, {
    signatureExpiresIn: 'admin.storage.errors.signatureInvalid',
    quotaValue: 'admin.storage.errors.quotaInvalid',
  });
});

test('a default folder may not climb out of the bucket', () => {
  const folder = (defaultFolder: string) => {
    const r = validateStorageForm(s3Form({ defaultFolder }), 'create');
    return r.ok ? r.input.default_folder : null;
  };
  assert.equal(folder(' /a//b/ '), 'a/b');
  assert.equal(folder(''), '');
  assert.equal(folder('a/../b'), null);
  const result = validateStorageForm(s3Form({ defaultFolder: '../other' }), 'create');
  assert.equal(result.ok ? null : result.errors.defaultFolder, 'admin.storage.errors.folderInvalid');
});

test('a stored config fills the edit form without credentials', () => {
  const stored: StorageConfig = {
    id: 'c1',
    name: 'R2 bucket',
    driver: 's3',
    storage_type: 'S3',
    provider_type: 'Cloudflare R2',
    endpoint_url: 'https://acc.r2.cloudflarestorage.com',
    bucket_name: 'shares',
    region: 'auto',
    path_style: 1,
    default_folder: 'up',
    custom_host: null,
    is_public: 1,
    is_default: 0,
    total_storage_bytes: 10 * 1024 ** 3,
    signature_expires_in: 7200,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_used: null,
    access_key_id_masked: 'AKIA…WXYZ',
    has_secret: true,
  };
  const values = valuesOf(stored);
  assert.equal(values.providerType, 'Cloudflare R2');
  assert.equal(values.accessKeyId, '');
  assert.equal(values.secretAccessKey, '');
  assert.equal(values.quotaValue, '10');
  assert.equal(values.quotaUnit, 'GB');
  assert.equal(values.signatureExpiresIn, '7200');
  assert.equal(values.isPublic, true);
  assert.equal(validateStorageForm(values, 'edit').ok, true);
  assert.equal(providerOf('Other'), 'Other S3 Compatible');
  assert.equal(providerOf('whatever', 'local'), 'Local');
});
