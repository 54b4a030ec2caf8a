/** The share settings of an upload: the spec's validation rules and what is sent to the server. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EMPTY_UPLOAD_SETTINGS,
  expiryHours,
  isWithinLimit,
  normalizeSubfolder,
  validateUploadSettings,
  type UploadSettingsValues,
} from './upload-form.ts';

const values = (over: Partial<UploadSettingsValues>): UploadSettingsValues => ({
  ...EMPTY_UPLOAD_SETTINGS,
  ...over,
});

test('empty settings upload with a random link, no expiry and unlimited views', () => {
  assert.deepEqual(validateUploadSettings(EMPTY_UPLOAD_SETTINGS, 3), {
    ok: true,
    input: { expires_in: 0, max_views: 0 },
  });
});

test('every field is sent in the server names, trimmed', () => {
  const result = validateUploadSettings(
    values({
      slug: ' my-file_1 ',
      path: '/docs//2026/',
      remark: ' notes ',
      password: ' pw ',
      expiry: '7d',
      maxViews: '5',
    }),
    1,
  );
  assert.deepEqual(result, {
    ok: true,
    input: {
      slug: 'my-file_1',
      path: 'docs/2026',
      remark: 'notes',
      password: ' pw ',
      expires_in: 168,
      max_views: 5,
    },
  });
});

test('the slug follows the share rules: characters, length, reserved words', () => {
  const error = (slug: string) => {
    const result = validateUploadSettings(values({ slug }), 1);
    return result.ok ? null : result.errors.slug;
  };
  assert.equal(error('a b'), 'pastes.errors.slugInvalid');
  assert.equal(error('文件'), 'pastes.errors.slugInvalid');
  assert.equal(error('x'.repeat(51)), 'pastes.errors.slugTooLong');
  assert.equal(error('Admin'), 'pastes.errors.slugReserved');
  assert.equal(error('x'.repeat(50)), null);
});

test('a custom link suffix needs exactly one file', () => {
  const result = validateUploadSettings(values({ slug: 'report' }), 2);
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.errors.slug, 'upload.errors.slugOneFile');
});

test('max views must be a whole number 0 or more; remark and password have limits', () => {
  const errors = (over: Partial<UploadSettingsValues>) => {
    const result = validateUploadSettings(values(over), 1);
    return result.ok ? {} : result.errors;
  };
  assert.equal(errors({ maxViews: '-1' }).maxViews, 'pastes.errors.maxViewsInvalid');
  assert.equal(errors({ maxViews: '1.5' }).maxViews, 'pastes.errors.maxViewsInvalid');
  assert.deepEqual(errors({ maxViews: '0' }), {});
  assert.equal(errors({ remark: 'r'.repeat(501) }).remark, 'pastes.errors.remarkTooLong');
  assert.equal(errors({ password: 'p'.repeat(201) }).password, 'pastes.errors.passwordTooLong');
});

test('expiry presets are hours; a custom expiry is a whole number of hours in range', () => {
  assert.equal(expiryHours('1h', ''), 1);
  assert.equal(expiryHours('1d', ''), 24);
  assert.equal(expiryHours('30d', ''), 720);
  assert.equal(expiryHours('never', ''), 0);
  assert.equal(expiryHours('custom', '36'), 36);
  for (const bad of ['', '0', '-2', '1.5', 'abc', '99999999'])
    assert.equal(expiryHours('custom', bad), null, bad);
  const result = validateUploadSettings(values({ expiry: 'custom', customHours: '0' }), 1);
  assert.equal(!result.ok && result.errors.customHours, 'upload.errors.customHoursInvalid');
});

test('a sub-folder is normalised and may not climb out or hold control characters', () => {
  assert.equal(normalizeSubfolder(''), '');
  assert.equal(normalizeSubfolder('/'), '');
  assert.equal(normalizeSubfolder('a\\b/./c/'), 'a/b/c');
  assert.equal(normalizeSubfolder('照片/2026'), '照片/2026');
  assert.equal(normalizeSubfolder('../etc'), null);
  assert.equal(normalizeSubfolder('a/\u0001'), null);
  assert.equal(normalizeSubfolder('x'.repeat(300)), null);
  const result = validateUploadSettings(values({ path: '../up' }), 1);
  assert.equal(!result.ok && result.errors.path, 'upload.errors.pathInvalid');
});

test('the size limit is inclusive and unknown limits allow anything', () => {
  assert.equal(isWithinLimit(100, 100), true);
  assert.equal(isWithinLimit(101, 100), false);
  assert.equal(isWithinLimit(10 ** 12, null), true);
});
