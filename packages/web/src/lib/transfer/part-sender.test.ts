/**
 * The part sender: presigned part URLs (fetched in batches along the upload order, refreshed one by
 * one when refused) and the pool that sends the parts, whoever receives them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PartUrls, sendParts, type PartToSend, type SendPartsOptions } from './part-sender.ts';
import { TransferError } from './transfer-error.ts';

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

const TUNING = { partConcurrency: 2, partTries: 3, transferTimeoutMs: 1000 };
const noWait = async () => {};
const partsOf = (...sizes: number[]): PartToSend[] =>
  sizes.map((size, index) => ({ partNumber: index + 1, body: new Blob([new Uint8Array(size)]) }));

function options(over: Partial<SendPartsOptions> & Pick<SendPartsOptions, 'send'>): SendPartsOptions {
  return {
    tuning: TUNING,
    signal: new AbortController().signal,
    onProgress: () => {},
    sleep: noWait,
    ...over,
  };
}

test('sends every part, at most partConcurrency at once, and answers them in part order', async () => {
  let running = 0;
  let most = 0;
  const sent = await sendParts(
    partsOf(1, 2, 3, 4, 5),
    options({
      send: async ({ partNumber }) => {
        most = Math.max(most, ++running);
        // Later parts finish first, so the answer must be sorted.
        await new Promise((resolve) => setTimeout(resolve, (6 - partNumber) * 2));
        running--;
        return `etag-${partNumber}`;
      },
    }),
  );
  assert.equal(most, 2);
  assert.deepEqual(
    sent.map((part) => [part.partNumber, part.etag]),
    [1, 2, 3, 4, 5].map((n) => [n, `etag-${n}`]),
  );
});

test('progress counts the confirmed bytes plus the parts in flight; a retried part starts again', async () => {
  const seen: number[] = [];
  let tries = 0;
  await sendParts(
    partsOf(10),
    options({
      tuning: { ...TUNING, partConcurrency: 1 },
      confirmed: 100,
      onProgress: (loaded) => seen.push(loaded),
      send: async (_part, transfer) => {
        transfer.onProgress(6);
        if (++tries === 1) throw new TransferError('network');
        transfer.onProgress(10);
        return 'e';
      },
    }),
  );
  assert.deepEqual(seen, [100, 100, 106, 100, 106, 110, 110]);
});

test('reports each part before it counts as done', async () => {
  const order: string[] = [];
  await sendParts(
    partsOf(1, 1),
    options({
      tuning: { ...TUNING, partConcurrency: 1 },
      send: async ({ partNumber }) => {
        order.push(`send ${partNumber}`);
        return `e${partNumber}`;
      },
      onSent: async ({ partNumber }, etag) => order.push(`sent ${partNumber} ${etag}`),
    }),
  );
  assert.deepEqual(order, ['send 1', 'sent 1 e1', 'send 2', 'sent 2 e2']);
});

test('a part that keeps failing stops the rest and is named in the failure', async () => {
  const attempts = new Map<number, number>();
  let abortedSibling = false;
  const failure = await sendParts(
    partsOf(1, 1, 1, 1),
    options({
      send: async ({ partNumber }, transfer) => {
        attempts.set(partNumber, (attempts.get(partNumber) ?? 0) + 1);
        if (partNumber === 2) throw new TransferError('http', 503);
        await new Promise<void>((resolve, reject) => {
          if (transfer.signal.aborted) reject(new TransferError('cancelled'));
          transfer.signal.addEventListener('abort', () => {
            abortedSibling = true;
            reject(new TransferError('cancelled'));
          });
        });
        return 'never';
      },
    }),
  ).catch((error: unknown) => error);
  assert.ok(failure instanceof TransferError);
  assert.equal(failure.partNumber, 2);
  assert.equal(failure.status, 503);
  assert.equal(attempts.get(2), 3);
  assert.ok(abortedSibling, 'the part in flight beside it was stopped');
  assert.equal(attempts.has(4), false, 'no part was started after the failure');
});

test('a refusal that is not worth retrying fails at once', async () => {
  let tries = 0;
  await assert.rejects(
    sendParts(
      partsOf(1),
      options({
        send: async () => {
          tries++;
          throw new TransferError('http', 400);
        },
      }),
    ),
    (error: unknown) => error instanceof TransferError && error.partNumber === 1,
  );
  assert.equal(tries, 1);
});
