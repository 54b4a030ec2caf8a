/**
 * The one way the server fetches a URL a user gave it (URL upload, webhooks), guarded against server-side
 * request forgery:
 * - http and https only, no credentials in the URL;
 * - the host name is resolved once (every address) and the fetch is refused when any address is
 *   internal: loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, unique-local,
 *   documentation/benchmark/reserved ranges, cloud metadata, and IPv6 forms that embed such an IPv4
 *   (mapped, compatible, NAT64, 6to4, Teredo). The WHATWG URL parser has already turned every IPv4
 *   notation (`2130706433`, `0177.0.0.1`, `0x7f000001`, `127.1`) into dotted decimal;
 * - the socket connects to exactly the checked addresses (the `lookup` hook answers them, no second
 *   DNS query), with the original Host header and TLS server name;
 * - redirects are followed by hand, at most 5, each target checked from scratch;
 * - connect and idle timeouts, a byte limit (Content-Length and counted while streaming), AbortSignal.
 * An admin allowlist (hosts, host:port, CIDR ranges) lets chosen internal targets through the address
 * check, and only that check.
 */
import type { LookupAddress } from 'node:dns';
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { type AllowlistEntry, normaliseHostname, parseAllowlistEntry } from '@cubby/shared';
import { APP_NAME, APP_VERSION } from '../version.ts';

export type UrlFetchErrorCode =
  | 'INVALID_URL'
  | 'PROTOCOL'
  | 'BLOCKED_ADDRESS'
  | 'DNS'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'UNREACHABLE'
  | 'HTTP_STATUS';

export class UrlFetchError extends Error {
  constructor(
    readonly code: UrlFetchErrorCode,
    message: string,
    /** HTTP_STATUS: the upstream status. INVALID_URL: 'credentials' when the URL carried them. */
    readonly detail?: number | 'credentials',
  ) {
    super(message);
    this.name = 'UrlFetchError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name. The test seam: tests pass their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  /** A small body, sent whole (POST only); a POST follows no redirect whatever `maxRedirects` says. */
  body?: Uint8Array;
  headers?: Record<string, string>;
  /** Allowlist entries (`host`, `host:port`, CIDR); invalid entries are ignored. Empty by default. */
  allowlist?: readonly string[];
  /** Largest body accepted, in bytes. */
  maxBytes?: number;
  maxRedirects?: number;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  resolver?: Resolver;
}

export interface SafeResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  headers: Headers;
  /** Streamed; errors with TOO_LARGE as soon as more than `maxBytes` arrive. Empty for HEAD. */
  body: ReadableStream<Uint8Array>;
  redirects: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 5;
const MAX_URL_LENGTH = 8192;
const USER_AGENT = `${APP_NAME}/${APP_VERSION} (url-upload)`;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// ---- addresses -------------------------------------------------------------------------------

interface Cidr {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/** The bytes of an IPv4 (4) or IPv6 (16) address, or null when `text` is neither. */
function ipBytes(text: string): { family: 4 | 6; bytes: Uint8Array } | null {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (net.isIPv4(address)) return { family: 4, bytes: Uint8Array.from(address.split('.').map(Number)) };
  if (!net.isIPv6(address)) return null;
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = address.indexOf('::');
  let words: number[];
  if (gap === -1) words = groups(address);
  else {
    const head = groups(address.slice(0, gap));
    const tail = groups(address.slice(gap + 2));
    words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  return { family: 6, bytes };
}

function cidr(text: string): Cidr {
  const [address = '', prefix = ''] = text.split('/');
  const ip = ipBytes(address);
  if (!ip) throw new Error(`bad CIDR ${text}`);
  return { ...ip, prefix: Number(prefix) };
}

function inCidr(ip: { family: 4 | 6; bytes: Uint8Array }, range: Cidr): boolean {
  if (ip.family !== range.family) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const bits = Math.min(8, range.prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    const i = bit / 8;
    if (((ip.bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

const REFUSED_V4 = [
  '0.0.0.0/8', // "this network", unspecified
  '10.0.0.0/8', // private
  '100.64.0.0/10', // CGNAT (100.100.100.200: Alibaba Cloud metadata)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (169.254.169.254: cloud metadata)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // TEST-NET-1
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255 broadcast
].map(cidr);

/** IPv6 is allowed only inside 2000::/3 (global unicast), minus these. */
const GLOBAL_V6 = cidr('2000::/3');
const REFUSED_V6 = [
  '2001::/23', // IETF protocol assignments: Teredo 2001::/32 (it embeds IPv4s), benchmarking, ORCHID
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
].map(cidr);
/** IPv6 ranges that reach the IPv4 in their last 32 bits: mapped, SIIT-translated, NAT64. */
const EMBEDDING_V6 = ['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map(cidr);
const SIX_TO_FOUR = cidr('2002::/16');

function v4Refused(bytes: Uint8Array): boolean {
  return REFUSED_V4.some((range) => inCidr({ family: 4, bytes }, range));
}

/** True when a connection to `address` could reach something internal. Non-addresses are refused. */
export function isRefusedAddress(address: string): boolean {
  const ip = ipBytes(address);
  if (!ip) return true;
  if (ip.family === 4) return v4Refused(ip.bytes);
  if (EMBEDDING_V6.some((range) => inCidr(ip, range))) return v4Refused(ip.bytes.slice(12, 16));
  // 6to4 (2002:AABB:CCDD::/48) carries its IPv4 in bits 16-47.
  if (inCidr(ip, SIX_TO_FOUR)) return v4Refused(ip.bytes.slice(2, 6));
  // Outside 2000::/3: ::, ::1, IPv4-compatible ::/96, 64:ff9b:1::/48, fc00::/7, fe80::/10, fec0::/10, ff00::/8.
  if (!inCidr(ip, GLOBAL_V6)) return true;
  return REFUSED_V6.some((range) => inCidr(ip, range));
}

// ---- allowlist -------------------------------------------------------------------------------

interface CompiledAllowlist {
  hosts: { host: string; port: number | null }[];
  ranges: Cidr[];
}

function compileAllowlist(entries: readonly string[]): CompiledAllowlist {
  const parsed = entries.map(parseAllowlistEntry).filter((e): e is AllowlistEntry => e !== null);
  return {
    hosts: parsed.flatMap((e) => (e.kind === 'host' ? [{ host: e.host, port: e.port }] : [])),
    ranges: parsed.flatMap((e) => (e.kind === 'cidr' ? [cidr(`${e.address}/${e.prefix}`)] : [])),
  };
}

// ---- the fetch -------------------------------------------------------------------------------

function parseTarget(input: string | URL): URL {
  const text = String(input).trim();
  if (text.length > MAX_URL_LENGTH) throw new UrlFetchError('INVALID_URL', 'the URL is too long');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UrlFetchError('INVALID_URL', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlFetchError('PROTOCOL', `${url.protocol} URLs are not fetched`);
  }
  if (url.username || url.password) {
    throw new UrlFetchError('INVALID_URL', 'URLs with credentials are not fetched', 'credentials');
  }
  if (!url.hostname) throw new UrlFetchError('INVALID_URL', 'the URL has no host');
  return url;
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Rejects after `ms` with TIMEOUT unless `work` settles first. */
function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UrlFetchError('TIMEOUT', `${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The addresses to connect to, each one checked, or an error saying why not. */
async function checkedAddresses(
  url: URL,
  allow: CompiledAllowlist,
  resolver: Resolver,
  timeoutMs: number,
): Promise<ResolvedAddress[]> {
  const host = normaliseHostname(url.hostname);
  const port = defaultPort(url);
  const hostAllowed = allow.hosts.some((h) => h.host === host && (h.port === null || h.port === port));
  const literal = ipBytes(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal.family }];
  else if (!hostAllowed && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw new UrlFetchError('BLOCKED_ADDRESS', `${host} is a loopback name`);
  } else {
    try {
      addresses = await withTimeout(resolver(host), timeoutMs, 'resolving the host name');
    } catch (error) {
      if (error instanceof UrlFetchError) throw error;
      throw new UrlFetchError('DNS', `could not resolve ${host}`);
    }
    if (addresses.length === 0) throw new UrlFetchError('DNS', `${host} has no address`);
  }
  if (hostAllowed) return addresses;
  for (const { address } of addresses) {
    const ip = ipBytes(address);
    const inRange = ip !== null && allow.ranges.some((range) => inCidr(ip, range));
    if (!inRange && isRefusedAddress(address)) {
      throw new UrlFetchError('BLOCKED_ADDRESS', `${host} resolves to a refused address`);
    }
  }
  return addresses;
}

function networkError(error: unknown): Error {
  if (error instanceof UrlFetchError || (error instanceof Error && error.name === 'AbortError')) {
    return error;
  }
  return new UrlFetchError('UNREACHABLE', `the server could not be reached (${(error as Error).message})`);
}

interface Exchange {
  res: IncomingMessage;
  /** Stops the exchange (timers, socket, abort listener). */
  destroy(error?: Error): void;
  /** Forget timers and listeners once the body is done. */
  settle(): void;
}

function exchange(
  url: URL,
  addresses: ResolvedAddress[],
  method: 'GET' | 'HEAD' | 'POST',
  headers: Record<string, string>,
  opts: { connectTimeoutMs: number; idleTimeoutMs: number; signal?: AbortSignal; body?: Uint8Array },
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    // Answer the connection's lookup with the addresses already checked: never a second query.
    const lookup = (
      _hostname: string,
      options: { all?: boolean },
      callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    const req = (secure ? https : http).request({
      protocol: url.protocol,
      host: normaliseHostname(url.hostname),
      port: defaultPort(url),
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      agent: false,
      lookup: lookup as unknown as net.LookupFunction,
    });
    let res: IncomingMessage | undefined;
    const fail = (error: Error) => {
      destroy(error);
      reject(error);
    };
    const connectTimer = setTimeout(
      () => fail(new UrlFetchError('TIMEOUT', `no connection within ${opts.connectTimeoutMs} ms`)),
      opts.connectTimeoutMs,
    );
    const onAbort = () => fail(opts.signal!.reason as Error);
    const settle = () => {
      clearTimeout(connectTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const destroy = (error?: Error) => {
      settle();
      req.destroy(error);
      res?.destroy(error);
    };
    if (opts.signal?.aborted) {
      reject(opts.signal.reason as Error);
      req.destroy();
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('socket', (socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.setTimeout(opts.idleTimeoutMs, () =>
      fail(new UrlFetchError('TIMEOUT', `no data for ${opts.idleTimeoutMs} ms`)),
    );
    req.on('error', (error) => fail(networkError(error)));
    req.on('response', (response) => {
      res = response;
      response.on('error', () => settle());
      resolve({ res: response, destroy, settle });
    });
    req.end(opts.body);
  });
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A header the Fetch API refuses to hold; nothing we read.
    }
  }
  return headers;
}

/** The response body as a web stream, counted against `maxBytes`, paused while the reader lags. */
function bodyStream(ex: Exchange, maxBytes: number | undefined): ReadableStream<Uint8Array> {
  const { res } = ex;
  let received = 0;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (error?: Error) => {
        if (done) return;
        done = true;
        ex.settle();
        if (error) controller.error(error);
        else controller.close();
      };
      res.on('data', (chunk: Buffer) => {
        if (done) return;
        received += chunk.length;
        if (maxBytes !== undefined && received > maxBytes) {
          const error = new UrlFetchError('TOO_LARGE', `the body is larger than ${maxBytes} bytes`);
          finish(error);
          ex.destroy();
          return;
        }
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) res.pause();
      });
      res.on('end', () => finish());
      res.on('error', (error) => finish(networkError(error)));
      res.on('close', () => {
        if (!res.complete) finish(new UrlFetchError('UNREACHABLE', 'the connection closed early'));
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      done = true;
      ex.destroy();
    },
  });
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (c) => c.close() });
}

/** Fetches a user-given URL under the rules at the top of this file. */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const method = options.method ?? 'GET';
  // A redirected POST would be replayed (307/308) or turned into a GET (301-303): neither is wanted.
  const maxRedirects = method === 'POST' ? 0 : (options.maxRedirects ?? MAX_REDIRECTS);
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const resolver = options.resolver ?? systemResolver;
  const allow = compileAllowlist(options.allowlist ?? []);
  const baseHeaders: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: '*/*',
    'accept-encoding': 'identity',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) baseHeaders[name.toLowerCase()] = value;

  let url = parseTarget(input);
  const origin = url.origin;
  for (let redirects = 0; ; redirects++) {
    options.signal?.throwIfAborted();
    const addresses = await checkedAddresses(url, allow, resolver, connectTimeoutMs);
    const headers = { ...baseHeaders };
    // Credentials the caller gave are for the first origin only.
    if (url.origin !== origin) {
      delete headers.authorization;
      delete headers.cookie;
    }
    const ex = await exchange(url, addresses, method, headers, {
      connectTimeoutMs,
      idleTimeoutMs,
      signal: options.signal,
      ...(method === 'POST' && options.body ? { body: options.body } : {}),
    });
    const { res } = ex;
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      ex.destroy();
      if (redirects >= maxRedirects) {
        throw new UrlFetchError('TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects`);
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new UrlFetchError('INVALID_URL', 'the redirect target is not a valid URL');
      }
      url = parseTarget(next);
      continue;
    }
    const length = Number(res.headers['content-length']);
    const hasBody = method !== 'HEAD' && status !== 204 && status !== 304;
    if (hasBody && options.maxBytes !== undefined && Number.isFinite(length) && length > options.maxBytes) {
      ex.destroy();
      throw new UrlFetchError('TOO_LARGE', `the body (${length} bytes) is larger than ${options.maxBytes}`);
    }
    let body: ReadableStream<Uint8Array>;
    if (hasBody) body = bodyStream(ex, options.maxBytes);
    else {
      ex.destroy();
      body = emptyStream();
    }
    return { url: url.href, status, headers: toHeaders(res), body, redirects };
  }
}
