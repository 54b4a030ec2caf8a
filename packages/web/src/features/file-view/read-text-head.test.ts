/** Reading the first MiB of a text file for its preview (fetch replaced by a stub). */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { ApiError } from '../../lib/api/index.ts';
import { readTextHead } from './read-text-head.ts';

const realFetch = globalThis.fetch;
let sent: Headers | null = null;
afterEach(() => {
  globalThis.fetch = realFetch;
  sent = null;
});

/** A server answering with `body` in chunks of `chunk` bytes. */
function serve(body: Uint8Array, { status = 200, chunk = 7, headers = {} as Record<string, string> } = {}) {
  let pulled = 0;
  globalThis.fetch = (async (_url: RequestInfo | URL, init: RequestInit = {}) => {
    sent = new Headers(init.headers);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= body.byteLength) return controller.close();
        controller.enqueue(body.subarray(pulled, pulled + chunk));
        pulled += chunk;
      },
    });
    return new Response(stream, { status, headers });
  }) as typeof fetch;
  return () => pulled;
}

test('asks for the first bytes only and reads a short file whole', async () => {
  serve(new TextEncoder().encode('hello, 世界'));
  const head = await readTextHead('/api/file-view/a', { limit: 1024 });
  assert.equal(sent?.get('range'), 'bytes=0-1023');
  assert.deepEqual(head, { text: 'hello, 世界', truncated: false });
});

test('a server that ignores Range is cut off at the limit, without reading the rest', async () => {
  const big = new TextEncoder().encode('x'.repeat(10_000));
  const pulled = serve(big, { chunk: 100 });
  const head = await readTextHead('/api/file-view/a', { limit: 1000 });
  assert.equal(head.text.length, 1000);
  assert.equal(head.truncated, true);
  // One chunk looked at past the limit, one queued by the stream: nowhere near the 10,000.
  assert.ok(pulled() <= 1200, `read ${pulled()} bytes`);
});

test('a 206 with a larger total is truncated, and a split character is dropped', async () => {
  // "世" is 3 bytes; the limit cuts the second one after its first byte.
  const bytes = new TextEncoder().encode('ab世世');
  serve(bytes.subarray(0, 6), { status: 206, headers: { 'Content-Range': 'bytes 0-5/8' } });
  const head = await readTextHead('/x', { limit: 6 });
  assert.deepEqual(head, { text: 'ab世', truncated: true });
});

test('a refused read (expired token, gone) is an error with the status', async () => {
  serve(new Uint8Array(), { status: 410 });
  await assert.rejects(readTextHead('/x'), (error) => error instanceof ApiError && error.status === 410);
});
