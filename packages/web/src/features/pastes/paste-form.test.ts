/** Text share form rules (docs/product.md §5: slug, max views, content), with the server's own schemas. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PASTE_MAX_BYTES } from '@cubby/shared';
import {
  EMPTY_SETTINGS,
  expiresAtFor,
  parseMaxViews,
  toDateTimeLocal,
  utf8Bytes,
  validateCreate,
  validateUpdate,
} from './paste-form.ts';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

test('expiry presets become ISO dates; never is null; keep and bad custom values are undefined', () => {
  assert.equal(expiresAtFor('1h', '', NOW), '2026-01-01T01:00:00.000Z');
  assert.equal(expiresAtFor('1d', '', NOW), '2026-01-02T00:00:00.000Z');
  assert.equal(expiresAtFor('7d', '', NOW), '2026-01-08T00:00:00.000Z');
  assert.equal(expiresAtFor('30d', '', NOW), '2026-01-31T00:00:00.000Z');
  assert.equal(expiresAtFor('never', '', NOW), null);
  assert.equal(expiresAtFor('keep', '', NOW), undefined);
  assert.equal(expiresAtFor('custom', 'tomorrow', NOW), undefined);
  const local = toDateTimeLocal(new Date(NOW + 3 * 3_600_000));
  assert.equal(expiresAtFor('custom', local, NOW), new Date(NOW + 3 * 3_600_000).toISOString());
});

test('max views: empty is unlimited (0); only whole numbers ≥ 0', () => {
  assert.equal(parseMaxViews(''), 0);
  assert.equal(parseMaxViews(' 3 '), 3);
  assert.equal(parseMaxViews('0'), 0);
  for (const bad of ['-1', '1.5', 'abc', '1e3']) assert.equal(parseMaxViews(bad), null, bad);
});

test('create: content is required; a valid form becomes the request body', () => {
  assert.deepEqual(validateCreate({ content: '  ', format: 'markdown', values: EMPTY_SETTINGS }, NOW), {
    ok: false,
    errors: { content: 'pastes.errors.contentRequired' },
  });
  const result = validateCreate(
    {
      content: '# hi',
      format: 'text',
      values: {
        ...EMPTY_SETTINGS,
        remark: ' note ',
        slug: 'my-note_1',
        password: 'pw',
        expiry: '1d',
        maxViews: '2',
      },
    },
    NOW,
  );
  assert.deepEqual(result, {
    ok: true,
    input: {
      content: '# hi',
      format: 'text',
      remark: 'note',
      slug: 'my-note_1',
      password: 'pw',
      expiresAt: '2026-01-02T00:00:00.000Z',
      maxViews: 2,
    },
  });
});

test('create: slug rules (characters, 50 max, reserved), max views and custom expiry', () => {
  const errorsFor = (values: Partial<typeof EMPTY_SETTINGS>) => {
    const result = validateCreate(
      { content: 'x', format: 'markdown', values: { ...EMPTY_SETTINGS, ...values } },
      NOW,
    );
    return result.ok ? {} : result.errors;
  };
  assert.deepEqual(errorsFor({ slug: 'has space' }), { slug: 'pastes.errors.slugInvalid' });
  assert.deepEqual(errorsFor({ slug: '中文' }), { slug: 'pastes.errors.slugInvalid' });
  assert.deepEqual(errorsFor({ slug: 'a'.repeat(51) }), { slug: 'pastes.errors.slugTooLong' });
  assert.deepEqual(errorsFor({ slug: 'Admin' }), { slug: 'pastes.errors.slugReserved' });
  assert.deepEqual(errorsFor({ maxViews: '-2' }), { maxViews: 'pastes.errors.maxViewsInvalid' });
  assert.deepEqual(errorsFor({ remark: 'r'.repeat(501) }), { remark: 'pastes.errors.remarkTooLong' });
  assert.deepEqual(errorsFor({ expiry: 'custom', customExpiry: '' }), {
    customExpiry: 'pastes.errors.customExpiryInvalid',
  });
  assert.deepEqual(errorsFor({ expiry: 'custom', customExpiry: toDateTimeLocal(new Date(NOW - 60_000)) }), {
    customExpiry: 'pastes.errors.customExpiryPast',
  });
});

test('create: content over 5 MiB of UTF-8 is refused before sending', () => {
  assert.equal(utf8Bytes('é中'), 5);
  const big = '中'.repeat(Math.floor(PASTE_MAX_BYTES / 3) + 1);
  const result = validateCreate({ content: big, format: 'text', values: EMPTY_SETTINGS }, NOW);
  assert.deepEqual(result, { ok: false, errors: { content: 'pastes.errors.contentTooLarge' } });
});

test("create: content over the share policy's largest share is refused before sending, by its own message", () => {
  const values = EMPTY_SETTINGS;
  const at = (content: string, maxBytes: number | null) =>
    validateCreate({ content, format: 'text', values, maxBytes }, NOW);
  // 1,000 bytes: 334 three-byte characters are 1,002 bytes, 333 are 999.
  assert.deepEqual(at('中'.repeat(334), 1000), {
    ok: false,
    errors: { content: 'pastes.errors.policyTooLarge' },
  });
  assert.equal(at('中'.repeat(333), 1000).ok, true);
  // The files of a paste count together.
  const files = [
    { name: 'a.txt', language: 'text' as const, content: 'x'.repeat(600) },
    { name: 'b.txt', language: 'text' as const, content: 'y'.repeat(600) },
  ];
  const several = validateCreate(
    { content: '', format: 'text', values, extras: { files }, maxBytes: 1000 },
    NOW,
  );
  assert.deepEqual(several, { ok: false, errors: { content: 'pastes.errors.policyTooLarge' } });
  // A policy above the 5 MiB of every text share: that limit's own message.
  const big = '中'.repeat(Math.floor(PASTE_MAX_BYTES / 3) + 1);
  assert.deepEqual(at(big, PASTE_MAX_BYTES * 2), {
    ok: false,
    errors: { content: 'pastes.errors.contentTooLarge' },
  });
});

test('update: sends the new slug only when changed, keep leaves expiry out, password set or cleared', () => {
  const original = { slug: 'abc', hasPassword: true };
  const same = validateUpdate(
    {
      content: 'x',
      format: 'markdown',
      values: { ...EMPTY_SETTINGS, slug: 'abc', expiry: 'keep' },
      original,
    },
    NOW,
  );
  assert.deepEqual(same, { ok: true, input: { content: 'x', format: 'markdown', remark: '', maxViews: 0 } });
  const changed = validateUpdate(
    {
      content: 'x',
      format: 'text',
      values: { ...EMPTY_SETTINGS, slug: 'new-one', expiry: 'never', clearPassword: true, maxViews: '5' },
      original,
    },
    NOW,
  );
  assert.deepEqual(changed, {
    ok: true,
    input: {
      content: 'x',
      format: 'text',
      remark: '',
      maxViews: 5,
      expiresAt: null,
      clearPassword: true,
      newSlug: 'new-one',
    },
  });
  const password = validateUpdate(
    {
      content: 'x',
      format: 'text',
      values: { ...EMPTY_SETTINGS, slug: 'abc', expiry: 'keep', password: 'new' },
      original,
    },
    NOW,
  );
  assert.equal(password.ok && password.input.password, 'new');
  const random = validateUpdate(
    { content: 'x', format: 'text', values: { ...EMPTY_SETTINGS, slug: '', expiry: 'keep' }, original },
    NOW,
  );
  assert.equal(random.ok && random.input.newSlug, '');
  const reserved = validateUpdate(
    { content: 'x', format: 'text', values: { ...EMPTY_SETTINGS, slug: 'api', expiry: 'keep' }, original },
    NOW,
  );
  assert.deepEqual(reserved, { ok: false, errors: { slug: 'pastes.errors.slugReserved' } });
});

test('an edit with files replaces them all, checked as on create (names unique, 1–20, sizes together)', () => {
  const original = { slug: 'abc', hasPassword: false };
  const values = { ...EMPTY_SETTINGS, slug: 'abc', expiry: 'keep' as const };
  const files = [
    { name: 'a.md', language: 'markdown' as const, content: '# a' },
    { name: 'b.py', language: 'python' as const, content: 'pass' },
  ];
  const ok = validateUpdate({ content: 'ignored', format: 'markdown', values, original, files }, NOW);
  assert.ok(ok.ok);
  assert.deepEqual(ok.input.files, files);
  assert.equal(ok.input.content, undefined, 'files replace the content');

  const repeated = [...files, { name: 'A.md', language: 'text' as const, content: 'x' }];
  const twice = validateUpdate({ content: '', format: 'text', values, original, files: repeated }, NOW);
  assert.deepEqual(twice, { ok: false, errors: { content: 'pastes.errors.fileNamesRepeat' } });
  const many = Array.from({ length: 21 }, (_, i) => ({
    name: `f${i}`,
    language: 'text' as const,
    content: 'x',
  }));
  const tooMany = validateUpdate({ content: '', format: 'text', values, original, files: many }, NOW);
  assert.deepEqual(tooMany, { ok: false, errors: { content: 'pastes.errors.tooManyFiles' } });
  const slash = validateUpdate(
    {
      content: '',
      format: 'text',
      values,
      original,
      files: [{ name: 'a/b', language: 'text', content: 'x' }],
    },
    NOW,
  );
  assert.deepEqual(slash, { ok: false, errors: { content: 'pastes.errors.fileNameInvalid' } });
});
