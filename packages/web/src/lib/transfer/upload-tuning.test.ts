/** The multipart threshold and part size, and the test override in localStorage. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_TUNING, MiB, TUNING_STORAGE_KEY, readTuning } from './upload-tuning.ts';

const storage = (value: string | null) => ({
  getItem: (key: string) => (key === TUNING_STORAGE_KEY ? value : null),
});

test('defaults: multipart above 32 MiB, 8 MiB parts, 3 in flight, 3 tries', () => {
  assert.deepEqual(readTuning(storage(null)), DEFAULT_TUNING);
  assert.equal(DEFAULT_TUNING.multipartThreshold, 32 * MiB);
  assert.equal(DEFAULT_TUNING.partConcurrency, 3);
  assert.equal(DEFAULT_TUNING.partTries, 3);
});

test('an override sets the threshold and part size; parts never go below 5 MiB', () => {
  const tuning = readTuning(storage(JSON.stringify({ multipartThreshold: MiB, partSize: MiB })));
  assert.equal(tuning.multipartThreshold, MiB);
  assert.equal(tuning.partSize, 5 * MiB);
  assert.equal(readTuning(storage(JSON.stringify({ partSize: 6 * MiB }))).partSize, 6 * MiB);
});

test('malformed overrides are ignored', () => {
  for (const bad of ['{', '[]', '"x"', JSON.stringify({ multipartThreshold: -1, partSize: 'big' })]) {
    assert.deepEqual(readTuning(storage(bad)), DEFAULT_TUNING, bad);
  }
  assert.deepEqual(readTuning(undefined), DEFAULT_TUNING);
});
