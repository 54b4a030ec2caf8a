/**
 * Limits guesses at secrets (admin logins, current password, share passwords) in sliding windows.
 *
 * An attempt is reserved before the secret is checked, synchronously, under every key at once — so
 * however many requests arrive together, at most `max` per window and key are ever evaluated — and
 * refunded when it turns out right. A limit shared by all addresses (one username, one share) can be
 * filled by strangers to lock the owner out: such limits are set much higher and say so in the log,
 * once per window, when they refuse someone. In process: a restart clears them.
 */
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.ts';
import { rateLimited } from './errors.ts';

export interface LimitRule {
  /** Names the rule in the log and separates its keys from other rules'. */
  readonly name: string;
  readonly max: number;
  readonly windowMs: number;
  /** Log a warning when this rule refuses: it may be locking out someone legitimate. */
  readonly warn?: boolean;
}

/** One key under one rule, and what a warning should name (no secret: never a password). */
export interface LimitKey {
  readonly rule: LimitRule;
  readonly key: string;
  readonly logFields?: Record<string, string>;
}

/** A reserved attempt: it counts as a failure unless refunded. */
export interface Attempt {
  refund(): void;
}

/** Above this many keys, forgotten ones are dropped (at most once a minute, so it stays cheap). */
const PRUNE_ABOVE = 50_000;
const PRUNE_EVERY_MS = 60_000;
const LOGGED_CHARS = 100;

interface Window {
  readonly windowMs: number;
  /** Reservation times, oldest first. */
  readonly times: number[];
}

export class AttemptLimiter {
  /** By rule name and key. */
  private readonly windows = new Map<string, Window>();
  /** Until when a rule's refusal for a key has been logged. */
  private readonly warned = new Map<string, number>();
  private nextPrune = 0;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /**
   * Reserves one attempt under every key, or none: when any key is full it throws 429 with
   * Retry-After (the longest wait among the full ones). Never awaits, so no other request can pass
   * between the check and the count.
   */
  reserve(keys: readonly LimitKey[]): Attempt {
    const now = this.clock.now().getTime();
    if (this.windows.size > PRUNE_ABOVE && now >= this.nextPrune) this.prune(now);
    let wait = 0;
    const windows = keys.map(({ rule, key, logFields }) => {
      const id = `${rule.name}\u0000${key}`;
      const window = this.live(id, rule.windowMs, now);
      const { times } = window;
      if (times.length >= rule.max) {
        wait = Math.max(wait, Math.ceil((times[times.length - rule.max]! + rule.windowMs - now) / 1000));
        if (rule.warn) this.warnOnce(id, rule, now, logFields);
      }
      return { id, window };
    });
    if (wait > 0) throw rateLimited(wait);
    for (const { id, window } of windows) {
      window.times.push(now);
      this.windows.set(id, window);
    }
    let refunded = false;
    return {
      refund: () => {
        if (refunded) return;
        refunded = true;
        for (const { window } of windows) {
          const at = window.times.lastIndexOf(now);
          if (at >= 0) window.times.splice(at, 1);
        }
      },
    };
  }

  /** The key's window with the reservations that have left it dropped. */
  private live(id: string, windowMs: number, now: number): Window {
    const window = this.windows.get(id) ?? { windowMs, times: [] };
    const firstLive = window.times.findIndex((t) => t > now - windowMs);
    window.times.splice(0, firstLive < 0 ? window.times.length : firstLive);
    return window;
  }

  private warnOnce(id: string, rule: LimitRule, now: number, fields: Record<string, string> = {}): void {
    if ((this.warned.get(id) ?? 0) > now) return;
    this.warned.set(id, now + rule.windowMs);
    const shown = Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [name, value.slice(0, LOGGED_CHARS)]),
    );
    this.logger.warn(
      { limit: rule.name, max: rule.max, windowSeconds: rule.windowMs / 1000, ...shown },
      `rate limit reached (${rule.name}): attempts are refused until the window has passed; someone may be guessing`,
    );
  }

  private prune(now: number): void {
    this.nextPrune = now + PRUNE_EVERY_MS;
    for (const [id, window] of this.windows) {
      if (!window.times.some((t) => t > now - window.windowMs)) this.windows.delete(id);
    }
    for (const [id, until] of this.warned) if (until <= now) this.warned.delete(id);
  }
}
