import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FS_META_PASSWORD_MASK } from '@cubby/shared';
import { EMPTY_FOLDER_RULE, validateFolderRule, valuesOf } from './folder-rule-form.ts';

describe('folder rule form', () => {
  it('sends one pattern per line, a canonical path, and null for an empty README', () => {
    const result = validateFolderRule({ ...EMPTY_FOLDER_RULE, path: '/pub/', patterns: '*.tmp\n\n .env \n' });
    assert.ok(result.ok);
    assert.equal(result.input.path, '/pub');
    assert.deepEqual(result.input.hide_patterns, ['*.tmp', '.env']);
    assert.equal(result.input.header_markdown, null);
  });

  it('refuses a path with .. and a pattern with a slash, naming the field', () => {
    const result = validateFolderRule({ ...EMPTY_FOLDER_RULE, path: '/a/../b', patterns: 'a/b' });
    assert.ok(!result.ok);
    assert.equal(result.errors.path, 'admin.folderRules.errors.pathInvalid');
    const pattern = validateFolderRule({ ...EMPTY_FOLDER_RULE, patterns: 'a/b' });
    assert.ok(!pattern.ok);
    assert.equal(pattern.errors.patterns, 'admin.folderRules.errors.patternSlash');
  });

  it('shows a stored password as the mask, which keeps it when sent back', () => {
    const values = valuesOf({
      id: '1',
      path: '/pub',
      header_markdown: null,
      header_inherit: false,
      footer_markdown: null,
      footer_inherit: false,
      hide_patterns: [],
      hide_inherit: false,
      has_password: true,
      password_inherit: true,
      created_at: '',
      updated_at: '',
    });
    assert.equal(values.password, FS_META_PASSWORD_MASK);
    const result = validateFolderRule(values);
    assert.ok(result.ok);
    assert.equal(result.input.password, FS_META_PASSWORD_MASK);
  });
});
