/** The upload page's "recent uploads": the newest three, newest first, each once. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStorage } from '../../../test/memory-storage.ts';
import { RECENT_STORAGE_KEY, addRecentUpload, readRecentUploads } from './recent-uploads.ts';

const upload = (slug: string) => ({
  slug,
  filename: `${slug}.txt`,
  size: 1,
  created_at: '2026-03-01T12:00:00Z',
});

test('keeps the newest three, newest first', () => {
  const storage = new MemoryStorage();
  for (const slug of ['a', 'b', 'c', 'd']) addRecentUpload(upload(slug), storage);
  assert.deepEqual(
    readRecentUploads(storage).map((r) => r.slug),
    ['d', 'c', 'b'],
  );
});

test('an upload already listed moves to the top instead of appearing twice', () => {
  const storage = new MemoryStorage();
  for (const slug of ['a', 'b', 'a']) addRecentUpload(upload(slug), storage);
  assert.deepEqual(
    readRecentUploads(storage).map((r) => r.slug),
    ['a', 'b'],
  );
});

test('ignores malformed storage', () => {
  const storage = new MemoryStorage();
  storage.setItem(RECENT_STORAGE_KEY, '[{"slug":1},{"slug":"ok","filename":"x","size":2,"created_at":"t"}]');
  assert.deepEqual(
    readRecentUploads(storage).map((r) => r.slug),
    ['ok'],
  );
  storage.setItem(RECENT_STORAGE_KEY, 'nope');
  assert.deepEqual(readRecentUploads(storage), []);
});
