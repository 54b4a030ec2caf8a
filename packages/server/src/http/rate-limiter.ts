/**
 * Limits guesses at secrets (admin logins, WebDAV Basic, current password, share passwords).
 *
 * An attempt is reserved before the secret is checked, under every key at once — so however many
 * requests arrive together, at most `max` per window and key are ever evaluated — and refunded when
 * it turns out right. Callers await the reservation before they look at the secret. A limit shared
 * by all addresses (one username, one share) can be filled by strangers to lock the owner out: such
 * limits are set much higher and say so in the log, once per window and instance, when they refuse
 * someone.
 *
 * Two implementations, chosen at start (`createAttemptLimiter`):
 * - in memory (SQLite: one instance): sliding windows; the reservation never awaits, so no other
 *   request passes between the check and the count. A restart clears them.
 * - in PostgreSQL (several instances): a sliding window made of buckets, one row per (rule, key,
 *   bucket of a fifteenth of the window). The reservation adds one to its bucket by an atomic upsert
 *   (rows locked in one order) and sums the buckets still inside the window, in one transaction,
 *   rolled back when any key is over its max, so the limit holds across every instance. A refund is
 *   a decrement; rows of buckets that left the window are pruned now and then. An attempt counts
 *   until its bucket leaves the window: for the window less at most one bucket, so at most `max`
 *   pass in any stretch of the window less a fifteenth.
 */
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { rateLimited } from '../errors/app-error.ts';
import type { MessageKey } from '../errors/messages.ts';

export interface LimitRule {
  /** Names the rule in the log and separates its keys from other rules'. */
  readonly name: string;
  readonly max: number;
  readonly windowMs: number;
  /** Log a warning when this rule refuses: it may be locking out someone legitimate. */
  readonly warn?: boolean;
  /**
   * What a refusal says: "too many wrong passwords" unless the rule counts something else (codes,
   * passkey ceremonies, sign-ins begun). CloudPaste's client matches on the password message.
   */
  readonly message?: MessageKey;
}

/** One key under one rule, and what a warning should name (no secret: never a password). */
export interface LimitKey {
  readonly rule: LimitRule;
  readonly key: string;
  readonly logFields?: Record<string, string>;
}

/** A reserved attempt: it counts as a failure unless refunded. */
export interface Attempt {
  refund(): Promise<void>;
}

export interface AttemptLimiter {
  /**
   * Reserves one attempt under every key, or none: when any key is full it rejects with 429 and
   * Retry-After (the longest wait among the full ones).
   */
  reserve(keys: readonly LimitKey[]): Promise<Attempt>;
}

type WarnLogger = Pick<Logger, 'warn'>;

/** Above this many keys, forgotten ones are dropped (at most once a minute, so it stays cheap). */
const PRUNE_ABOVE = 50_000;
const PRUNE_EVERY_MS = 60_000;
const LOGGED_CHARS = 100;

const keyId = (ruleName: string, key: string) => `${ruleName}\u0000${key}`;
/** The message of a refusal under these keys (their rules count one kind of thing). */
const messageOf = (keys: readonly LimitKey[]) => keys.find((k) => k.rule.message)?.rule.message;

/** The shared counters on PostgreSQL, the memory ones otherwise. */
export function createAttemptLimiter(db: Db, clock: Clock, logger: WarnLogger): AttemptLimiter {
  return db.dialect === 'postgres'
    ? new PgAttemptLimiter(db.kysely, clock, logger)
    : new MemoryAttemptLimiter(clock, logger);
}

/** The warning a `warn` rule logs when it refuses, once per window for each key. */
class RefusalLog {
  /** Until when a rule's refusal for a key has been logged. */
  private readonly warned = new Map<string, number>();

  constructor(private readonly logger: WarnLogger) {}

  refused({ rule, key, logFields = {} }: LimitKey, now: number): void {
    if (!rule.warn) return;
    const id = keyId(rule.name, key);
    if ((this.warned.get(id) ?? 0) > now) return;
    this.warned.set(id, now + rule.windowMs);
    const shown = Object.fromEntries(
      Object.entries(logFields).map(([name, value]) => [name, value.slice(0, LOGGED_CHARS)]),
    );
    this.logger.warn(
      { limit: rule.name, max: rule.max, windowSeconds: rule.windowMs / 1000, ...shown },
      `rate limit reached (${rule.name}): attempts are refused until the window has passed; someone may be guessing`,
    );
  }

  prune(now: number): void {
    for (const [id, until] of this.warned) if (until <= now) this.warned.delete(id);
  }
}

interface Window {
  readonly windowMs: number;
  /** Reservation times, oldest first. */
  readonly times: number[];
}

/** Sliding windows in this process (SQLite: one instance). */
export class MemoryAttemptLimiter implements AttemptLimiter {
  /** By rule name and key. */
  private readonly windows = new Map<string, Window>();
  private readonly log: RefusalLog;
  private nextPrune = 0;

  constructor(
    private readonly clock: Clock,
    logger: WarnLogger,
  ) {
    this.log = new RefusalLog(logger);
  }

  /** Counts before it returns (never awaits), so no other request can pass between check and count. */
  reserve(keys: readonly LimitKey[]): Promise<Attempt> {
    const now = this.clock.now().getTime();
    if (this.windows.size > PRUNE_ABOVE && now >= this.nextPrune) this.prune(now);
    let wait = 0;
    const windows = keys.map((limit) => {
      const { rule, key } = limit;
      const id = keyId(rule.name, key);
      const window = this.live(id, rule.windowMs, now);
      const { times } = window;
      if (times.length >= rule.max) {
        wait = Math.max(wait, Math.ceil((times[times.length - rule.max]! + rule.windowMs - now) / 1000));
        this.log.refused(limit, now);
      }
      return { id, window };
    });
    if (wait > 0) return Promise.reject(rateLimited(wait, messageOf(keys)));
    for (const { id, window } of windows) {
      window.times.push(now);
      this.windows.set(id, window);
    }
    let refunded = false;
    return Promise.resolve({
      refund: () => {
        if (refunded) return Promise.resolve();
        refunded = true;
        for (const { window } of windows) {
          const at = window.times.lastIndexOf(now);
          if (at >= 0) window.times.splice(at, 1);
        }
        return Promise.resolve();
      },
    });
  }

  /** The key's window with the reservations that have left it dropped. */
  private live(id: string, windowMs: number, now: number): Window {
    const window = this.windows.get(id) ?? { windowMs, times: [] };
    const firstLive = window.times.findIndex((t) => t > now - windowMs);
    window.times.splice(0, firstLive < 0 ? window.times.length : firstLive);
    return window;
  }

  private prune(now: number): void {
    this.nextPrune = now + PRUNE_EVERY_MS;
    for (const [id, window] of this.windows) {
      if (!window.times.some((t) => t > now - window.windowMs)) this.windows.delete(id);
    }
    this.log.prune(now);
  }
}

/** Buckets per window on PostgreSQL: the window slides a fifteenth at a time (a minute of 15). */
const BUCKETS = 15;

/** Sliding windows of buckets in the `attempt_counters` table, shared by every instance on the database. */
export class PgAttemptLimiter implements AttemptLimiter {
  private readonly log: RefusalLog;
  private nextPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly logger: WarnLogger,
  ) {
    this.log = new RefusalLog(logger);
  }

  async reserve(keys: readonly LimitKey[]): Promise<Attempt> {
    const now = this.clock.now().getTime();
    if (now >= this.nextPrune) this.prune(now);
    // One row per distinct (rule, key), locked in one order so that two reservations never deadlock.
    const byId = new Map(keys.map((limit) => [keyId(limit.rule.name, limit.key), limit]));
    const rows = [...byId.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, { rule, key }]) => {
        const bucket = Math.max(1, Math.floor(rule.windowMs / BUCKETS));
        const windowStart = Math.floor(now / bucket) * bucket;
        // The bucket counts until its start is a whole window ago; then it may go.
        return {
          rule: rule.name,
          key,
          window_start: windowStart,
          count: 1,
          expires_at: windowStart + rule.windowMs,
        };
      });
    if (rows.length === 0) return { refund: () => Promise.resolve() };
    await this.db.transaction().execute(async (trx) => {
      // The upsert locks this bucket's row until the end: reservations of one key count one at a time.
      await trx
        .insertInto('attempt_counters')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['rule', 'key', 'window_start']).doUpdateSet({ count: sql`attempt_counters.count + 1` }),
        )
        .execute();
      const live = await trx
        .selectFrom('attempt_counters')
        .select(['rule', 'key', 'window_start', 'count'])
        .where((eb) =>
          eb.or(
            rows.map((r) =>
              eb.and([eb('rule', '=', r.rule), eb('key', '=', r.key), eb('expires_at', '>', now)]),
            ),
          ),
        )
        .orderBy('window_start')
        .execute();
      let wait = 0;
      for (const [id, limit] of byId) {
        const buckets = live.filter((row) => keyId(row.rule, row.key) === id);
        let excess = buckets.reduce((sum, row) => sum + row.count, 0) - limit.rule.max;
        if (excess <= 0) continue;
        // The wait: until the oldest buckets that hold the excess have left the window.
        for (const row of buckets) {
          excess -= row.count;
          if (excess > 0) continue;
          wait = Math.max(wait, Math.ceil((Number(row.window_start) + limit.rule.windowMs - now) / 1000));
          break;
        }
        this.log.refused(limit, now);
      }
      // Thrown inside the transaction: nothing is counted under any key.
      if (wait > 0) throw rateLimited(wait, messageOf(keys));
    });
    let refunded = false;
    return {
      refund: async () => {
        if (refunded) return;
        refunded = true;
        await this.db
          .updateTable('attempt_counters')
          .set({ count: sql`count - 1` })
          .where('count', '>', 0)
          .where((eb) =>
            eb.or(
              rows.map((r) =>
                eb.and([
                  eb('rule', '=', r.rule),
                  eb('key', '=', r.key),
                  eb('window_start', '=', r.window_start),
                ]),
              ),
            ),
          )
          .execute();
      },
    };
  }

  /** Drops the rows of buckets that have left their window (at most once a minute, in the background). */
  private prune(now: number): void {
    this.nextPrune = now + PRUNE_EVERY_MS;
    this.log.prune(now);
    this.db
      .deleteFrom('attempt_counters')
      .where('expires_at', '<=', now)
      .execute()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not prune old attempt counters'));
  }
}
