/** The address of a folder share's page, `/folder/<slug>`, absolute (for copying and QR codes). */
import { paths } from '../../config/paths.ts';

export function folderPageUrl(slug: string): string {
  return new URL(paths.folder.getHref(slug), window.location.origin).href;
}
