/** The key dialogs' rules (docs/product.md §5 "API key"), using the same schemas as the server. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EMPTY_KEY_FORM,
  expiresAtFor,
  isNeverExpiring,
  parseCustomDays,
  validateCreate,
  validateUpdate,
} from './key-form.ts';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

test('custom days must be a positive whole number (at most 36500)', () => {
  for (const bad of ['', ' ', '0', '-1', '1.5', '1e3', 'abc', '36501'])
    assert.equal(parseCustomDays(bad), null, bad);
  assert.equal(parseCustomDays('1'), 1);
  assert.equal(parseCustomDays(' 30 '), 30);
  assert.equal(parseCustomDays('36500'), 36500);
});

test('expiry choices become ISO dates, "never", or nothing for "keep"', () => {
  assert.equal(expiresAtFor('1d', '', NOW), '2026-01-02T00:00:00.000Z');
  assert.equal(expiresAtFor('7d', '', NOW), '2026-01-08T00:00:00.000Z');
  assert.equal(expiresAtFor('30d', '', NOW), '2026-01-31T00:00:00.000Z');
  assert.equal(expiresAtFor('custom', '10', NOW), '2026-01-11T00:00:00.000Z');
  assert.equal(expiresAtFor('custom', '0', NOW), undefined);
  assert.equal(expiresAtFor('never', '', NOW), 'never');
  assert.equal(expiresAtFor('keep', '', NOW), undefined);
});

test('year 9999 or later (or no date) means "never"', () => {
  assert.equal(isNeverExpiring('9999-12-31T23:59:59.000Z'), true);
  assert.equal(isNeverExpiring(null), true);
  assert.equal(isNeverExpiring('2030-05-01T00:00:00.000Z'), false);
});

test('create: a name is required; permissions, base path and expiry are sent as the server expects', () => {
  const empty = validateCreate(EMPTY_KEY_FORM, NOW);
  assert.deepEqual(empty, { ok: false, errors: { name: 'keys.errors.nameRequired' } });

  const valid = validateCreate(
    { ...EMPTY_KEY_FORM, name: ' CI ', text: true, basePath: 'team//docs/', expiry: '1d' },
    NOW,
  );
  assert.deepEqual(valid, {
    ok: true,
    input: {
      name: 'CI',
      text_permission: true,
      file_permission: false,
      mount_permission: false,
      basic_path: '/team/docs',
      expires_at: '2026-01-02T00:00:00.000Z',
    },
  });
});

test('create: custom days and the custom key are checked', () => {
  const result = validateCreate(
    { ...EMPTY_KEY_FORM, name: 'x', expiry: 'custom', customDays: '0', useCustomKey: true, customKey: '' },
    NOW,
  );
  assert.deepEqual(result, {
    ok: false,
    errors: { customDays: 'keys.errors.customDaysInvalid', customKey: 'keys.errors.customKeyRequired' },
  });
  const short = validateCreate({ ...EMPTY_KEY_FORM, name: 'x', useCustomKey: true, customKey: 'abc' }, NOW);
  assert.deepEqual(short, { ok: false, errors: { customKey: 'keys.errors.customKeyTooShort' } });
  const invalid = validateCreate(
    { ...EMPTY_KEY_FORM, name: 'x', useCustomKey: true, customKey: 'a b c d e f g h i j k' },
    NOW,
  );
  assert.deepEqual(invalid, { ok: false, errors: { customKey: 'keys.errors.customKeyInvalid' } });
  const good = validateCreate(
    { ...EMPTY_KEY_FORM, name: 'x', useCustomKey: true, customKey: 'abc_DEF-0123456789' },
    NOW,
  );
  assert.equal(good.ok && good.input.custom_key, 'abc_DEF-0123456789');
});

test('create: a path that climbs above the root is refused', () => {
  const result = validateCreate({ ...EMPTY_KEY_FORM, name: 'x', basePath: '/../etc' }, NOW);
  assert.deepEqual(result, { ok: false, errors: { basePath: 'keys.errors.basePathInvalid' } });
});

test('update: "keep" leaves the expiry out; "never" sends never', () => {
  const keep = validateUpdate({ ...EMPTY_KEY_FORM, name: 'k', expiry: 'keep' }, NOW);
  assert.equal(keep.ok && 'expires_at' in keep.input, false);
  const never = validateUpdate({ ...EMPTY_KEY_FORM, name: 'k', expiry: 'never' }, NOW);
  assert.equal(never.ok && never.input.expires_at, 'never');
  const tooLong = validateUpdate({ ...EMPTY_KEY_FORM, name: 'k'.repeat(51), expiry: 'keep' }, NOW);
  assert.deepEqual(tooLong, { ok: false, errors: { name: 'keys.errors.nameTooLong' } });
});
