/** The attempt limiter on its own, with the injected clock: sliding windows, refunds, all-or-nothing reservations, warnings. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../src/http/errors.ts';
import { AttemptLimiter, type LimitRule } from '../src/http/rate-limiter.ts';
import { TestClock } from './support/test-app.ts';

const RULE: LimitRule = { name: 'test rule', max: 3, windowMs: 60_000 };
const LOOSE: LimitRule = { name: 'loose rule', max: 10, windowMs: 60_000, warn: true };

function setup() {
  const clock = new TestClock();
  const warnings: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const limiter = new AttemptLimiter(clock, {
    warn: (fields: Record<string, unknown>, msg: string) => warnings.push({ fields, msg }),
  } as never);
  return { clock, limiter, warnings };
}

/** The seconds of Retry-After when `fn` is refused, or null when it passes. */
function refusal(fn: () => unknown): number | null {
  try {
    fn();
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError && error.status === 429, String(error));
    assert.equal(error.code, 'RATE_LIMITED');
    return Number(error.headers['Retry-After']);
  }
}

describe('AttemptLimiter', () => {
  it('refuses the attempt after `max` in the window, with the wait until the oldest leaves it', () => {
    const { clock, limiter } = setup();
    const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
    take();
    clock.advance(10_000);
    take();
    clock.advance(10_000);
    take();
    assert.equal(refusal(take), 40, 'the first attempt leaves the window 40 s from now');
    assert.equal(
      refusal(() => limiter.reserve([{ rule: RULE, key: 'b' }])),
      null,
      'other keys are apart',
    );
    clock.advance(39_999);
    assert.equal(refusal(take), 1);
    clock.advance(1);
    assert.equal(refusal(take), null, 'the window slid past the first attempt');
    assert.equal(refusal(take), 10, 'and now waits for the second');
  });

  it('counts refused attempts nowhere: a steady stream of refusals does not extend the wait', () => {
    const { clock, limiter } = setup();
    const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
    for (let i = 0; i < 3; i++) take();
    for (let i = 0; i < 59; i++) {
      clock.advance(1000);
      assert.ok(refusal(take)! > 0);
    }
    clock.advance(1000);
    assert.equal(refusal(take), null);
  });

  it('frees the slot of a refunded attempt, once however often refund is called', () => {
    const { limiter } = setup();
    const take = () => limiter.reserve([{ rule: RULE, key: 'a' }]);
    const first = take();
    take();
    take();
    assert.notEqual(refusal(take), null);
    first.refund();
    first.refund();
    assert.equal(refusal(take), null, 'one slot came back');
    assert.notEqual(refusal(take), null, 'only one');
  });

  it('reserves under every key or under none', () => {
    const { limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.reserve([{ rule: RULE, key: 'full' }]);
    for (let i = 0; i < 5; i++) {
      assert.notEqual(
        refusal(() =>
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
        refusal(() => limiter.reserve([{ rule: LOOSE, key: 'shared' }])),
        null,
        `attempt ${i}`,
      );
    }
    assert.notEqual(
      refusal(() => limiter.reserve([{ rule: LOOSE, key: 'shared' }])),
      null,
    );
  });

  it('keeps rules apart even under the same key', () => {
    const { limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.reserve([{ rule: RULE, key: 'k' }]);
    assert.equal(
      refusal(() => limiter.reserve([{ rule: LOOSE, key: 'k' }])),
      null,
    );
  });

  it('warns once per window when a warning rule refuses, naming what it was given, shortened', () => {
    const { clock, limiter, warnings } = setup();
    const long = 'u'.repeat(500);
    const take = () => limiter.reserve([{ rule: LOOSE, key: 'x', logFields: { username: long } }]);
    for (let i = 0; i < 10; i++) take();
    assert.equal(warnings.length, 0, 'reaching the bound is not yet refusing anyone');
    for (let i = 0; i < 5; i++) refusal(take);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.fields.limit, 'loose rule');
    assert.equal(warnings[0]!.fields.username, 'u'.repeat(100));
    clock.advance(60_000);
    take();
    for (let i = 0; i < 9; i++) take();
    refusal(take);
    assert.equal(warnings.length, 2, 'a new window may warn again');
    for (let i = 0; i < 3; i++) limiter.reserve([{ rule: RULE, key: 'quiet' }]);
    refusal(() => limiter.reserve([{ rule: RULE, key: 'quiet' }]));
    assert.equal(warnings.length, 2, 'tight rules do not warn');
  });
});
