/** The Office viewer address and the token of a share link. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { officeViewerUrl, shareTokenOf } from './office-viewer.ts';

test('the viewer gets the whole file URL as one encoded parameter', () => {
  const file = 'https://cubby.example/api/file-download/q3%20report?token=1.a_b-c.d&x=1';
  const viewer = new URL(officeViewerUrl(file));
  assert.equal(viewer.origin, 'https://view.officeapps.live.com');
  assert.equal(viewer.pathname, '/op/embed.aspx');
  assert.deepEqual([...viewer.searchParams.keys()], ['src']);
  assert.equal(viewer.searchParams.get('src'), file);
});

test('the token of a share link, absolute or relative; none without one', () => {
  assert.equal(shareTokenOf('https://c.example/api/file-view/a?token=1.b.c'), '1.b.c');
  assert.equal(shareTokenOf('/api/file-view/a?token=x%2By'), 'x+y');
  assert.equal(shareTokenOf('/api/file-view/a'), undefined);
});
