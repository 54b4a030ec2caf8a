/** The audit log's retention as typed in settings: a whole number of days from 0 (for ever) up to the server's limit. */
import { MAX_AUDIT_RETENTION_DAYS } from '@cubby/shared';

/** The days typed, or null when they are not a whole number from 0 to the maximum. */
export function parseRetentionDays(text: string): number | null {
  if (!/^\s*\d{1,6}\s*$/.test(text)) return null;
  const days = Number(text);
  return days <= MAX_AUDIT_RETENTION_DAYS ? days : null;
}
