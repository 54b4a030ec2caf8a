/**
 * Running transfer work: a pool that keeps at most N tasks in flight while pulling items from a
 * (possibly asynchronous, lazily produced) source — so parts cut from a download are only read
 * when a slot is free — and a retry wrapper with exponential backoff.
 */

export interface PoolOptions {
  /** Most tasks in flight at once. */
  limit: number;
  /** Aborted on the first failure, so the tasks still running stop early. */
  abort?: AbortController;
}

/**
 * Runs `worker` on every item of `source`, at most `limit` at a time. Resolves when all are done;
 * on the first failure stops taking items, aborts `abort`, waits for the running tasks to settle
 * and rejects with that first error (also when the source itself throws).
 */
export async function runPool<T>(
  source: Iterable<T> | AsyncIterable<T>,
  worker: (item: T) => Promise<void>,
  options: PoolOptions,
): Promise<void> {
  const iterator =
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (source as Iterable<T>)[Symbol.iterator]();
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => {
    if (failure) return;
    failure = { error };
    options.abort?.abort();
  };

  try {
    while (!failure) {
      if (running.size >= Math.max(1, options.limit)) {
        await Promise.race(running);
        continue;
      }
      const next = await iterator.next();
      if (next.done) break;
      const task: Promise<void> = worker(next.value)
        .catch(fail)
        .finally(() => running.delete(task));
      running.add(task);
    }
  } catch (error) {
    fail(error);
  }
  await Promise.all(running);
  if (failure) {
    await Promise.resolve(iterator.return?.()).catch(() => {});
    throw (failure as { error: unknown }).error;
  }
}

export interface RetryOptions {
  /** Attempts in all (1 = no retry). */
  tries: number;
  /** Whether a failure is worth another attempt. */
  shouldRetry(error: unknown): boolean;
  /** Milliseconds before attempt `n + 1` after attempt `n` failed (n from 1). */
  delayMs?(attempt: number): number;
  signal?: AbortSignal;
  /** Waits (injectable for tests); rejects when `signal` aborts. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** 1 s, 2 s, 4 s, … */
export const backoff = (attempt: number): number => 1000 * 2 ** (attempt - 1);

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Calls `attempt(n)` until it succeeds, the error is not retryable, or `tries` are used up. */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const wait = options.sleep ?? sleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= options.tries || options.signal?.aborted || !options.shouldRetry(error)) throw error;
      await wait((options.delayMs ?? backoff)(n), options.signal);
    }
  }
}

/** An AbortController that also aborts when `parent` does (a pool's, so one failure stops its siblings). */
export function childController(parent: AbortSignal): AbortController {
  const controller = new AbortController();
  if (parent.aborted) controller.abort();
  else parent.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}
