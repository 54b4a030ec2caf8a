/**
 * Reading a remote file in the browser for a URL upload (docs/product.md §4): fetch it directly; when the
 * browser refuses (no CORS) fall back to the server's SSRF-guarded proxy `/api/url/proxy`, which
 * needs the caller's credentials. How the body is consumed is in body-reader.ts.
 */
import { LANG_HEADER } from '@cubby/shared';
import { ApiError, getApiBaseUrl } from '../../../lib/api/index.ts';
import { getLanguage } from '../../../lib/i18n/index.ts';
import { useAuthStore } from '../../auth/index.ts';
import { TransferError, cancelledError } from '../../../lib/transfer/index.ts';

function authorization(): Record<string, string> {
  const { adminToken, apiKey } = useAuthStore.getState();
  if (adminToken) return { Authorization: `Bearer ${adminToken}` };
  if (apiKey) return { Authorization: `ApiKey ${apiKey}` };
  return {};
}

async function proxyFailure(response: Response): Promise<Error> {
  let message: string | null = null;
  let code = 'HTTP';
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
    if (typeof body.error === 'string') code = body.error;
  } catch {
    // Not an envelope.
  }
  return message
    ? new ApiError(message, { status: response.status, code })
    : new TransferError('http', response.status);
}

export interface OpenedSource {
  body: ReadableStream<Uint8Array>;
  /** Bytes announced by the answer, if it said. */
  length: number | null;
  /** True when the bytes come through the server's proxy. */
  proxied: boolean;
}

/** Opens `url` for reading, directly or through the proxy. */
export async function openUrlSource(url: string, signal: AbortSignal): Promise<OpenedSource> {
  const lengthOf = (response: Response) => {
    const header = response.headers.get('Content-Length');
    return header && /^\d+$/.test(header) ? Number(header) : null;
  };
  try {
    const direct = await fetch(url, {
      signal,
      mode: 'cors',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    if (!direct.ok) throw new TransferError('http', direct.status);
    if (!direct.body) throw new TransferError('network');
    return { body: direct.body, length: lengthOf(direct), proxied: false };
  } catch (error) {
    if (signal.aborted) throw cancelledError();
    // A TypeError is the browser refusing a cross-origin read (or a network failure): ask the server.
    if (!(error instanceof TypeError)) throw error;
  }
  let proxied: Response;
  try {
    proxied = await fetch(`${getApiBaseUrl()}/url/proxy?url=${encodeURIComponent(url)}`, {
      signal,
      headers: { ...authorization(), [LANG_HEADER]: getLanguage() },
    });
  } catch {
    if (signal.aborted) throw cancelledError();
    throw new TransferError('network');
  }
  if (!proxied.ok) throw await proxyFailure(proxied);
  if (!proxied.body) throw new TransferError('network');
  return { body: proxied.body, length: lengthOf(proxied), proxied: true };
}
