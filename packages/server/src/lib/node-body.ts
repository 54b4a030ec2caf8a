/**
 * A web stream over a Node body (an HTTP response from the storage backend), for `read` results.
 *
 * Node's own `Readable.toWeb` copies every chunk into a fresh Uint8Array, and at socket-sized chunks
 * those copies and the garbage they leave cost more CPU than the rest of a proxied download (see
 * bench/RESULTS.md, "File shares"). Here the chunks are handed on as they are:
 *
 * - It reads ahead at most `readAheadBytes` (then pauses the source), so a slow client holds back
 *   the backend's socket instead of growing a buffer here; each pull hands on what has arrived.
 * - Cancelling it destroys the source, and with it the backend request and its socket; with
 *   `letGoOnCancel` the source is only let go of (paused, listeners off), for a request body whose
 *   connection must outlive the stream.
 * - A source that fails or closes before its end errors the stream: a short body is never passed
 *   off as a whole one.
 * - With `length`, the stream ends after exactly that many bytes (the source is then closed, or
 *   handed back through `release`; anything past it is dropped and the source closed), and a
 *   source that ends sooner errors it: for a socket that carries a response body.
 */
import { finished, type Readable } from 'node:stream';

export const READ_AHEAD_BYTES = 256 * 1024;

export function webBody(
  source: Readable,
  {
    readAheadBytes = READ_AHEAD_BYTES,
    length,
    release,
    letGoOnCancel = false,
    onFirstPull,
  }: {
    readAheadBytes?: number;
    length?: number;
    letGoOnCancel?: boolean;
    /** Called when the stream is first asked for data (an HTTP server's 100 Continue). */
    onFirstPull?: () => void;
    /**
     * With `length`: called in place of closing the source once exactly `length` bytes have come
     * and nothing more (the stream's listeners are off it by then), so it can carry another answer.
     */
    release?: () => void;
  } = {},
): ReadableStream<Uint8Array> {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let received = 0;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let pulled = false;

  const onData = (chunk: Buffer) => {
    if (ended) return;
    received += chunk.length;
    if (length !== undefined && received >= length) {
      const extra = received - length;
      if (extra > 0) chunk = chunk.subarray(0, chunk.length - extra);
      complete(extra === 0);
    }
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= readAheadBytes) source.pause();
    wake?.();
  };
  const letGo = () => {
    ended = true;
    source.off('data', onData);
    stopWatching();
    source.pause();
  };
  /** The whole body is in: hand the source back when it is clean, else close it. */
  const complete = (clean: boolean) => {
    letGo();
    if (clean && release) release();
    else source.destroy();
  };

  source.pause();
  source.on('data', onData);
  const stopWatching = finished(source, (error) => {
    if (ended) return;
    if (error) failure = error;
    else if (length !== undefined && received < length) {
      failure = new Error(`the body ended after ${received} of ${length} bytes`);
    }
    ended = true;
    wake?.();
  });
  if (length === 0) complete(true);

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!pulled) {
          pulled = true;
          onFirstPull?.();
        }
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
        // Once the body is complete the source is no longer this stream's to close.
        if (ended) return;
        if (letGoOnCancel) letGo();
        else source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}
