import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UploadRequestInfo } from '@cubby/shared';
import { requestBody, toForm } from './request-form.ts';

test('a new request goes into a folder or a new bundle; an edit never switches', () => {
  const folder = { ...toForm(), target_path: ' /team/inbox ', subfolder_per_upload: true };
  const made = requestBody(folder, false);
  assert.equal(made.target_path, '/team/inbox');
  assert.equal(made.subfolder_per_upload, true);
  assert.equal('bundle' in made, false);

  const bundle = requestBody({ ...folder, into: 'bundle' }, false);
  assert.equal(bundle.bundle, true);
  assert.equal('target_path' in bundle, false);
  assert.equal('subfolder_per_upload' in bundle, false);

  // A bundle request (no target folder) is edited as one, without naming its target again.
  const existing = { target_path: null, bundle_slug: 'abc', allowed_types: [], max_files: 3 };
  const form = toForm(existing as unknown as UploadRequestInfo);
  assert.equal(form.into, 'bundle');
  const edit = requestBody(form, true);
  assert.equal('bundle' in edit || 'target_path' in edit, false);
  assert.equal(edit.max_files, 3);
});
