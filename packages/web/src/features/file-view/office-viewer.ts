/**
 * Office preview (issue 10 item 9): Microsoft's online viewer shows a Word, Excel or PowerPoint file
 * it fetches itself from a URL. Cubby's server gives that URL (a token link to its own download
 * route); this builds the viewer's embed address around it, and finds the token of the page's links
 * so a password already given is not asked for again.
 */

export const OFFICE_VIEWER_ORIGIN = 'https://view.officeapps.live.com';

/** The embeddable viewer page for a file at `fileUrl` (absolute, reachable from the internet). */
export function officeViewerUrl(fileUrl: string): string {
  return `${OFFICE_VIEWER_ORIGIN}/op/embed.aspx?src=${encodeURIComponent(fileUrl)}`;
}

/** The share token a link carries (`?token=`), or undefined. */
export function shareTokenOf(link: string): string | undefined {
  try {
    return new URL(link, 'http://cubby.invalid').searchParams.get('token') ?? undefined;
  } catch {
    return undefined;
  }
}
