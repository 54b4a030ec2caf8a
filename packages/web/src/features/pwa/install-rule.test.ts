import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTALL_PROMPT_INTERVAL_MS, mayOfferInstall } from './install-rule.ts';

test('the install prompt comes back 7 days after "Not now"', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  assert.equal(mayOfferInstall(undefined, now), true);
  assert.equal(mayOfferInstall(now - 1000, now), false);
  assert.equal(mayOfferInstall(now - INSTALL_PROMPT_INTERVAL_MS + 1, now), false);
  assert.equal(mayOfferInstall(now - INSTALL_PROMPT_INTERVAL_MS, now), true);
  assert.equal(mayOfferInstall(now + 60_000, now), true);
});
