/**
 * Short-lived links a browser can open without an Authorization header (a download started by
 * navigating to it): `v1.<payload>.<signature>`, the payload base64url JSON (deflated when asked,
 * for long payloads such as a zip selection) signed with HMAC-SHA256 under the server secret and a
 * purpose, so a link made for one use is never accepted by another. A link names its principal,
 * never a credential; the one who opens it checks that principal again. One home for every such
 * link: the audit export and the explorer's zip downloads use it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { z } from 'zod';

export interface LinkOptions {
  /** Deflate the payload (raw DEFLATE): for payloads that may be long. */
  deflate?: boolean;
  /** Longest token accepted: anything longer is refused before it is decoded (6000 by default). */
  maxChars?: number;
  /** Longest payload a deflated token may inflate to (64 KiB by default): what a forged token may cost. */
  maxPayloadBytes?: number;
}

const MAX_TOKEN_CHARS = 6000;
const MAX_PAYLOAD_BYTES = 64 * 1024;

function sign(secret: string, purpose: string, body: string): string {
  return createHmac('sha256', secret).update(`cubby-link-v1 ${purpose}\n${body}`).digest('base64url');
}

/** A token for `payload` (JSON). */
export function signLink(
  secret: string,
  purpose: string,
  payload: unknown,
  options: LinkOptions = {},
): string {
  const json = JSON.stringify(payload);
  const body = (options.deflate ? deflateRawSync(json) : Buffer.from(json)).toString('base64url');
  return `v1.${body}.${sign(secret, purpose, body)}`;
}

/** The payload of a token signed for `purpose` that `schema` accepts; null for anything else. */
export function openLink<S extends z.ZodType>(
  secret: string,
  purpose: string,
  token: string | undefined,
  schema: S,
  options: LinkOptions = {},
): z.output<S> | null {
  if (!token || token.length > (options.maxChars ?? MAX_TOKEN_CHARS)) return null;
  const match = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, body, sig] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(secret, purpose, body), 'base64url');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'base64url'))) return null;
  try {
    const raw = Buffer.from(body, 'base64url');
    const json = options.deflate
      ? inflateRawSync(raw, { maxOutputLength: options.maxPayloadBytes ?? MAX_PAYLOAD_BYTES })
      : raw;
    const parsed = schema.safeParse(JSON.parse(json.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A digest of what changes when a principal's password does (its hash), to put in a link so the
 * link dies with a password change without carrying the hash.
 */
export function stampDigest(secret: string, purpose: string, stamp: string): string {
  return createHmac('sha256', secret)
    .update(`cubby-link-stamp ${purpose}\n${stamp}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Whether a link's stamp digest is the one of `stamp` now (compared in constant time). */
export function stampMatches(secret: string, purpose: string, stamp: string, digest: string | undefined) {
  if (digest === undefined) return false;
  const expected = Buffer.from(stampDigest(secret, purpose, stamp));
  const given = Buffer.from(digest);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
