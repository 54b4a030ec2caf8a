import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSettingsOf, linkUpdateBody } from './link-form.ts';

const link = { title: 'Q3', has_password: true, max_views: 10 };

test('an untouched form changes nothing (max views would restart the count)', () => {
  assert.deepEqual(linkUpdateBody(linkSettingsOf(link), link), { ok: true, body: {} });
});

test('the body holds what changed: title, password set or removed, expiry in hours, views', () => {
  const values = {
    ...linkSettingsOf(link),
    title: '  ',
    expiry: '7d' as const,
    maxViews: '3',
    password: 'x',
  };
  assert.deepEqual(linkUpdateBody(values, link), {
    ok: true,
    body: { title: null, password: 'x', expires_in: 168, max_views: 3 },
  });
  const cleared = { ...linkSettingsOf(link), clearPassword: true, expiry: 'never' as const, maxViews: '' };
  assert.deepEqual(linkUpdateBody(cleared, link), {
    ok: true,
    body: { password: null, expires_in: 0, max_views: 0 },
  });
  const open = { ...link, has_password: false };
  assert.deepEqual(linkUpdateBody({ ...linkSettingsOf(open), clearPassword: true }, open), {
    ok: true,
    body: {},
  });
});

test('bad max views, a long title or password are refused with the messages of the other forms', () => {
  const values = {
    ...linkSettingsOf(link),
    maxViews: '-1',
    title: 't'.repeat(201),
    password: 'p'.repeat(201),
  };
  assert.deepEqual(linkUpdateBody(values, link), {
    ok: false,
    errors: {
      title: 'admin.links.edit.titleTooLong',
      password: 'pastes.errors.passwordTooLong',
      maxViews: 'pastes.errors.maxViewsInvalid',
    },
  });
});
