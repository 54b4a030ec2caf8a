/**
 * The mount dialog's rules (docs/product.md §5 "Mount"), with the schema the server uses, and
 * the list search.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Mount } from '@cubby/shared';
import { emptyMountForm, filterMounts, reservedPrefixOf, validateMountForm, valuesOf } from './mount-form.ts';

const valid = { ...emptyMountForm('cfg-1'), name: 'Photos', mountPath: '/photos' };

test('a filled form becomes the body the server takes (storage_type S3, numbers, no empty remark)', () => {
  const result = validateMountForm({ ...valid, name: '  Photos ', sortOrder: ' -2 ', cacheTtl: '0' });
  assert.deepEqual(result, {
    ok: true,
    input: {
      name: 'Photos',
      storage_type: 'S3',
      storage_config_id: 'cfg-1',
      mount_path: '/photos',
      remark: null,
      is_active: true,
      sort_order: -2,
      cache_ttl: 0,
      link_policy: 'proxy',
      custom_host: null,
    },
  });
  // Empty number fields take their defaults.
  const defaults = validateMountForm({ ...valid, sortOrder: '', cacheTtl: ' ', remark: 'note' });
  assert.ok(defaults.ok);
  assert.deepEqual(
    [defaults.input.sort_order, defaults.input.cache_ttl, defaults.input.remark],
    [0, 300, 'note'],
  );
});

test('every rule answers with its own message key, on its field', () => {
  const cases: Array<[Partial<typeof valid>, string, string]> = [
    [{ name: ' ' }, 'name', 'admin.mounts.errors.nameRequired'],
    [{ name: 'n'.repeat(51) }, 'name', 'admin.mounts.errors.nameTooLong'],
    [{ storageConfigId: '' }, 'storageConfigId', 'admin.mounts.errors.storageRequired'],
    [{ mountPath: '' }, 'mountPath', 'admin.mounts.errors.pathRequired'],
    [{ mountPath: 'photos' }, 'mountPath', 'admin.mounts.errors.pathLeadingSlash'],
    [{ mountPath: '/photos/' }, 'mountPath', 'admin.mounts.errors.pathTrailingSlash'],
    [{ mountPath: '/a//b' }, 'mountPath', 'admin.mounts.errors.pathDoubleSlash'],
    [{ mountPath: '/a b' }, 'mountPath', 'admin.mounts.errors.pathChars'],
    [{ mountPath: '/a/../b' }, 'mountPath', 'admin.mounts.errors.pathChars'],
    [{ mountPath: `/${'a'.repeat(100)}` }, 'mountPath', 'admin.mounts.errors.pathTooLong'],
    [{ mountPath: '/etc/x' }, 'mountPath', 'admin.mounts.errors.pathSystemReserved'],
    [{ mountPath: '/api' }, 'mountPath', 'admin.mounts.errors.pathAppReserved'],
    [{ cacheTtl: '-1' }, 'cacheTtl', 'admin.mounts.errors.cacheTtlInvalid'],
    [{ cacheTtl: '86401' }, 'cacheTtl', 'admin.mounts.errors.cacheTtlInvalid'],
    [{ cacheTtl: '1.5' }, 'cacheTtl', 'admin.mounts.errors.cacheTtlInvalid'],
    [{ cacheTtl: 'abc' }, 'cacheTtl', 'admin.mounts.errors.cacheTtlInvalid'],
    [{ sortOrder: '1e3' }, 'sortOrder', 'admin.mounts.errors.sortOrderInvalid'],
    [{ remark: 'r'.repeat(501) }, 'remark', 'admin.mounts.errors.remarkTooLong'],
  ];
  for (const [patch, field, key] of cases) {
    const result = validateMountForm({ ...valid, ...patch });
    assert.equal(result.ok, false, JSON.stringify(patch));
    if (!result.ok) assert.deepEqual(result.errors, { [field]: key }, JSON.stringify(patch));
  }
  // Several problems: one message per field.
  const many = validateMountForm({ ...valid, name: '', mountPath: 'x', cacheTtl: '-5' });
  assert.ok(!many.ok);
  assert.deepEqual(Object.keys(many.errors).sort(), ['cacheTtl', 'mountPath', 'name']);
});

test('the limits themselves pass: /, 50 characters of name, 100 of path, 86400 seconds', () => {
  for (const patch of [
    { mountPath: '/' },
    { mountPath: '/中文/路径' },
    { name: 'n'.repeat(50) },
    { mountPath: `/${'a'.repeat(99)}` },
    { cacheTtl: '86400' },
    { mountPath: '/binary' },
  ]) {
    assert.equal(validateMountForm({ ...valid, ...patch }).ok, true, JSON.stringify(patch));
  }
});

test('the reserved prefix a path hits is named for the message', () => {
  assert.equal(reservedPrefixOf('/etc/nginx'), '/etc');
  assert.equal(reservedPrefixOf(' /API '), '/api');
  assert.equal(reservedPrefixOf('/photos'), '');
});

const mountOf = (patch: Partial<Mount>): Mount => ({
  id: 'm',
  name: 'Photos',
  storage_type: 'Local',
  storage_config_id: 'cfg-1',
  storage_config_name: 'Local storage',
  mount_path: '/photos',
  remark: null,
  is_active: true,
  created_by: '1',
  sort_order: 0,
  cache_ttl: 300,
  link_policy: 'proxy',
  custom_host: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_used: null,
  ...patch,
});

test('a mount fills the edit form as it is', () => {
  assert.deepEqual(valuesOf(mountOf({ remark: 'x', sort_order: -1, cache_ttl: 0, is_active: false })), {
    name: 'Photos',
    storageConfigId: 'cfg-1',
    mountPath: '/photos',
    remark: 'x',
    sortOrder: '-1',
    cacheTtl: '0',
    isActive: false,
    linkPolicy: 'proxy',
    customHost: '',
  });
});

test('a custom-host policy needs its address; the other policies keep one typed but do not need it', () => {
  const base = { ...emptyMountForm('cfg-1'), name: 'CDN', mountPath: '/cdn' };
  const missing = validateMountForm({ ...base, linkPolicy: 'custom_host' });
  assert.deepEqual(missing.ok ? null : missing.errors, {
    customHost: 'admin.mounts.errors.customHostRequired',
  });
  const bad = validateMountForm({ ...base, linkPolicy: 'custom_host', customHost: 'ftp://cdn.example.com' });
  assert.deepEqual(bad.ok ? null : bad.errors, { customHost: 'admin.mounts.errors.customHostInvalid' });
  const good = validateMountForm({
    ...base,
    linkPolicy: 'custom_host',
    customHost: 'https://cdn.example.com/f/',
  });
  assert.ok(good.ok);
  assert.deepEqual(
    [good.input.link_policy, good.input.custom_host],
    ['custom_host', 'https://cdn.example.com/f'],
  );
  assert.ok(validateMountForm({ ...base, linkPolicy: 'direct' }).ok);
});

test('search matches name, path, storage name and remark, ignoring case and spaces', () => {
  const mounts = [
    mountOf({ id: 'a', name: 'Photos', mount_path: '/photos' }),
    mountOf({ id: 'b', name: 'Docs', mount_path: '/team/docs', remark: 'Quarterly REPORTS' }),
    mountOf({ id: 'c', name: 'Backup', mount_path: '/backup', storage_config_name: 'Ceph bucket' }),
  ];
  const ids = (query: string) => filterMounts(mounts, query).map((m) => m.id);
  assert.deepEqual(ids(''), ['a', 'b', 'c']);
  assert.deepEqual(ids('  '), ['a', 'b', 'c']);
  assert.deepEqual(ids('PHOTO'), ['a']);
  assert.deepEqual(ids('/team'), ['b']);
  assert.deepEqual(ids('reports'), ['b']);
  assert.deepEqual(ids(' ceph '), ['c']);
  assert.deepEqual(ids('nothing'), []);
});
