/** The file share edit dialog's rules: only what changed is sent, with the text-share field rules. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileItem } from '@cubby/shared';
import { fileStatus, settingsOf, validateFileUpdate } from './file-form.ts';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

const file: FileItem = {
  id: 'f1',
  filename: 'report.pdf',
  slug: 'report',
  storage_path: 'report.pdf',
  mimetype: 'application/pdf',
  size: 1024,
  remark: 'Q4',
  created_at: '2025-12-01T00:00:00.000Z',
  updated_at: '2025-12-01T00:00:00.000Z',
  views: 3,
  max_views: 10,
  expires_at: null,
  etag: null,
  has_password: true,
  created_by: 'admin',
  use_proxy: 1,
  s3_config_id: 'c1',
  s3_config_name: 'Local storage',
  s3_provider_type: 'Local',
  key_name: null,
  status: 'active',
  source: 'share',
  keeps_file: false,
  url: '/file/report',
};

test('an untouched form changes nothing (so the view count is not reset)', () => {
  assert.deepEqual(validateFileUpdate(settingsOf(file), true, file, NOW), { ok: true, input: {} });
});

test('each changed field is sent in the server’s terms', () => {
  const values = {
    ...settingsOf(file),
    remark: ' New remark ',
    slug: 'new-link',
    expiry: '1d' as const,
    maxViews: '',
    password: 'pw',
  };
  assert.deepEqual(validateFileUpdate(values, false, file, NOW), {
    ok: true,
    input: {
      remark: 'New remark',
      slug: 'new-link',
      expires_at: '2026-01-02T00:00:00.000Z',
      max_views: 0,
      password: 'pw',
      use_proxy: 0,
    },
  });
});

test('removing the password sends null; "never" sends a null expiry; an emptied suffix asks for a new one', () => {
  const values = { ...settingsOf(file), clearPassword: true, expiry: 'never' as const, slug: '' };
  assert.deepEqual(validateFileUpdate(values, true, file, NOW), {
    ok: true,
    input: { password: null, expires_at: null, slug: '' },
  });
});

test('bad values are refused with the share field messages', () => {
  const values = {
    ...settingsOf(file),
    slug: 'not valid!',
    maxViews: '-1',
    expiry: 'custom' as const,
    customExpiry: '2025-06-01T10:00',
    remark: 'x'.repeat(501),
  };
  assert.deepEqual(validateFileUpdate(values, true, file, NOW), {
    ok: false,
    errors: {
      slug: 'pastes.errors.slugInvalid',
      maxViews: 'pastes.errors.maxViewsInvalid',
      customExpiry: 'pastes.errors.customExpiryPast',
      remark: 'pastes.errors.remarkTooLong',
    },
  });
  const reserved = validateFileUpdate({ ...settingsOf(file), slug: 'Admin' }, true, file, NOW);
  assert.deepEqual(reserved, { ok: false, errors: { slug: 'pastes.errors.slugReserved' } });
  const long = validateFileUpdate({ ...settingsOf(file), slug: 'a'.repeat(51) }, true, file, NOW);
  assert.deepEqual(long, { ok: false, errors: { slug: 'pastes.errors.slugTooLong' } });
});

test('a share is expired past its expiry and used up at its view limit', () => {
  assert.equal(fileStatus({ expires_at: null, max_views: 0, views: 99 }, NOW), 'active');
  assert.equal(
    fileStatus({ expires_at: '2025-12-31T23:59:59.000Z', max_views: 0, views: 0 }, NOW),
    'expired',
  );
  assert.equal(fileStatus({ expires_at: null, max_views: 3, views: 3 }, NOW), 'used_up');
  assert.equal(fileStatus({ expires_at: null, max_views: 3, views: 2 }, NOW), 'active');
});
