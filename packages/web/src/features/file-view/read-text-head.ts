/**
 * The beginning of a text file for its preview: at most `limit` bytes (1 MiB), asked for with
 * `Range` and cut off client-side too (a server may ignore the range), decoded as UTF-8. A
 * character split by the cut is dropped rather than shown as garbage.
 */
import { ApiError } from '../../lib/api/index.ts';

export const TEXT_PREVIEW_LIMIT = 1024 * 1024;

export interface TextHead {
  text: string;
  /** The file goes on past what was read. */
  truncated: boolean;
}

export async function readTextHead(
  url: string,
  { limit = TEXT_PREVIEW_LIMIT, size, signal }: { limit?: number; size?: number; signal?: AbortSignal } = {},
): Promise<TextHead> {
  const response = await fetch(url, { headers: { Range: `bytes=0-${limit - 1}` }, signal });
  if (!response.ok) {
    throw new ApiError(`HTTP ${response.status}`, { status: response.status, code: 'HTTP' });
  }
  const total = /\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '')?.[1];
  const bytes = new Uint8Array(limit);
  let length = 0;
  let more = false;
  const reader = response.body?.getReader();
  if (reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (length >= limit) {
          // Full, and the answer goes on (a server that ignored the range).
          more = value.byteLength > 0;
          break;
        }
        const take = Math.min(value.byteLength, limit - length);
        bytes.set(value.subarray(0, take), length);
        length += take;
        if (take < value.byteLength) {
          more = true;
          break;
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }
  const fileSize = total !== undefined ? Number(total) : size;
  const truncated = more || (fileSize !== undefined && fileSize > length);
  let text = new TextDecoder('utf-8').decode(bytes.subarray(0, length), { stream: truncated });
  if (truncated) text = text.replace(/\uFFFD$/, '');
  return { text, truncated };
}
