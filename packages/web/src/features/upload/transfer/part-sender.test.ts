/** Presigned part URLs: fetched in batches along the upload order, refreshed one by one when refused. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PartUrls } from './part-sender.ts';

function fetcher() {
  const calls: number[][] = [];
  const fetch = async (numbers: number[]) => {
    calls.push(numbers);
    return numbers.map((n) => ({ partNumber: n, url: `https://s3/part/${n}?v=${calls.length}` }));
  };
  return { calls, fetch };
}

test('fetches the URLs of the next parts in one batch, then serves them without asking again', async () => {
  const { calls, fetch } = fetcher();
  const urls = new PartUrls(fetch, [2, 3, 5, 8], 3);
  assert.equal(await urls.get(2), 'https://s3/part/2?v=1');
  assert.equal(await urls.get(3), 'https://s3/part/3?v=1');
  assert.equal(await urls.get(5), 'https://s3/part/5?v=1');
  assert.deepEqual(calls, [[2, 3, 5]]);
  assert.equal(await urls.get(8), 'https://s3/part/8?v=2');
  assert.deepEqual(calls, [[2, 3, 5], [8]]);
});

test('parts asked for at the same time share one request', async () => {
  const { calls, fetch } = fetcher();
  const urls = new PartUrls(fetch, [1, 2, 3]);
  await Promise.all([urls.get(1), urls.get(2), urls.get(3)]);
  assert.deepEqual(calls, [[1, 2, 3]]);
});

test('seeded URLs are used as they are; refresh signs one part again', async () => {
  const { calls, fetch } = fetcher();
  const urls = new PartUrls(fetch, [1, 2]);
  urls.seed([{ partNumber: 1, url: 'https://s3/seeded/1' }]);
  assert.equal(await urls.get(1), 'https://s3/seeded/1');
  assert.deepEqual(calls, []);
  assert.equal(await urls.refresh(1), 'https://s3/part/1?v=1');
  assert.deepEqual(calls, [[1]]);
});

test('a failed batch is fetched again by the next request', async () => {
  let fail = true;
  const urls = new PartUrls(
    async (numbers) => {
      if (fail) throw new Error('offline');
      return numbers.map((n) => ({ partNumber: n, url: `u${n}` }));
    },
    [1, 2],
  );
  await assert.rejects(urls.get(1), /offline/);
  fail = false;
  assert.equal(await urls.get(2), 'u2');
  assert.equal(await urls.get(1), 'u1');
});
