/**
 * How a shared file is served (docs/compatibility.md §8: CloudPaste's types, served safely): its type comes
 * from the file name (the stored type only makes it more cautious), a download is always an attachment,
 * and the view route shows inline only what a browser cannot run: raster images, video, audio, PDF
 * and plain text — every other text type (HTML and XML too) is shown as text/plain, and SVG is an
 * attachment (an <img> still shows it). HTML, SVG and XML, by name or
 * declared type, always carry `Content-Security-Policy: sandbox`, as does everything that is not
 * media or PDF; `nosniff` goes with every answer.
 */
import { DEFAULT_MIME, extensionOf, mimeFromFilename } from '@cubby/shared';

export type ServeRoute = 'view' | 'download';

export interface ServingHeaders {
  contentType: string;
  disposition: 'inline' | 'attachment';
  /** Whether the answer gets `Content-Security-Policy: sandbox`. */
  sandbox: boolean;
}

const ACTIVE_EXTENSIONS = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'xsd',
  'mht',
  'mhtml',
]);
/** Markup a browser may run script in. */
const isActiveMime = (mime: string): boolean => /html|xml|svg/i.test(mime);
/** Data formats shown as text on the view route, like text/*. */
const TEXT_LIKE = /^application\/(json|toml|sql|x-sh|javascript|ecmascript|yaml|x-yaml)\b/i;

function baseMime(mime: string): string {
  return mime.split(';')[0]!.trim().toLowerCase();
}

export function servingHeaders(filename: string, storedMime: string, route: ServeRoute): ServingHeaders {
  const byName = mimeFromFilename(filename);
  const declared = baseMime(storedMime || DEFAULT_MIME);
  const mime = byName === DEFAULT_MIME && declared.includes('/') ? declared : byName;
  const active =
    ACTIVE_EXTENSIONS.has(extensionOf(filename)) || isActiveMime(byName) || isActiveMime(declared);
  const media = !active && /^(image|video|audio)\//.test(mime);
  const pdf = !active && mime === 'application/pdf';

  if (route === 'download') {
    return { contentType: mime, disposition: 'attachment', sandbox: !media && !pdf };
  }
  if (media || pdf) return { contentType: mime, disposition: 'inline', sandbox: false };
  if (isSvg(filename, byName, declared)) {
    // Never a page of ours; an <img> still shows it (a disposition does not apply to images).
    return { contentType: 'image/svg+xml', disposition: 'attachment', sandbox: true };
  }
  if (mime.startsWith('text/') || TEXT_LIKE.test(mime) || active) {
    // Shown as its source, never rendered: HTML and XML included.
    return { contentType: 'text/plain; charset=utf-8', disposition: 'inline', sandbox: true };
  }
  return { contentType: mime, disposition: 'attachment', sandbox: true };
}

function isSvg(filename: string, byName: string, declared: string): boolean {
  return byName === 'image/svg+xml' || declared === 'image/svg+xml' || /^svgz?$/.test(extensionOf(filename));
}
