/** When a saved Markdown draft may be offered for restore (docs/product.md §4: under 24 hours old). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DRAFT_MAX_AGE_MS, isRestorable } from './markdown-draft.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

test('a non-empty draft under 24 hours old is restorable', () => {
  assert.equal(isRestorable({ content: '# hi', savedAt: NOW - 60_000 }, NOW), true);
  assert.equal(isRestorable({ content: 'x', savedAt: NOW - DRAFT_MAX_AGE_MS + 1 }, NOW), true);
});

test('an old, empty, future-dated or malformed draft is not', () => {
  assert.equal(isRestorable({ content: 'x', savedAt: NOW - DRAFT_MAX_AGE_MS }, NOW), false);
  assert.equal(isRestorable({ content: '   ', savedAt: NOW }, NOW), false);
  assert.equal(isRestorable({ content: 'x', savedAt: NOW + 5_000 }, NOW), false);
  assert.equal(isRestorable({ content: 'x' }, NOW), false);
  assert.equal(isRestorable(null, NOW), false);
  assert.equal(isRestorable('x', NOW), false);
});
