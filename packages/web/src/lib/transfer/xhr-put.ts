/**
 * One PUT of a Blob (a File or a slice of one) straight to storage with XMLHttpRequest, which —
 * unlike fetch — reports upload progress. The browser streams the Blob from disk; it is never read
 * into memory here. Resolves with the ETag (quotes stripped, docs/product.md §7) and the answer's text when
 * it is 2xx. Also used for POSTs to this server (the explorer's uploads), whose refusals carry a
 * message that the failure keeps. Only `signal` cancels; an abort by the browser (the page
 * unloading) is an interruption, not a cancellation.
 */
import { bareEtag } from '@cubby/shared';
import { TransferError } from './transfer-error.ts';

export interface PutOptions {
  /** PUT unless told otherwise. */
  method?: 'PUT' | 'POST';
  /** Exactly the headers the presign answer asked for. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Milliseconds the whole PUT may take (0 = no limit). */
  timeoutMs?: number;
  onProgress?(loaded: number): void;
}

/** Headers a page may not set; the browser derives them itself. */
const BROWSER_CONTROLLED = new Set(['content-length', 'host', 'connection', 'expect']);

/** The `message` of a JSON error answer (this server's envelope), if any. */
function answerMessage(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const message =
      parsed && typeof parsed === 'object' ? (parsed as { message?: unknown }).message : undefined;
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    return undefined;
  }
}

export function putBlob(
  url: string,
  body: Blob | FormData,
  options: PutOptions = {},
): Promise<{ etag: string | null; text: string }> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new TransferError('cancelled'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const finish = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.open(options.method ?? 'PUT', url);
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (!BROWSER_CONTROLLED.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    }
    xhr.timeout = options.timeoutMs ?? 0;
    xhr.upload.onprogress = (event) => options.onProgress?.(event.loaded);
    xhr.onload = () => {
      finish();
      if (xhr.status >= 200 && xhr.status < 300) {
        const etag = xhr.getResponseHeader('ETag');
        resolve({ etag: etag ? bareEtag(etag) : null, text: xhr.responseText });
      } else {
        reject(new TransferError('http', xhr.status, undefined, answerMessage(xhr.responseText)));
      }
    };
    xhr.onerror = () => {
      finish();
      reject(new TransferError('network'));
    };
    xhr.ontimeout = () => {
      finish();
      reject(new TransferError('timeout'));
    };
    // Only our signal cancels. The browser also aborts requests when the page goes away (a reload):
    // that is an interruption, and the upload must stay remembered so it can continue.
    xhr.onabort = () => {
      finish();
      reject(new TransferError(options.signal?.aborted ? 'cancelled' : 'network'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
}
