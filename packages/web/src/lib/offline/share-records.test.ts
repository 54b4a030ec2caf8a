/** Which share answers are kept for offline reading (docs/product.md §3, §4, §9). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shareOfPath, storableShare } from './share-records.ts';

const paste = (fields: Record<string, unknown> = {}) => ({
  code: 200,
  data: { slug: 'abc', content: '# Notes', hasPassword: false, remainingViews: null, ...fields },
});
const file = (fields: Record<string, unknown> = {}) => ({
  code: 200,
  data: {
    slug: 'f1',
    filename: 'a.txt',
    requires_password: false,
    previewUrl: 'https://cubby.example/api/file-view/f1?token=123.abc.def',
    downloadUrl: 'https://cubby.example/api/file-download/f1?token=123.abc.def',
    url: '/file/f1',
    ...fields,
  },
});

test('share reads map to their store and slug', () => {
  assert.deepEqual(shareOfPath('/api/paste/a%20b'), { store: 'pastes', slug: 'a b' });
  assert.deepEqual(shareOfPath('/api/public/files/f1'), { store: 'files', slug: 'f1' });
  for (const path of [
    '/api/paste/a/extra',
    '/api/public/files/f1/verify',
    '/api/raw/a',
    '/api/paste/%E0%A4%A',
  ])
    assert.equal(shareOfPath(path), null, path);
});

test('a public paste is kept; a protected, used-up or credential-carrying one is not', () => {
  assert.deepEqual(storableShare('pastes', paste()), paste().data);
  assert.equal(storableShare('pastes', paste({ hasPassword: true })), null);
  assert.equal(storableShare('pastes', paste({ hasPassword: undefined })), null);
  assert.equal(storableShare('pastes', paste({ content: undefined, requiresPassword: true })), null);
  assert.equal(storableShare('pastes', paste({ remainingViews: 0 })), null);
  assert.deepEqual(storableShare('pastes', paste({ remainingViews: 2 })), paste({ remainingViews: 2 }).data);
  assert.equal(storableShare('pastes', paste({ plain_password: 'x' })), null);
  assert.equal(storableShare('pastes', { code: 200, data: null }), null);
  assert.equal(storableShare('pastes', null), null);
});

test('a public file share is kept without its signed links; a protected one is not', () => {
  assert.deepEqual(storableShare('files', file()), {
    ...file().data,
    previewUrl: null,
    downloadUrl: null,
  });
  assert.equal(storableShare('files', file({ requires_password: true, previewUrl: null })), null);
  assert.equal(storableShare('files', file({ meta: { link: 'https://s3/x?X-Amz-Signature=1' } })), null);
});
