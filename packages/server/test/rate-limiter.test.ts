/**
 * The attempt limiters on their own, with the injected clock: in memory (sliding windows) and in
 * PostgreSQL (sliding windows of buckets shared through the database) — refunds, all-or-nothing reservations,
 * rules apart, warnings, and concurrent reservations from two limiters on one database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../src/errors/app-error.ts';
import {
  type AttemptLimiter,
  type LimitRule,
  MemoryAttemptLimiter,
  PgAttemptLimiter,
} from '../src/http/rate-limiter.ts';
import { createTestDatabase, POSTGRES_SKIP, type TestDatabase } from './support/databases.ts';
import { TestClock } from './support/test-app.ts';

const RULE: LimitRule = { name: 'test rule', max: 3, windowMs: 60_000 };
const LOOSE: LimitRule = { name: 'loose rule', max: 10, windowMs: 60_000, warn: true };

type Warnings = Array<{ fields: Record<string, unknown>; msg: string }>;

function warnSink(warnings: Warnings) {
  return { warn: (fields: Record<string, unknown>, msg: string) => warnings.push({ fields, msg }) } as never;
}

/** The seconds of Retry-After when `fn` is refused, or null when it passes. */
async function refusal(fn: () => Promise<unknown>): Promise<number | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError && error.status === 429, String(error));
    assert.equal(error.code, 'RATE_LIMITED');
    return Number(error.headers['Retry-After']);
  }
}

interface Kind {
  name: string;
  /** A limiter on a clean state; `second` makes another one on the same state (another instance). */
  setup(): Promise<{
    clock: TestClock;
    limiter: AttemptLimiter;
    warnings: Warnings;
    second(): AttemptLimiter;
  }>;
}

let database: TestDatabase | undefined;
const KINDS: Kind[] = [
  {
    name: 'in memory',
    async setup() {
      const clock = new TestClock();
      const warnings: Warnings = [];
      const limiter = new MemoryAttemptLimiter(clock, warnSink(warnings));
      return { clock, limiter, warnings, second: () => limiter };
    },
  },
  {
    name: 'PostgreSQL',
    async setup() {
      database ??= await createTestDatabase('postgres');
      const db = database.db.kysely;
      await db.deleteFrom('attempt_counters').execute();
      // Window starts at a whole minute: the clock starts at 2026-01-01T00:00:00Z.
      const clock = new TestClock();
      const warnings: Warnings = [];
      return {
        clock,
        limiter: new PgAttemptLimiter(db, clock, warnSink(warnings)),
        warnings,
        second: () => new PgAttemptLimiter(db, clock, warnSink(warnings)),
      };
    },
  },
];

after(() => database?.destroy());

for (const kind of KINDS) {
  describe(`AttemptLimiter (${kind.name})`, { skip: kind.name === 'PostgreSQL' && POSTGRES_SKIP }, () => {
    it('frees the slot of a refunded attempt, once however often refund is called', async () => {
      const { limiter } = await kind.setup();
      const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
      const first = await take();
      await take();
      await take();
      assert.notEqual(await refusal(take), null);
      await first.refund();
      await first.refund();
      assert.equal(await refusal(take), null, 'one slot came back');
      assert.notEqual(await refusal(take), null, 'only one');
    });

    it('reserves under every key or under none', async () => {
      const { limiter } = await kind.setup();
      for (let i = 0; i < 3; i++) await limiter.reserve([{ rule: RULE, key: 'full' }]);
      for (let i = 0; i < 5; i++) {
        assert.notEqual(
          await refusal(() =>
            limiter.reserve([
              { rule: LOOSE, key: 'shared' },
              { rule: RULE, key: 'full' },
            ]),
          ),
          null,
        );
      }
      for (let i = 0; i < 10; i++) {
        assert.equal(
          await refusal(() => limiter.reserve([{ rule: LOOSE, key: 'shared' }])),
          null,
          `attempt ${i}`,
        );
      }
      assert.notEqual(await refusal(() => limiter.reserve([{ rule: LOOSE, key: 'shared' }])), null);
    });

    it('keeps rules apart even under the same key', async () => {
      const { limiter } = await kind.setup();
      for (let i = 0; i < 3; i++) await limiter.reserve([{ rule: RULE, key: 'k' }]);
      assert.equal(await refusal(() => limiter.reserve([{ rule: LOOSE, key: 'k' }])), null);
    });

    it('counts refused attempts nowhere: refusals all through a window do not extend the wait', async () => {
      const { clock, limiter } = await kind.setup();
      const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
      for (let i = 0; i < 3; i++) await take();
      for (let i = 0; i < 59; i++) {
        clock.advance(1000);
        assert.ok((await refusal(take))! > 0);
      }
      clock.advance(1000);
      assert.equal(await refusal(take), null);
    });

    it('warns once per window when a warning rule refuses, naming what it was given, shortened', async () => {
      const { clock, limiter, warnings } = await kind.setup();
      const long = 'u'.repeat(500);
      const take = () => limiter.reserve([{ rule: LOOSE, key: 'x', logFields: { username: long } }]);
      for (let i = 0; i < 10; i++) await take();
      assert.equal(warnings.length, 0, 'reaching the bound is not yet refusing anyone');
      for (let i = 0; i < 5; i++) await refusal(take);
      assert.equal(warnings.length, 1);
      assert.equal(warnings[0]!.fields.limit, 'loose rule');
      assert.equal(warnings[0]!.fields.username, 'u'.repeat(100));
      clock.advance(60_000);
      for (let i = 0; i < 10; i++) await take();
      await refusal(take);
      assert.equal(warnings.length, 2, 'a new window may warn again');
      for (let i = 0; i < 3; i++) await limiter.reserve([{ rule: RULE, key: 'quiet' }]);
      await refusal(() => limiter.reserve([{ rule: RULE, key: 'quiet' }]));
      assert.equal(warnings.length, 2, 'tight rules do not warn');
    });

    it('lets exactly `max` of many simultaneous reservations through, from two limiters on one state', async () => {
      const { limiter, second } = await kind.setup();
      const other = second();
      const keys = [
        { rule: LOOSE, key: 'share' },
        { rule: RULE, key: 'share address' },
      ];
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => refusal(() => (i % 2 ? other : limiter).reserve(keys))),
      );
      assert.equal(outcomes.filter((o) => o === null).length, RULE.max);
      assert.ok(outcomes.every((o) => o === null || o > 0));
      // The refused ones counted under no key: the loose rule still has room for 10 − 3.
      const rest = await Promise.all(
        Array.from({ length: 10 }, () => refusal(() => limiter.reserve([{ rule: LOOSE, key: 'share' }]))),
      );
      assert.equal(rest.filter((o) => o === null).length, LOOSE.max - RULE.max);
    });
  });
}

describe('AttemptLimiter in memory: sliding windows', () => {
  it('refuses the attempt after `max` in the window, with the wait until the oldest leaves it', async () => {
    const clock = new TestClock();
    const limiter = new MemoryAttemptLimiter(clock, warnSink([]));
    const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
    await take();
    clock.advance(10_000);
    await take();
    clock.advance(10_000);
    await take();
    assert.equal(await refusal(take), 40, 'the first attempt leaves the window 40 s from now');
    assert.equal(
      await refusal(() => limiter.reserve([{ rule: RULE, key: 'b' }])),
      null,
      'other keys are apart',
    );
    clock.advance(39_999);
    assert.equal(await refusal(take), 1);
    clock.advance(1);
    assert.equal(await refusal(take), null, 'the window slid past the first attempt');
    assert.equal(await refusal(take), 10, 'and now waits for the second');
  });

  it('counts before reserve returns: a reservation made in the same tick is seen', () => {
    const limiter = new MemoryAttemptLimiter(new TestClock(), warnSink([]));
    const pending = Array.from({ length: 5 }, () => limiter.reserve([{ rule: RULE, key: 'a' }]));
    return Promise.allSettled(pending).then((settled) => {
      assert.deepEqual(
        settled.map((s) => s.status),
        ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected'],
      );
    });
  });
});

describe(
  'AttemptLimiter in PostgreSQL: sliding windows of buckets in the database',
  { skip: POSTGRES_SKIP },
  () => {
    let db: TestDatabase['db']['kysely'];
    const postgres = KINDS.find((kind) => kind.name === 'PostgreSQL')!;
    before(async () => {
      database ??= await createTestDatabase('postgres');
      db = database.db.kysely;
    });

    it('refuses until the attempts leave the window, one row per rule, key and bucket, and prunes old buckets', async () => {
      const { clock, limiter } = await postgres.setup();
      const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
      // Buckets of 4 s (a fifteenth of a minute): attempts at 15 s fall in the one from 12 s.
      clock.advance(15_000);
      for (let i = 0; i < 3; i++) await take();
      clock.advance(5_000);
      assert.equal(await refusal(take), 52, 'the bucket from 12 s leaves the window at 72 s');
      const rows = await db.selectFrom('attempt_counters').selectAll().execute();
      assert.deepEqual(
        rows.map((r) => ({ ...r })),
        [
          {
            rule: 'test rule',
            key: 'a',
            window_start: Date.parse('2026-01-01T00:00:12Z'),
            count: 3,
            expires_at: Date.parse('2026-01-01T00:01:12Z'),
          },
        ],
      );
      clock.advance(40_000);
      assert.equal(await refusal(take), 12, 'a minute boundary passed: still inside the window');
      clock.advance(12_000);
      assert.equal(await refusal(take), null, 'the window slid past them');
      // Two minutes on, the next reservation prunes the rows of buckets that left their window.
      clock.advance(120_000);
      await take();
      await waitFor(
        async () => (await db.selectFrom('attempt_counters').select('window_start').execute()).length === 1,
      );
    });

    it('a burst on both sides of a minute boundary gets the limit once, not twice', async () => {
      const { clock, limiter } = await postgres.setup();
      const take = () => limiter.reserve([{ rule: RULE, key: 'edge' }]);
      clock.advance(59_000);
      for (let i = 0; i < 3; i++) await take();
      clock.advance(2_000);
      assert.ok((await refusal(take))! > 0, 'one second past the boundary');
    });
  },
);

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
