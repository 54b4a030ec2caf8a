/**
 * Short-lived links a browser can open without an Authorization header (a download started by
 * navigating to it): `v1.<payload>.<signature>`, the payload base64url JSON signed with
 * HMAC-SHA256 under the server secret and a purpose, so a link made for one use is never accepted
 * by another. A link names its principal, never a credential; the one who opens it checks that
 * principal again. (fs-zip.ts signs its zip links the same way, deflated, with its own code.)
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';

/** Longest token accepted: anything longer is refused before it is decoded. */
const MAX_TOKEN_CHARS = 6000;

function sign(secret: string, purpose: string, body: string): string {
  return createHmac('sha256', secret).update(`cubby-link-v1 ${purpose}\n${body}`).digest('base64url');
}

/** A token for `payload` (small JSON). */
export function signLink(secret: string, purpose: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `v1.${body}.${sign(secret, purpose, body)}`;
}

/** The payload of a token signed for `purpose` that `schema` accepts; null for anything else. */
export function openLink<S extends z.ZodType>(
  secret: string,
  purpose: string,
  token: string | undefined,
  schema: S,
): z.output<S> | null {
  if (!token || token.length > MAX_TOKEN_CHARS) return null;
  const match = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, body, sig] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(secret, purpose, body), 'base64url');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'base64url'))) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
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
