import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EMPTY_INVITE_FORM,
  EMPTY_PERSON_FORM,
  personFormOf,
  validateCreatePerson,
  validateInvite,
  validateAcceptInvite,
  validateUpdatePerson,
} from './person-form.ts';

test('a new person needs a usable name and a password of 8 characters; errors name their fields', () => {
  const result = validateCreatePerson({
    ...EMPTY_PERSON_FORM,
    username: 'a/b',
    password: 'short',
    email: 'nope',
    quota: '-1',
    paths: [{ path: '../up', access: 'read' }],
  });
  assert.deepEqual(result, {
    ok: false,
    errors: {
      username: 'accounts.errors.usernameInvalid',
      password: 'accounts.errors.passwordTooShort',
      email: 'accounts.errors.emailInvalid',
      'paths.0.path': 'accounts.errors.pathInvalid',
      quota_bytes: 'accounts.errors.quotaInvalid',
    },
  });
});

test('a valid person: the quota in bytes, empty fields as none', () => {
  const result = validateCreatePerson({
    ...EMPTY_PERSON_FORM,
    username: 'ann',
    password: 'long enough',
    quota: '1.5',
    quotaUnit: 'GB',
    paths: [{ path: '/team', access: 'read' }],
  });
  assert.ok(result.ok);
  assert.equal(result.input.quota_bytes, 1.5 * 1024 ** 3);
  assert.equal(result.input.email, null);
  assert.equal(result.input.home_path, null);
  assert.deepEqual(result.input.paths, [{ path: '/team', access: 'read' }]);
});

test('an edit keeps the password unless one is typed, and starts from the person as they are', () => {
  const values = personFormOf({
    id: '2',
    username: 'ann',
    role: 'member',
    email: null,
    status: 'active',
    home_path: '/home/ann',
    quota_bytes: 2 * 1024 ** 3,
    paths: [{ path: '/team', access: 'write' }],
    created_at: '',
    updated_at: '',
  });
  assert.equal(values.quota, '2');
  assert.equal(values.quotaUnit, 'GB');
  const kept = validateUpdatePerson({ ...values, status: 'disabled' });
  assert.ok(kept.ok);
  assert.equal('password' in kept.input, false);
  assert.equal(kept.input.status, 'disabled');
  assert.deepEqual(validateUpdatePerson({ ...values, password: 'x' }), {
    ok: false,
    errors: { password: 'accounts.errors.passwordTooShort' },
  });
});

test('an invite lasts 1 to 90 days', () => {
  assert.deepEqual(validateInvite({ ...EMPTY_INVITE_FORM, days: '91' }), {
    ok: false,
    errors: { expires_in_days: 'accounts.errors.daysInvalid' },
  });
  const ok = validateInvite({ ...EMPTY_INVITE_FORM, email: 'ann@example.com' });
  assert.ok(ok.ok);
  assert.equal(ok.input.expires_in_days, 7);
});

test('the invite page wants a usable name and the same password twice', () => {
  assert.deepEqual(
    validateAcceptInvite({ username: 'ann', password: 'long enough', confirm: 'long enoug' }),
    {
      ok: false,
      errors: { confirm: 'accounts.errors.passwordsDiffer' },
    },
  );
  assert.deepEqual(validateAcceptInvite({ username: '', password: 'x', confirm: 'x' }), {
    ok: false,
    errors: { username: 'accounts.errors.usernameRequired', password: 'accounts.errors.passwordTooShort' },
  });
  assert.deepEqual(
    validateAcceptInvite({ username: ' ann ', password: 'long enough', confirm: 'long enough' }),
    {
      ok: true,
      input: { username: 'ann', password: 'long enough' },
    },
  );
});
