/** The part pool (at most N in flight, lazily fed, stops on the first failure) and per-part retries. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoff, runPool, withRetry } from './task-runner.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

test('never runs more than the limit at once, and runs everything', async () => {
  let running = 0;
  let peak = 0;
  const done: number[] = [];
  await runPool(
    [1, 2, 3, 4, 5, 6, 7],
    async (n) => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
      done.push(n);
    },
    { limit: 3 },
  );
  assert.equal(peak, 3);
  assert.deepEqual([...done].sort(), [1, 2, 3, 4, 5, 6, 7]);
});

test('pulls from an async source only when a slot is free (backpressure)', async () => {
  let produced = 0;
  let maxAhead = 0;
  let finished = 0;
  async function* parts() {
    for (let i = 0; i < 8; i++) {
      produced++;
      maxAhead = Math.max(maxAhead, produced - finished);
      yield i;
    }
  }
  await runPool(
    parts(),
    async () => {
      await tick();
      finished++;
    },
    { limit: 3 },
  );
  assert.equal(finished, 8);
  assert.ok(maxAhead <= 3, `produced ${maxAhead} items ahead of the uploads`);
});

test('the first failure aborts the others, stops taking items and is what rejects', async () => {
  const abort = new AbortController();
  const started: number[] = [];
  await assert.rejects(
    runPool(
      [1, 2, 3, 4, 5, 6],
      async (n) => {
        started.push(n);
        if (n === 2) throw new Error('part 2 failed');
        await new Promise<void>((resolve) => {
          if (abort.signal.aborted) resolve();
          abort.signal.addEventListener('abort', () => resolve());
        });
        if (n === 3) throw new Error('part 3 aborted');
      },
      { limit: 3, abort },
    ),
    /part 2 failed/,
  );
  assert.equal(abort.signal.aborted, true);
  assert.deepEqual(started, [1, 2, 3]);
});

test('a source that throws (a failed download) rejects after the running tasks settle', async () => {
  let settled = 0;
  async function* source() {
    yield 1;
    throw new Error('download broke');
  }
  await assert.rejects(
    runPool(
      source(),
      async () => {
        await tick();
        settled++;
      },
      { limit: 3 },
    ),
    /download broke/,
  );
  assert.equal(settled, 1);
});

test('retries a retryable failure with backoff, up to the number of tries', async () => {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  let calls = 0;
  const result = await withRetry(
    async (n) => {
      calls++;
      if (n < 3) throw new Error('network');
      return 'etag';
    },
    { tries: 3, shouldRetry: () => true, sleep },
  );
  assert.equal(result, 'etag');
  assert.equal(calls, 3);
  assert.deepEqual(waits, [1000, 2000]);
  assert.equal(backoff(3), 4000);

  calls = 0;
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        throw new Error('still down');
      },
      { tries: 3, shouldRetry: () => true, sleep },
    ),
    /still down/,
  );
  assert.equal(calls, 3);
});

test('does not retry what is not retryable, nor after cancellation', async () => {
  let calls = 0;
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        throw new Error('HTTP 400');
      },
      { tries: 3, shouldRetry: (e) => !String(e).includes('400'), sleep: async () => {} },
    ),
  );
  assert.equal(calls, 1);
  const controller = new AbortController();
  calls = 0;
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        controller.abort();
        throw new Error('cancelled');
      },
      { tries: 3, shouldRetry: () => true, signal: controller.signal, sleep: async () => {} },
    ),
  );
  assert.equal(calls, 1);
});
