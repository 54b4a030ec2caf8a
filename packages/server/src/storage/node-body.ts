/**
 * A web stream over a Node body (an HTTP response from the storage backend), for `read` results.
 *
 * Node's own `Readable.toWeb` copies every chunk into a fresh Uint8Array, and at socket-sized chunks
 * those copies and the garbage they leave cost more CPU than the rest of a proxied download (see
 * bench/RESULTS.md, "File shares"). Here the chunks are handed on as they are:
 *
 * - It reads ahead at most `readAheadBytes` (then pauses the source), so a slow client holds back
 *   the backend's socket instead of growing a buffer here; each pull hands on what has arrived.
 * - Cancelling it destroys the source, and with it the backend request and its socket.
 * - A source that fails or closes before its end errors the stream: a short body is never passed
 *   off as a whole one.
 * - With `length`, the stream ends after exactly that many bytes (the source is closed then, and
 *   anything past it dropped), and a source that ends sooner errors it: for a socket that carries
 *   one response body.
 */
import { finished, type Readable } from 'node:stream';

export const READ_AHEAD_BYTES = 256 * 1024;

export function webBody(
  source: Readable,
  { readAheadBytes = READ_AHEAD_BYTES, length }: { readAheadBytes?: number; length?: number } = {},
): ReadableStream<Uint8Array> {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let received = 0;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;

  source.pause();
  if (length === 0) {
    ended = true;
    source.destroy();
  }
  source.on('data', (chunk: Buffer) => {
    if (ended) return;
    received += chunk.length;
    if (length !== undefined && received >= length) {
      if (received > length) chunk = chunk.subarray(0, chunk.length - (received - length));
      ended = true;
      source.destroy();
    }
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= readAheadBytes) source.pause();
    wake?.();
  });
  finished(source, (error) => {
    if (ended) return;
    if (error) failure = error;
    else if (length !== undefined && received < length) {
      failure = new Error(`the body ended after ${received} of ${length} bytes`);
    }
    ended = true;
    wake?.();
  });

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending.length === 0 && !ended) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            source.resume();
          });
          wake = undefined;
        }
        if (failure) {
          pending.length = 0;
          controller.error(failure);
          return;
        }
        for (const chunk of pending) controller.enqueue(chunk);
        pending.length = 0;
        pendingBytes = 0;
        if (ended) controller.close();
        else source.resume();
      },
      cancel() {
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}
