/** Multipart planning: when a file goes multipart, part sizes, part ranges and what is left after a reload. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseStrategy, confirmedBytes, missingParts, partSizeFor, planParts } from './part-plan.ts';
import { DEFAULT_TUNING, MiB, SINGLE_PUT_MAX } from './upload-tuning.ts';

test('files up to the threshold go in one PUT, larger ones multipart', () => {
  const tuning = { multipartThreshold: 32 * MiB };
  assert.equal(chooseStrategy(0, tuning), 'single');
  assert.equal(chooseStrategy(32 * MiB, tuning), 'single');
  assert.equal(chooseStrategy(32 * MiB + 1, tuning), 'multipart');
  // One PUT cannot carry more than 5 GiB, whatever the threshold says.
  assert.equal(
    chooseStrategy(SINGLE_PUT_MAX + 1, { multipartThreshold: Number.MAX_SAFE_INTEGER }),
    'multipart',
  );
});

test('the part size is at least 5 MiB and keeps a file within 10,000 parts', () => {
  assert.equal(partSizeFor(100 * MiB, DEFAULT_TUNING.partSize), 8 * MiB);
  assert.equal(partSizeFor(100 * MiB, 1 * MiB), 5 * MiB);
  const huge = 200 * 1024 * MiB; // 200 GiB
  const size = partSizeFor(huge, 8 * MiB);
  assert.ok(Math.ceil(huge / size) <= 10_000, `${size} gives too many parts`);
  assert.equal(size % MiB, 0);
  assert.equal(size, 21 * MiB);
});

test('parts cover the file exactly, the last one short', () => {
  const size = 11 * MiB;
  const parts = planParts(size, 5 * MiB);
  assert.deepEqual(parts, [
    { partNumber: 1, start: 0, end: 5 * MiB },
    { partNumber: 2, start: 5 * MiB, end: 10 * MiB },
    { partNumber: 3, start: 10 * MiB, end: 11 * MiB },
  ]);
  assert.deepEqual(
    planParts(10 * MiB, 5 * MiB).map((p) => p.end - p.start),
    [5 * MiB, 5 * MiB],
  );
  assert.deepEqual(planParts(0, 5 * MiB), [{ partNumber: 1, start: 0, end: 0 }]);
  assert.throws(() => planParts(10, 0), RangeError);
});

test('after a reload only the parts the server lacks are sent, and the rest count as done', () => {
  const plan = planParts(11 * MiB, 5 * MiB);
  const done = [{ partNumber: 1 }, { partNumber: 3 }];
  assert.deepEqual(
    missingParts(plan, done).map((p) => p.partNumber),
    [2],
  );
  assert.equal(confirmedBytes(plan, done), 6 * MiB);
  assert.deepEqual(
    missingParts(plan, []).map((p) => p.partNumber),
    [1, 2, 3],
  );
  assert.deepEqual(missingParts(plan, [{ partNumber: 1 }, { partNumber: 2 }, { partNumber: 3 }]), []);
});
