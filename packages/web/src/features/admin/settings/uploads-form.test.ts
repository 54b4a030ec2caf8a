/**
 * The "Uploads" settings rules (docs/product.md §3 "System settings", §5 "largest upload": greater
 * than 0).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toSystemSettings, type SystemSettings } from './api/system-settings.ts';
import { validateUploads, valuesOf, type UploadsFormValues } from './uploads-form.ts';

const base: UploadsFormValues = {
  maxSize: '100',
  maxSizeUnit: 'MB',
  urlAllowlist: '',
  webdavUploadMode: 'auto',
  officePreview: false,
  publicPastes: false,
  fsUploadShare: true,
  webdavUploadShare: false,
};
const stored: SystemSettings = {
  maxUploadBytes: 100 * 1024 ** 2,
  webdavUploadMode: 'auto',
  urlAllowlist: '',
  officePreviewEnabled: false,
  publicPastesEnabled: false,
  fsUploadShare: true,
  webdavUploadShare: false,
  auditRetentionDays: 90,
  requireTwoFactor: 'off',
  guestEnabled: false,
  guestPaths: '',
  guestWrite: false,
};

test('the largest upload must be a number greater than 0', () => {
  for (const bad of ['', '0', '-1', 'abc', '1e3', '0.0']) {
    const result = validateUploads({ ...base, maxSize: bad }, stored);
    assert.deepEqual(
      result.ok ? null : result.errors.maxSize,
      { key: 'admin.settings.uploads.errors.maxSizeInvalid' },
      bad,
    );
  }
  assert.deepEqual(validateUploads({ ...base, maxSize: ' 2.5 ', maxSizeUnit: 'GB' }, stored), {
    ok: true,
    input: { max_upload_size: 2.5, max_upload_size_unit: 'GB' },
  });
});

test('the server range applies: at least 1 KB, at most 1 TB', () => {
  const tooSmall = validateUploads({ ...base, maxSize: '0.5', maxSizeUnit: 'KB' }, stored);
  assert.deepEqual(tooSmall.ok ? null : tooSmall.errors.maxSize, {
    key: 'admin.settings.uploads.errors.maxSizeRange',
  });
  const tooLarge = validateUploads({ ...base, maxSize: '1025', maxSizeUnit: 'GB' }, stored);
  assert.equal(tooLarge.ok, false);
  assert.equal(validateUploads({ ...base, maxSize: '1024', maxSizeUnit: 'GB' }, stored).ok, true);
  assert.equal(validateUploads({ ...base, maxSize: '1', maxSizeUnit: 'KB' }, stored).ok, true);
});

test('allowlist entries are hosts, host:port or CIDR, one per line; the first bad one is named', () => {
  const good = validateUploads(
    { ...base, urlAllowlist: ' files.lan \n127.0.0.1:8080, 10.0.0.0/8\n\n[::1]:9000\nfd00::/8' },
    stored,
  );
  assert.equal(
    good.ok && good.input.url_allowlist,
    'files.lan\n127.0.0.1:8080\n10.0.0.0/8\n[::1]:9000\nfd00::/8',
  );
  const bad = validateUploads({ ...base, urlAllowlist: 'files.lan\nhttp://x.lan/\n10.0.0.0/99' }, stored);
  assert.deepEqual(bad.ok ? null : bad.errors.urlAllowlist, {
    key: 'admin.settings.uploads.errors.allowlistEntry',
    entry: 'http://x.lan/',
  });
});

test('the stored settings fill the form in the largest whole unit', () => {
  const settings = toSystemSettings([
    { key: 'max_upload_size', value: '2048' },
    { key: 'max_upload_bytes', value: String(2 * 1024 ** 3) },
    { key: 'webdav_upload_mode', value: 'multipart' },
    { key: 'url_allowlist', value: 'a.lan\n10.0.0.0/8' },
    { key: 'office_preview_enabled', value: 'true' },
    { key: 'public_pastes_enabled', value: 'true' },
    { key: 'fs_upload_share', value: 'false' },
    { key: 'webdav_upload_share', value: 'true' },
  ]);
  assert.deepEqual(valuesOf(settings), {
    maxSize: '2',
    maxSizeUnit: 'GB',
    urlAllowlist: 'a.lan\n10.0.0.0/8',
    webdavUploadMode: 'multipart',
    officePreview: true,
    publicPastes: true,
    fsUploadShare: false,
    webdavUploadShare: true,
  });
  // Nothing stored: the defaults (100 MB, auto, no Office preview, no public pastes; explorer and API uploads
  // published as shares, WebDAV uploads not, as CloudPaste does).
  assert.deepEqual(valuesOf(toSystemSettings([])), {
    maxSize: '100',
    maxSizeUnit: 'MB',
    urlAllowlist: '',
    webdavUploadMode: 'auto',
    officePreview: false,
    publicPastes: false,
    fsUploadShare: true,
    webdavUploadShare: false,
  });
});

test('who must sign in with two factors: a stored policy, else off', () => {
  assert.equal(toSystemSettings([{ key: 'require_two_factor', value: 'admins' }]).requireTwoFactor, 'admins');
  assert.equal(toSystemSettings([{ key: 'require_two_factor', value: 'sometimes' }]).requireTwoFactor, 'off');
  assert.equal(toSystemSettings([]).requireTwoFactor, 'off');
});

test('only what changed is sent; the same size in another unit is no change', () => {
  assert.deepEqual(validateUploads(base, stored), { ok: true, input: {} });
  assert.deepEqual(validateUploads({ ...base, maxSize: '102400', maxSizeUnit: 'KB' }, stored), {
    ok: true,
    input: {},
  });
  assert.deepEqual(validateUploads({ ...base, webdavUploadMode: 'multipart' }, stored), {
    ok: true,
    input: { webdav_upload_mode: 'multipart' },
  });
  const listed = { ...stored, urlAllowlist: 'a.lan\nb.lan' };
  assert.deepEqual(validateUploads({ ...base, urlAllowlist: 'a.lan, b.lan' }, listed), {
    ok: true,
    input: {},
  });
  assert.deepEqual(validateUploads({ ...base, urlAllowlist: '' }, listed), {
    ok: true,
    input: { url_allowlist: '' },
  });
});

test('Office preview is sent only when it changes, as a boolean', () => {
  assert.deepEqual(validateUploads({ ...base, officePreview: true }, stored), {
    ok: true,
    input: { office_preview_enabled: true },
  });
  const on = { ...stored, officePreviewEnabled: true };
  assert.deepEqual(validateUploads({ ...base, officePreview: true }, on), { ok: true, input: {} });
  assert.deepEqual(validateUploads(base, on), { ok: true, input: { office_preview_enabled: false } });
  // Only the server's "true" turns it on.
  assert.equal(toSystemSettings([{ key: 'office_preview_enabled', value: '1' }]).officePreviewEnabled, false);
});

test('the upload-share switches are sent only when they change, each on its own', () => {
  assert.deepEqual(validateUploads({ ...base, fsUploadShare: false }, stored), {
    ok: true,
    input: { fs_upload_share: false },
  });
  assert.deepEqual(validateUploads({ ...base, webdavUploadShare: true }, stored), {
    ok: true,
    input: { webdav_upload_share: true },
  });
  assert.deepEqual(validateUploads({ ...base, fsUploadShare: false }, { ...stored, fsUploadShare: false }), {
    ok: true,
    input: {},
  });
});
