/** The base path picker's logic: the listing call, the start, folders only, the way up, breadcrumbs. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crumbsOf, foldersOf, listUrl, parentOf, startingPath } from './path-picker.ts';

test('lists a folder with its path in the query, encoded', () => {
  assert.equal(listUrl('/'), '/admin/fs/list?path=%2F');
  assert.equal(
    listUrl('/team/Q1 报告 #1&2'),
    '/admin/fs/list?path=%2Fteam%2FQ1%20%E6%8A%A5%E5%91%8A%20%231%262',
  );
});

test('opens at the field path when it is valid, else at the top', () => {
  assert.equal(startingPath('/team/docs'), '/team/docs');
  assert.equal(startingPath(' /team//docs/ '), '/team/docs');
  assert.equal(startingPath(''), '/');
  assert.equal(startingPath('   '), '/');
  assert.equal(startingPath('/team/../etc'), '/');
  assert.equal(startingPath('team'), '/team');
});

test('keeps folders only (files and malformed items out), paths without the trailing slash', () => {
  const listing = {
    path: '/team',
    type: 'directory',
    isRoot: false,
    isVirtual: false,
    hasPermission: true,
    items: [
      { name: 'docs', path: '/team/docs/', isDirectory: true, isVirtual: false, size: 0, modified: null },
      { name: 'x', path: '/team/x/', isDirectory: true, isVirtual: true, size: 0, modified: null },
      { name: 'a.txt', path: '/team/a.txt', isDirectory: false, isVirtual: false, size: 3, modified: null },
      { name: 'bad', path: '/team/../etc/', isDirectory: true },
      { name: 'no-path', isDirectory: true },
      null,
      { name: '报告 #1', path: '/team/报告 #1/', isDirectory: true, isVirtual: false },
    ],
  };
  assert.deepEqual(foldersOf(listing), [
    { name: 'docs', path: '/team/docs', isVirtual: false },
    { name: 'x', path: '/team/x', isVirtual: true },
    { name: '报告 #1', path: '/team/报告 #1', isVirtual: false },
  ]);
  assert.deepEqual(foldersOf(null), []);
  assert.deepEqual(foldersOf({ items: 'nope' }), []);
});

test('goes up one folder at a time, and not past the top', () => {
  assert.equal(parentOf('/team/docs'), '/team');
  assert.equal(parentOf('/team'), '/');
  assert.equal(parentOf('/'), null);
});

test('breadcrumbs lead from the top to the folder', () => {
  assert.deepEqual(crumbsOf('/'), [{ name: '/', path: '/' }]);
  assert.deepEqual(crumbsOf('/team/docs'), [
    { name: '/', path: '/' },
    { name: 'team', path: '/team' },
    { name: 'docs', path: '/team/docs' },
  ]);
});

test("a member's picker lists their own tree", () => {
  assert.equal(listUrl('/home/ann', 'user'), '/user/fs/list?path=%2Fhome%2Fann');
});
