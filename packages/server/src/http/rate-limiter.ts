/**
 * Counts failed guesses (admin logins now; WebDAV Basic and share passwords later) in a sliding
 * window per key, e.g. per username and per client address. In process: a restart clears it.
 */
import type { Clock } from '../lib/clock.ts';

export interface RateLimitOptions {
  maxFailures: number;
  windowMs: number;
}

export class FailureRateLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly options: RateLimitOptions,
  ) {}

  /** Seconds until the first of `keys` may try again, or 0 when none is blocked. */
  retryAfter(keys: string[]): number {
    const now = this.clock.now().getTime();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.options.maxFailures) {
        const oldest = recent[recent.length - this.options.maxFailures]!;
        wait = Math.max(wait, Math.ceil((oldest + this.options.windowMs - now) / 1000));
      }
    }
    return wait;
  }

  recordFailure(keys: string[]): void {
    const now = this.clock.now().getTime();
    if (this.failures.size > 50_000) this.prune(now);
    for (const key of keys) {
      const recent = this.recent(key, now);
      recent.push(now);
      this.failures.set(key, recent.slice(-this.options.maxFailures));
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.options.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) {
      if (!times.some((t) => t > now - this.options.windowMs)) this.failures.delete(key);
    }
  }
}
