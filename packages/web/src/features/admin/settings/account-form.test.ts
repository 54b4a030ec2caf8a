/** Admin account form rules (docs/product.md §5 "Settings"). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateAccountForm } from './account-form.ts';

const base = { currentPassword: 'old-password', newUsername: '', newPassword: '', confirmPassword: '' };

test('the current password is required', () => {
  assert.equal(
    validateAccountForm({ ...base, currentPassword: '', newUsername: 'x' }).currentPassword,
    'settings.account.errors.currentRequired',
  );
});

test('at least one of new username and new password is required', () => {
  assert.equal(validateAccountForm(base).form, 'settings.account.errors.nothingToChange');
  assert.equal(
    validateAccountForm({ ...base, newUsername: '   ' }).form,
    'settings.account.errors.nothingToChange',
  );
  assert.deepEqual(validateAccountForm({ ...base, newUsername: 'root' }), {});
});

test('the new password differs from the current one and is confirmed', () => {
  const same = validateAccountForm({ ...base, newPassword: 'old-password', confirmPassword: 'old-password' });
  assert.equal(same.newPassword, 'settings.account.errors.samePassword');
  const mismatch = validateAccountForm({ ...base, newPassword: 'new-password', confirmPassword: 'typo' });
  assert.equal(mismatch.confirmPassword, 'settings.account.errors.confirmMismatch');
  assert.deepEqual(
    validateAccountForm({ ...base, newPassword: 'new-password', confirmPassword: 'new-password' }),
    {},
  );
});
