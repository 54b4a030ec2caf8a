/**
 * Consuming a download stream without holding the file in JS memory: either collected into a Blob
 * (which Chromium keeps on disk when large; loose chunks are folded into it every few MiB, so no JS
 * buffer grows with the file) or cut into parts of a fixed size as it arrives, read lazily.
 */
import { TransferError, cancelledError } from './transfer-error.ts';

/** Fold loose chunks into the Blob every this many bytes. */
const FOLD_BYTES = 4 * 1024 * 1024;

/** Reads a stream chunk by chunk, turning a reader failure into a transfer error. */
async function* chunks(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        throw signal.aborted ? cancelledError() : new TransferError('network');
      }
      if (result.done) return;
      yield result.value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * The whole body as a Blob; `onProgress` gets the bytes read so far. With `limit`, a body that
 * passes it is cut there (the download cancelled, nothing kept): a `too-large` failure.
 */
export async function collectBlob(
  body: ReadableStream<Uint8Array>,
  type: string,
  signal: AbortSignal,
  onProgress: (loaded: number) => void,
  limit: number | null = null,
): Promise<Blob> {
  let folded = new Blob([], { type });
  let loose: Uint8Array[] = [];
  let looseBytes = 0;
  let loaded = 0;
  for await (const chunk of chunks(body, signal)) {
    loose.push(chunk);
    looseBytes += chunk.byteLength;
    loaded += chunk.byteLength;
    if (limit !== null && loaded > limit)
      throw new TransferError('too-large', 0, undefined, undefined, limit);
    if (looseBytes >= FOLD_BYTES) {
      folded = new Blob([folded, ...(loose as BlobPart[])], { type });
      loose = [];
      looseBytes = 0;
    }
    onProgress(loaded);
  }
  return new Blob([folded, ...(loose as BlobPart[])], { type });
}

export interface StreamedPart {
  partNumber: number;
  body: Blob;
}

/**
 * Cuts the body into parts of `partSize` bytes (the last may be shorter) as it arrives. Lazy: a
 * part is read only when the consumer asks for the next one, so with a bounded consumer at most a
 * few parts are in memory. `onProgress` gets the bytes read so far.
 */
export async function* streamParts(
  body: ReadableStream<Uint8Array>,
  partSize: number,
  signal: AbortSignal,
  onProgress: (loaded: number) => void,
): AsyncGenerator<StreamedPart> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let partNumber = 1;
  let loaded = 0;
  for await (const chunk of chunks(body, signal)) {
    loaded += chunk.byteLength;
    onProgress(loaded);
    let rest = chunk;
    while (pendingBytes + rest.byteLength >= partSize) {
      const take = partSize - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield { partNumber: partNumber++, body: new Blob(pending as BlobPart[]) };
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.byteLength > 0) {
      pending.push(rest);
      pendingBytes += rest.byteLength;
    }
  }
  if (pendingBytes > 0 || partNumber === 1) yield { partNumber, body: new Blob(pending as BlobPart[]) };
}
