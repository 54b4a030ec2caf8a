/** Date formatting for key records, in the UI language. */
import { getLanguage } from '../../../lib/i18n/index.ts';

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(getLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
