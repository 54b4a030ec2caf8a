/** What the upload page announces: progress in quarter steps, then the counts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uploadAnnouncement } from './upload-announcement.ts';

const t = (key: string, params: Record<string, unknown>) => `${key} ${JSON.stringify(params)}`;
const item = (
  status: 'pending' | 'uploading' | 'success' | 'error',
  percent = 0,
  name = 'a.txt',
  batch = 1,
) => ({ name, status, percent, batch });

test('nothing to say before an upload starts', () => {
  assert.equal(uploadAnnouncement([], t), '');
  assert.equal(uploadAnnouncement([item('pending')], t), '');
});

test('progress changes the text only at 0, 25, 50 and 75 %', () => {
  const texts = new Set<string>();
  for (let percent = 0; percent < 100; percent++) {
    texts.add(uploadAnnouncement([item('success'), item('uploading', percent, 'b.bin')], t));
  }
  assert.deepEqual(
    [...texts],
    [0, 25, 50, 75].map((percent) => t('upload.announce.progress', { name: 'b.bin', percent })),
  );
});

test('once nothing uploads, how many succeeded and failed', () => {
  assert.equal(
    uploadAnnouncement([item('success'), item('success'), item('error'), item('pending')], t),
    `${t('upload.announce.done', { count: 2 })} ${t('upload.announce.failed', { count: 1 })}`,
  );
  assert.equal(uploadAnnouncement([item('error')], t), t('upload.announce.failed', { count: 1 }));
});

test('the counts are those of the latest start, not of earlier batches still listed', () => {
  const earlier = [item('success'), item('success'), item('error')];
  const latest = [item('success', 100, 'c.txt', 2)];
  assert.equal(uploadAnnouncement([...earlier, ...latest], t), t('upload.announce.done', { count: 1 }));
  // A retry is a start of its own.
  assert.equal(
    uploadAnnouncement([...earlier.slice(0, 2), item('error', 0, 'a.txt', 3), ...latest], t),
    t('upload.announce.failed', { count: 1 }),
  );
});
