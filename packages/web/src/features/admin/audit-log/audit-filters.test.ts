import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_FILTERS, rangeReversed, toAuditQuery } from './audit-filters.ts';

describe('audit log filters', () => {
  it('leaves empty fields out and trims the actor', () => {
    assert.deepEqual(toAuditQuery(NO_FILTERS), {});
    assert.deepEqual(
      toAuditQuery({ ...NO_FILTERS, actor: '  admin ', outcome: 'failure', action: 'auth.login' }),
      {
        action: 'auth.login',
        actor: 'admin',
        outcome: 'failure',
      },
    );
    assert.deepEqual(toAuditQuery({ ...NO_FILTERS, actor: '   ' }), {});
  });

  it('turns the date range into whole local days', () => {
    const query = toAuditQuery({ ...NO_FILTERS, from: '2026-03-01', to: '2026-03-02' });
    assert.equal(query.from, new Date(2026, 2, 1).toISOString());
    assert.equal(query.to, new Date(2026, 2, 2, 23, 59, 59, 999).toISOString());
    assert.deepEqual(toAuditQuery({ ...NO_FILTERS, from: 'yesterday' }), {});
  });

  it('notices a range that ends before it starts', () => {
    assert.equal(rangeReversed({ ...NO_FILTERS, from: '2026-03-02', to: '2026-03-01' }), true);
    assert.equal(rangeReversed({ ...NO_FILTERS, from: '2026-03-01', to: '2026-03-01' }), false);
    assert.equal(rangeReversed({ ...NO_FILTERS, to: '2026-03-01' }), false);
  });
});
