/**
 * The audit log screen's filters as the server takes them (GET /admin/audit, the export link):
 * empty fields left out, the actor trimmed, and the date range as whole local days — "from" at the
 * start of its day, "to" at the end of its day — in ISO time.
 */
import type { AUDIT_OUTCOMES } from '@cubby/shared';

export interface AuditFilterValues {
  action: string;
  actor: string;
  outcome: '' | (typeof AUDIT_OUTCOMES)[number];
  /** `YYYY-MM-DD` from a date input, or empty. */
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilterValues = { action: '', actor: '', outcome: '', from: '', to: '' };

export interface AuditQuery {
  action?: string;
  actor?: string;
  outcome?: (typeof AUDIT_OUTCOMES)[number];
  from?: string;
  to?: string;
}

/** A date input's value as the local start (or end) of that day, in ISO time; undefined when empty or invalid. */
function dayBound(value: string, end: boolean): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function toAuditQuery(values: AuditFilterValues): AuditQuery {
  const actor = values.actor.trim();
  const from = dayBound(values.from, false);
  const to = dayBound(values.to, true);
  return {
    ...(values.action ? { action: values.action } : {}),
    ...(actor ? { actor } : {}),
    ...(values.outcome ? { outcome: values.outcome } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** Whether the "to" day comes before the "from" day (no entry could match). */
export function rangeReversed(values: AuditFilterValues): boolean {
  return values.from !== '' && values.to !== '' && values.to < values.from;
}
