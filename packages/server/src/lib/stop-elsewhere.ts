/**
 * Cancelling background work that goes on in another instance (an fs copy or move task, a scheduled
 * sync run; docs/operations.md, "Several instances"): a `stop` note on the cache bus reaches every
 * instance, the one running the work aborts it exactly as its own cancel would, and the caller waits
 * for the work's record to say it ended. One home for both kinds of work.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CacheBus } from './cache-bus.ts';

/** How long a cancel waits for the other instance to stop the work. */
const STOP_WAIT_MS = 15_000;
const POLL_MS = 100;

/**
 * Asks the instance running work `id` to stop it; resolves true once `ended()` says its record has
 * ended, false when there is no other instance to ask (SQLite), the note cannot be sent, or the work
 * still runs after the wait (that instance is gone or cannot hear: its record is failed once it is
 * found dead).
 */
export async function stopElsewhere(
  bus: CacheBus | undefined,
  id: string,
  ended: () => Promise<boolean>,
  options: { waitMs?: number } = {},
): Promise<boolean> {
  if (!bus || bus.state() === 'local') return false;
  bus.publish({ kind: 'stop', id });
  await bus.flush();
  const until = Date.now() + (options.waitMs ?? STOP_WAIT_MS);
  for (;;) {
    if (await ended()) return true;
    if (Date.now() >= until) return false;
    await delay(POLL_MS);
  }
}
