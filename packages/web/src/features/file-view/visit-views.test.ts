/** The views a file share's page shows: this visit's included, and whether it is the last. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { visitViews } from './visit-views.ts';

test("the visit's own view is counted, and the last allowed one is flagged", () => {
  assert.deepEqual(visitViews({ views: 0, max_views: 1 }, true), { views: 1, max: 1, last: true });
  assert.deepEqual(visitViews({ views: 0, max_views: 2 }, true), { views: 1, max: 2, last: false });
  assert.deepEqual(visitViews({ views: 1, max_views: 2 }, true), { views: 2, max: 2, last: true });
  assert.deepEqual(visitViews({ views: 4, max_views: 0 }, true), { views: 5, max: 0, last: false });
});

test('a copy shown offline makes no view', () => {
  assert.deepEqual(visitViews({ views: 0, max_views: 1 }, false), { views: 0, max: 1, last: false });
});
