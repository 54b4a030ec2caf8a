/**
 * The URL-upload allowlist (system setting `url_allowlist`): targets the server may fetch although
 * they resolve to internal addresses. Entries are separated by commas or newlines; each one is a
 * host (`files.lan`, `127.0.0.1`, `[::1]`), a host with a port (`127.0.0.1:8080`, `[::1]:8080`) or
 * an address range in CIDR notation (`10.0.0.0/8`, `fd00::/8`). Browser-safe: the web form checks
 * entries with the same rules the server applies.
 */

export type AllowlistEntry =
  /** `host` is normalised as a URL host name: lower case, IPv4 in dotted decimal, IPv6 unbracketed. */
  | { kind: 'host'; host: string; port: number | null }
  | { kind: 'cidr'; address: string; prefix: number; family: 4 | 6 };

export const URL_ALLOWLIST_MAX_LENGTH = 10_000;

export function splitUrlAllowlist(text: string): string[] {
  return text
    .split(/[,\n\r]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A URL host name as compared everywhere: no brackets, no trailing dot, lower case. */
export function normaliseHostname(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** The URL parser's reading of a host (so `127.1` and `2130706433` both become 127.0.0.1), or null. */
function parseHost(host: string): string | null {
  if (host === '' || /[/?#@\\\s%]/.test(host)) return null;
  let url: URL;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    return null;
  }
  const name = normaliseHostname(url.hostname);
  if (url.hostname.startsWith('[')) return name;
  return /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name) ? name : null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function parseAllowlistEntry(entry: string): AllowlistEntry | null {
  const text = entry.trim();
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (cidr) {
    const [, address = '', prefixText = ''] = cidr;
    const prefix = Number(prefixText);
    if (IPV4.test(address)) return prefix <= 32 ? { kind: 'cidr', address, prefix, family: 4 } : null;
    if (!address.includes(':')) return null;
    const v6 = parseHost(`[${address.replace(/^\[(.*)\]$/, '$1')}]`);
    return v6 !== null && prefix <= 128 ? { kind: 'cidr', address: v6, prefix, family: 6 } : null;
  }
  // A bare IPv6 address (two or more colons, no brackets) has no port.
  if (/^[^[\]]*:[^[\]]*:/.test(text)) {
    const host = parseHost(`[${text}]`);
    return host === null ? null : { kind: 'host', host, port: null };
  }
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return null;
  const [, hostPart = '', portText] = match;
  const host = parseHost(hostPart);
  const port = portText === undefined ? null : Number(portText);
  if (host === null || (port !== null && (port < 1 || port > 65535))) return null;
  return { kind: 'host', host, port };
}

/** Every entry of the setting's text, and the ones that are not valid entries (in order). */
export function parseUrlAllowlist(text: string): { entries: AllowlistEntry[]; invalid: string[] } {
  const entries: AllowlistEntry[] = [];
  const invalid: string[] = [];
  for (const item of splitUrlAllowlist(text)) {
    const parsed = parseAllowlistEntry(item);
    if (parsed) entries.push(parsed);
    else invalid.push(item);
  }
  return { entries, invalid };
}
