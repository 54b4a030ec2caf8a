/**
 * The origin clients reach this server at, for absolute URLs in answers (share links, proxy
 * download URLs, local-storage presigned URLs): PUBLIC_URL when set, else the request's own origin
 * (with X-Forwarded-Proto/Host only behind TRUST_PROXY hops, since a client could forge them).
 */
import type { Context } from 'hono';
import type { Config } from '../config/config.ts';

export function publicOrigin(c: Context, config: Pick<Config, 'publicUrl' | 'trustProxyHops'>): string {
  if (config.publicUrl) return config.publicUrl;
  const url = new URL(c.req.url);
  if (config.trustProxyHops > 0) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    if (host) url.host = host;
  }
  return url.origin;
}

/**
 * A URL a driver made against the server's configured base (`internalBase`, used when PUBLIC_URL is
 * unset), moved onto the origin the client used. URLs of other hosts (S3) are returned unchanged.
 */
export function rebaseUrl(url: URL, internalBase: string, origin: string): string {
  const base = new URL(internalBase);
  if (url.origin !== base.origin) return url.toString();
  const target = new URL(origin);
  const moved = new URL(url.toString());
  moved.protocol = target.protocol;
  moved.host = target.host;
  // Setting `host` without a port keeps the old one.
  moved.port = target.port;
  return moved.toString();
}
