/**
 * Share tokens: short-lived, signed permissions to fetch one file share's bytes, carried as
 * `?token=` in the URLs the info and password-check answers give out. A token is
 * `<expiry, unix seconds>.<nonce>.<signature>`, the signature an HMAC-SHA256 under SECRET_KEY over the
 * file id, the share's password hash (so setting or changing the password retires every token), the
 * expiry and the nonce. The nonce is what the view count remembers: a token counts one view however
 * many (Range) requests use it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const FILE_TOKEN_TTL_SECONDS = 30 * 60;

interface TokenSubject {
  id: string;
  password_hash: string | null;
}

export interface VerifiedToken {
  nonce: string;
  expiresAt: Date;
}

export type TokenCheck = { ok: true; token: VerifiedToken } | { ok: false; reason: 'invalid' | 'expired' };

function signature(secret: string, file: TokenSubject, exp: number, nonce: string): Buffer {
  return createHmac('sha256', secret)
    .update(['cubby-file-token-v1', file.id, file.password_hash ?? '', String(exp), nonce].join('\n'))
    .digest();
}

export function signFileToken(secret: string, file: TokenSubject, now: Date): string {
  const exp = Math.floor(now.getTime() / 1000) + FILE_TOKEN_TTL_SECONDS;
  const nonce = randomBytes(16).toString('base64url');
  return `${exp}.${nonce}.${signature(secret, file, exp, nonce).toString('base64url')}`;
}

export function verifyFileToken(secret: string, file: TokenSubject, token: string, now: Date): TokenCheck {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, expText, nonce, sig] = match as unknown as [string, string, string, string];
  const exp = Number(expText);
  if (!timingSafeEqual(signature(secret, file, exp, nonce), Buffer.from(sig, 'base64url'))) {
    return { ok: false, reason: 'invalid' };
  }
  if (now.getTime() >= exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, token: { nonce, expiresAt: new Date(exp * 1000) } };
}
