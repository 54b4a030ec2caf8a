/**
 * What a URL would deliver, read without downloading it (CloudPaste's /api/url/info): HEAD, falling
 * back to a one-byte ranged GET for the size. Every request goes through safeFetch, so the SSRF
 * rules hold for the probe and for each redirect it follows.
 */
import { DEFAULT_MIME, formatBytes, mimeFromFilename, type UrlInfo } from '@cubby/shared';
import { badRequest, forbidden, tooLarge, upstreamFailed, upstreamTimeout } from '../../errors/app-error.ts';
import { type SafeFetchOptions, type SafeResponse, safeFetch, UrlFetchError } from '../../lib/safe-fetch.ts';

export interface ProbeOptions extends Pick<
  SafeFetchOptions,
  'allowlist' | 'signal' | 'resolver' | 'connectTimeoutMs' | 'idleTimeoutMs'
> {
  /** A source larger than this fails with TOO_LARGE. */
  maxBytes?: number;
  /** The web app's origin, sent as Origin so the answer tells whether the browser may fetch it. */
  origin?: string;
}

const FILENAME_MAX = 255;
const GENERIC_TYPES = new Set([
  DEFAULT_MIME,
  'binary/octet-stream',
  'application/download',
  'application/force-download',
  'application/x-download',
]);

/** A file name safe to store: no folders, no control characters, at most 255 characters. */
function cleanFilename(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '.' || clean === '..' ? '' : [...clean].slice(0, FILENAME_MAX).join('');
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The file name a Content-Disposition header gives (`filename*` first), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    const [, charset = '', value = ''] = extended;
    const text = /^utf-?8$/i.test(charset)
      ? decode(value.trim())
      : value.trim().replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const name = cleanFilename(text);
    if (name) return name;
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  const plain = /(?:^|;)\s*filename\s*=\s*([^;\s"]+)/i.exec(header);
  const raw = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : plain?.[1];
  const name = raw ? cleanFilename(raw) : '';
  return name || null;
}

/** The name a download from `url` should get: the header's, else the last path segment decoded. */
export function filenameFor(disposition: string | null, url: string): string {
  const fromHeader = filenameFromDisposition(disposition);
  if (fromHeader) return fromHeader;
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop();
  return (segment && cleanFilename(decode(segment))) || 'download';
}

/** The media type a source declares, or the file name's when it declares none or a generic one. */
export function contentTypeFor(declared: string | null, filename: string): string {
  const type = declared?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type && !GENERIC_TYPES.has(type) && /^[\w.+-]+\/[\w.+-]+$/.test(type)) return type;
  return mimeFromFilename(filename);
}

function isoDate(header: string | null): string | null {
  if (!header) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function wholeNumber(text: string | null | undefined): number | null {
  if (!text || !/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

const ok = (res: SafeResponse) => res.status >= 200 && res.status < 300;

export async function probeUrl(url: string, options: ProbeOptions = {}): Promise<UrlInfo> {
  const { maxBytes, origin, ...fetchOptions } = options;
  const headers: Record<string, string> = origin ? { origin } : {};
  let head: SafeResponse | null = null;
  try {
    head = await safeFetch(url, { ...fetchOptions, method: 'HEAD', headers });
  } catch (error) {
    // Some servers drop HEAD; the GET below says whether the source is reachable at all.
    if (!(error instanceof UrlFetchError) || error.code !== 'UNREACHABLE') throw error;
  }
  const headOk = head !== null && ok(head);
  let size = headOk ? wholeNumber(head!.headers.get('content-length')) : null;
  let source = headOk ? head! : null;
  let method: UrlInfo['method'] = 'HEAD';

  if (size === null || size === 0) {
    const get = await safeFetch(url, { ...fetchOptions, headers: { ...headers, range: 'bytes=0-0' } });
    await get.body.cancel();
    if (ok(get)) {
      const total =
        get.status === 206
          ? wholeNumber(/\/(\d+)\s*$/.exec(get.headers.get('content-range') ?? '')?.[1])
          : wholeNumber(get.headers.get('content-length'));
      if (total !== null) {
        size = total;
        method = 'GET';
      }
      source ??= get;
    } else if (!source) {
      throw new UrlFetchError('HTTP_STATUS', `the source answered ${get.status}`, get.status);
    }
  }
  if (!source) throw new UrlFetchError('UNREACHABLE', 'the source could not be read');
  if (maxBytes !== undefined && size !== null && size > maxBytes) {
    throw new UrlFetchError('TOO_LARGE', `the source (${size} bytes) is larger than ${maxBytes}`);
  }

  const filename = filenameFor(source.headers.get('content-disposition'), source.url);
  const allowOrigin = source.headers.get('access-control-allow-origin')?.trim();
  return {
    url,
    filename,
    contentType: contentTypeFor(source.headers.get('content-type'), filename),
    size,
    lastModified: isoDate(source.headers.get('last-modified')),
    method,
    corsSupported: allowOrigin === '*' || (origin !== undefined && allowOrigin === origin),
  };
}

/** The HTTP answer for a failed URL fetch; anything that is not a UrlFetchError is rethrown as is. */
export function urlFetchAppError(error: unknown, maxBytes?: number): unknown {
  if (!(error instanceof UrlFetchError)) return error;
  switch (error.code) {
    case 'INVALID_URL':
      return badRequest(error.detail === 'credentials' ? 'url.credentials' : 'url.invalid');
    case 'PROTOCOL':
      return badRequest('url.protocol');
    case 'BLOCKED_ADDRESS':
      return forbidden('url.blocked');
    case 'TOO_LARGE':
      return tooLarge('url.too_large', {
        limit: maxBytes === undefined ? '?' : formatBytes(maxBytes),
      });
    case 'TIMEOUT':
      return upstreamTimeout('url.timeout');
    case 'DNS':
      return upstreamFailed('url.dns');
    case 'TOO_MANY_REDIRECTS':
      return upstreamFailed('url.too_many_redirects');
    case 'HTTP_STATUS':
      return upstreamFailed('url.upstream_status', {
        status: Number(error.detail),
      });
    case 'UNREACHABLE':
      return upstreamFailed('url.unreachable');
  }
}
