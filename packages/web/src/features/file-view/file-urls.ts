/** The address of a file share's page, `/file/<slug>`, absolute (for copying and QR codes). */
import { paths } from '../../config/paths.ts';

export function filePageUrl(slug: string): string {
  return new URL(paths.file.getHref(slug), window.location.origin).href;
}
