import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageAfterRemoval, withRow } from './share-selection.ts';

test('withRow adds and removes one row without touching the given set', () => {
  const start: ReadonlySet<string> = new Set(['a']);
  const added = withRow(start, 'b', true);
  assert.deepEqual([...added].sort(), ['a', 'b']);
  assert.deepEqual([...withRow(added, 'a', false)], ['b']);
  assert.deepEqual([...start], ['a'], 'the previous selection stays as it was');
  assert.notEqual(withRow(start, 'a', true), start, 'a new set even when nothing changes');
  assert.deepEqual([...withRow(start, 'x', false)], ['a']);
});

test('pageAfterRemoval steps back only when the page emptied and is not the first', () => {
  assert.equal(pageAfterRemoval(3, 10, 10), 2, 'all rows of page 3 gone');
  assert.equal(pageAfterRemoval(3, 1, 1), 2, 'the last row of the last page gone');
  assert.equal(pageAfterRemoval(3, 2, 10), 3, 'rows remain on the page');
  assert.equal(pageAfterRemoval(1, 5, 5), 1, 'the first page stays');
});
