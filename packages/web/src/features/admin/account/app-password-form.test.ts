import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAppPassword } from './app-password-form.ts';

test('a name is needed; the folder is optional and must be a path', () => {
  assert.deepEqual(validateAppPassword({ name: ' ', access: 'read', path: '' }), {
    ok: false,
    errors: { name: 'accounts.errors.nameRequired' },
  });
  assert.deepEqual(validateAppPassword({ name: 'x'.repeat(65), access: 'read', path: '../etc' }), {
    ok: false,
    errors: { name: 'accounts.errors.nameTooLong', path: 'accounts.errors.pathInvalid' },
  });
  assert.deepEqual(validateAppPassword({ name: ' laptop ', access: 'read', path: '' }), {
    ok: true,
    input: { name: 'laptop', access: 'read' },
  });
  const scoped = validateAppPassword({ name: 'nas', access: 'write', path: '/home/ann' });
  assert.equal(scoped.ok && scoped.input.path, '/home/ann');
});
