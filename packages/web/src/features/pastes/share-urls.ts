/**
 * Absolute addresses of a paste: its page, and its raw text on the API (`<backend>/api/raw/<slug>`;
 * `?password=` only when the reader typed one, which is never stored; `?file=` for one file of a
 * multi-file paste).
 */
import { paths } from '../../config/paths.ts';
import { getApiBaseUrl } from '../../lib/api/index.ts';

export function pastePageUrl(slug: string): string {
  return new URL(paths.paste.getHref(slug), window.location.origin).href;
}

export function rawPasteUrl(slug: string, password?: string, file?: string): string {
  const url = new URL(`${getApiBaseUrl()}/raw/${encodeURIComponent(slug)}`, window.location.origin);
  if (password) url.searchParams.set('password', password);
  if (file !== undefined) url.searchParams.set('file', file);
  return url.href;
}
