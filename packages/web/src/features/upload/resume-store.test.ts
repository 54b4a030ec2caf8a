/** Remembering interrupted multipart uploads across reloads, and recognising the same file again. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStorage } from '../../../test/memory-storage.ts';
import { RESUME_MAX_AGE_MS, RESUME_STORAGE_KEY, ResumeStore, type ResumeRecord } from './resume-store.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const FILE = { name: 'video.mp4', size: 11_534_336, lastModified: 1_700_000_000_000 };
const record = (over: Partial<ResumeRecord> = {}): ResumeRecord => ({
  file_id: 'f1',
  upload_id: 'u1',
  ...FILE,
  part_size: 5 * 1024 * 1024,
  part_count: 3,
  startedAt: NOW - 60_000,
  ...over,
});

test('finds the upload of the same file (name, size and last modified all equal)', () => {
  const store = new ResumeStore(new MemoryStorage(), () => NOW);
  store.save(record());
  assert.equal(store.find(FILE)?.upload_id, 'u1');
  assert.equal(store.find({ ...FILE, lastModified: FILE.lastModified + 1 }), null);
  assert.equal(store.find({ ...FILE, size: FILE.size - 1 }), null);
  assert.equal(store.find({ ...FILE, name: 'other.mp4' }), null);
});

test('survives a new store over the same storage (a reload), and forgets on request', () => {
  const storage = new MemoryStorage();
  new ResumeStore(storage, () => NOW).save(record());
  const afterReload = new ResumeStore(storage, () => NOW);
  assert.equal(afterReload.find(FILE)?.file_id, 'f1');
  afterReload.forget('f1');
  assert.equal(new ResumeStore(storage, () => NOW).find(FILE), null);
});

test('a new upload of the same file replaces the old record', () => {
  const store = new ResumeStore(new MemoryStorage(), () => NOW);
  store.save(record());
  store.save(record({ file_id: 'f2', upload_id: 'u2' }));
  assert.deepEqual(
    store.list().map((r) => r.file_id),
    ['f2'],
  );
});

test('drops records older than the server keeps sessions, and malformed ones', () => {
  const storage = new MemoryStorage();
  storage.setItem(
    RESUME_STORAGE_KEY,
    JSON.stringify([
      record({ file_id: 'old', startedAt: NOW - RESUME_MAX_AGE_MS - 1 }),
      { file_id: 'broken' },
      record({ file_id: 'fresh', name: 'b.bin' }),
    ]),
  );
  assert.deepEqual(
    new ResumeStore(storage, () => NOW).list().map((r) => r.file_id),
    ['fresh'],
  );
  storage.setItem(RESUME_STORAGE_KEY, '{not json');
  assert.deepEqual(new ResumeStore(storage, () => NOW).list(), []);
});
