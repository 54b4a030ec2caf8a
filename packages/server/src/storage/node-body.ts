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
 */
import { finished, type Readable } from 'node:stream';

export const READ_AHEAD_BYTES = 256 * 1024;

export function webBody(
  source: Readable,
  readAheadBytes: number = READ_AHEAD_BYTES,
): ReadableStream<Uint8Array> {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;

  source.pause();
  source.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= readAheadBytes) source.pause();
    wake?.();
  });
  finished(source, (error) => {
    if (error) failure = error;
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
