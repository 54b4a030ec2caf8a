import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRetentionDays } from './audit-retention.ts';

test('retention days are a whole number from 0 to 36500', () => {
  assert.equal(parseRetentionDays('90'), 90);
  assert.equal(parseRetentionDays(' 0 '), 0);
  assert.equal(parseRetentionDays('36500'), 36500);
  for (const bad of ['', '-1', '1.5', '1e3', 'abc', '36501', '999999']) {
    assert.equal(parseRetentionDays(bad), null, bad);
  }
});
