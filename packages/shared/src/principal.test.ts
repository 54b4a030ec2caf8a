/** The creator check of docs/product.md §5. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creatorId, isCreator } from './principal.ts';

describe('isCreator', () => {
  const key = { type: 'apikey' as const, id: 'k1' };
  it('makes an admin creator of everything', () => {
    for (const createdBy of ['admin-id', 'apikey:k9', null, undefined, '']) {
      assert.equal(isCreator({ type: 'admin' }, createdBy), true);
    }
  });
  it('matches a key by id with or without the apikey: prefix', () => {
    assert.equal(isCreator(key, 'apikey:k1'), true);
    assert.equal(isCreator(key, 'k1'), true);
    assert.equal(isCreator(key, 'apiKey:k1'), true);
  });
  it('refuses other keys, admins and missing owners', () => {
    for (const createdBy of ['apikey:k2', 'k10', 'xk1', 'admin-id', null, undefined, '']) {
      assert.equal(isCreator(key, createdBy), false, String(createdBy));
    }
  });
  it('records apikey:<id> for keys and the id for admins', () => {
    assert.equal(creatorId({ type: 'admin', id: 'a1', username: 'x' }), 'a1');
    assert.equal(
      creatorId({
        type: 'apikey',
        id: 'k1',
        name: 'n',
        basicPath: '/',
        permissions: { text: true, file: false, mount: false },
      }),
      'apikey:k1',
    );
  });
});
