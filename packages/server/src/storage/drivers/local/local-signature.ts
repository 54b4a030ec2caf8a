/**
 * Presigned URLs of the local driver. They point at this server, are signed with HMAC-SHA256 under
 * the server secret over everything that limits what the URL allows (operation and method, storage
 * config, exact key, expiry, size, content type, upload id, part number, download disposition and
 * name), and are checked in constant time. Changing any of those fields breaks the signature.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../../lib/clock.ts';
import { hmacHex } from '../../../lib/crypto.ts';

/** Where `localPresignRoutes` is mounted; the URLs the driver builds point below it. */
export const LOCAL_PRESIGN_MOUNT = '/api/storage/local';

export type LocalPresignOp = 'get' | 'put' | 'part';

const METHOD: Record<LocalPresignOp, string> = { get: 'GET', put: 'PUT', part: 'PUT' };

export interface LocalSignedParams {
  op: LocalPresignOp;
  configId: string;
  /** Normalised driver path. */
  key: string;
  /** Expiry, Unix seconds. */
  exp: number;
  /** Exact byte count a PUT must deliver. */
  size?: number;
  /** PUT: the Content-Type the uploader must send; GET: the Content-Type of the answer. */
  contentType?: string;
  uploadId?: string;
  partNumber?: number;
  disposition?: 'inline' | 'attachment';
  filename?: string;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'MALFORMED' | 'BAD_SIGNATURE' | 'EXPIRED' };

/** Each field is percent-encoded, so no value can imitate a field boundary. */
function canonical(p: LocalSignedParams): string {
  return [
    'cubby-local-presign-v1',
    p.op,
    METHOD[p.op],
    p.configId,
    p.key,
    String(p.exp),
    p.size === undefined ? '' : String(p.size),
    p.contentType ?? '',
    p.uploadId ?? '',
    p.partNumber === undefined ? '' : String(p.partNumber),
    p.disposition ?? '',
    p.filename ?? '',
  ]
    .map(encodeURIComponent)
    .join('\n');
}

export function signLocal(params: LocalSignedParams, secret: string): string {
  return hmacHex(secret, canonical(params));
}

/** The URL for `params` under `publicBaseUrl` (this server's public origin, with any path prefix). */
export function buildLocalPresignUrl(publicBaseUrl: string, params: LocalSignedParams, secret: string): URL {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const url = new URL(`${base}${LOCAL_PRESIGN_MOUNT}/${encodeURIComponent(params.configId)}/${params.op}`);
  const q = url.searchParams;
  q.set('key', params.key);
  q.set('exp', String(params.exp));
  if (params.size !== undefined) q.set('size', String(params.size));
  if (params.contentType !== undefined) q.set('ct', params.contentType);
  if (params.uploadId !== undefined) q.set('upload', params.uploadId);
  if (params.partNumber !== undefined) q.set('part', String(params.partNumber));
  if (params.disposition !== undefined) q.set('disp', params.disposition);
  if (params.filename !== undefined) q.set('fn', params.filename);
  q.set('sig', signLocal(params, secret));
  return url;
}

const optionalInt = (value: string | undefined): number | undefined | null => {
  if (value === undefined) return undefined;
  return /^\d{1,16}$/.test(value) ? Number(value) : null;
};

/**
 * Reads the signed fields of a request back from its query; null when they cannot have come from
 * `buildLocalPresignUrl` (the caller answers 403, as for a bad signature).
 */
export function parseLocalPresignQuery(
  op: string,
  configId: string,
  query: (name: string) => string | undefined,
): (LocalSignedParams & { sig: string }) | null {
  if (op !== 'get' && op !== 'put' && op !== 'part') return null;
  const key = query('key');
  const sig = query('sig');
  const exp = optionalInt(query('exp'));
  const size = optionalInt(query('size'));
  const partNumber = optionalInt(query('part'));
  const disposition = query('disp');
  if (key === undefined || sig === undefined || exp === undefined || exp === null) return null;
  if (size === null || partNumber === null) return null;
  if (disposition !== undefined && disposition !== 'inline' && disposition !== 'attachment') return null;
  const params: LocalSignedParams & { sig: string } = { op, configId, key, exp, sig };
  if (size !== undefined) params.size = size;
  const contentType = query('ct');
  if (contentType !== undefined) params.contentType = contentType;
  const uploadId = query('upload');
  if (uploadId !== undefined) params.uploadId = uploadId;
  if (partNumber !== undefined) params.partNumber = partNumber;
  if (disposition !== undefined) params.disposition = disposition;
  const filename = query('fn');
  if (filename !== undefined) params.filename = filename;
  return params;
}

/**
 * Checks a presigned request: the signature over every signed field (constant-time), then the expiry
 * against the injected clock. A part URL must name its upload and part, and only a part URL may.
 */
export function verifyLocalSignature(
  params: LocalSignedParams & { sig: string },
  secret: string,
  clock: Clock,
): SignatureCheck {
  const isPart = params.op === 'part';
  if (isPart !== (params.uploadId !== undefined && params.partNumber !== undefined)) {
    return { ok: false, reason: 'MALFORMED' };
  }
  if (!/^[0-9a-f]{64}$/.test(params.sig)) return { ok: false, reason: 'MALFORMED' };
  const expected = Buffer.from(signLocal(params, secret), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(params.sig, 'hex'))) {
    return { ok: false, reason: 'BAD_SIGNATURE' };
  }
  if (clock.now().getTime() >= params.exp * 1000) return { ok: false, reason: 'EXPIRED' };
  return { ok: true };
}
