/** The creator check of docs/product.md §5, and the reach of people and keys (docs/accounts.md). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creatorId, grantsOf, isCreator, mayManage, narrowGrants } from './principal.ts';

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
        ownerId: null,
        grants: [],
      }),
      'apikey:k1',
    );
    assert.equal(creatorId({ type: 'member', id: 'm1', username: 'x', grants: [] }), 'm1');
  });
});

describe('reach', () => {
  const home = { path: '/home/amy', write: true };
  const shared = { path: '/shared', write: false };
  it('an admin reaches everything unless an app password narrows it', () => {
    assert.deepEqual(grantsOf({ type: 'admin', id: 'a', username: 'a' }), [{ path: '/', write: true }]);
    const narrowed = { type: 'admin' as const, id: 'a', username: 'a', grants: [shared] };
    assert.deepEqual(grantsOf(narrowed), [shared]);
  });
  it('a scope inside a grant keeps the scope; a grant inside the scope keeps the grant; writes need both', () => {
    assert.deepEqual(narrowGrants([home, shared], { path: '/', write: true }), [home, shared]);
    assert.deepEqual(narrowGrants([home, shared], { path: '/home/amy/docs', write: true }), [
      { path: '/home/amy/docs', write: true },
    ]);
    assert.deepEqual(narrowGrants([home, shared], { path: '/shared/x', write: true }), [
      { path: '/shared/x', write: false },
    ]);
    assert.deepEqual(narrowGrants([home], { path: '/', write: false }), [
      { path: '/home/amy', write: false },
    ]);
  });
  it('a scope beside every grant reaches nothing (a path prefix is no parent)', () => {
    assert.deepEqual(narrowGrants([home, shared], { path: '/home/amy2', write: true }), []);
    assert.deepEqual(narrowGrants([home], { path: '/home/zoe', write: true }), []);
  });
});

describe('mayManage', () => {
  const member = { type: 'member' as const, id: 'm1', username: 'm', grants: [] };
  it("a member manages what they own (their keys' too), nothing else", () => {
    assert.equal(mayManage(member, { created_by: 'apikey:k1', owner_id: 'm1' }), true);
    assert.equal(mayManage(member, { created_by: 'm1', owner_id: 'other' }), false);
    assert.equal(mayManage(member, { created_by: 'm1', owner_id: null }), false);
  });
});
