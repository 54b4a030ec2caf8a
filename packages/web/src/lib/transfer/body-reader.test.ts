/** Reading a download: cut into parts as it arrives (lazily), or collected into one Blob. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectBlob, streamParts } from './body-reader.ts';
import { TransferError } from './transfer-error.ts';

/** A stream of `size` bytes (value = index % 251) in chunks of `chunk`; counts the chunks pulled. */
function source(size: number, chunk: number) {
  let offset = 0;
  const stats = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= size) return controller.close();
        const n = Math.min(chunk, size - offset);
        controller.enqueue(Uint8Array.from({ length: n }, (_, i) => (offset + i) % 251));
        offset += n;
        stats.pulled++;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, stats };
}

const expected = (start: number, end: number) =>
  Uint8Array.from({ length: end - start }, (_, i) => (start + i) % 251);

test('cuts the body into parts of the given size across chunk borders, the last one short', async () => {
  const { stream } = source(2_500, 333);
  const progress: number[] = [];
  const parts = [];
  for await (const part of streamParts(stream, 1_000, new AbortController().signal, (n) =>
    progress.push(n),
  )) {
    parts.push({ partNumber: part.partNumber, bytes: new Uint8Array(await part.body.arrayBuffer()) });
  }
  assert.deepEqual(
    parts.map((p) => [p.partNumber, p.bytes.length]),
    [
      [1, 1000],
      [2, 1000],
      [3, 500],
    ],
  );
  assert.deepEqual(parts[1]!.bytes, expected(1000, 2000));
  assert.deepEqual(parts[2]!.bytes, expected(2000, 2500));
  assert.equal(progress.at(-1), 2_500);
});

test('an exact multiple has no empty last part; an empty body is one empty part', async () => {
  const sizes = async (size: number) => {
    const out: number[] = [];
    for await (const part of streamParts(
      source(size, 100).stream,
      500,
      new AbortController().signal,
      () => {},
    ))
      out.push(part.body.size);
    return out;
  };
  assert.deepEqual(await sizes(1000), [500, 500]);
  assert.deepEqual(await sizes(0), [0]);
});

test('reads no further than the consumer asks (a bounded uploader holds back the download)', async () => {
  const { stream, stats } = source(10_000, 100);
  const parts = streamParts(stream, 1_000, new AbortController().signal, () => {});
  await parts.next();
  assert.ok(stats.pulled <= 11, `pulled ${stats.pulled} chunks for one part`);
  await parts.return(undefined);
});

test('collects the whole body into a Blob with its type, reporting progress', async () => {
  const progress: number[] = [];
  const blob = await collectBlob(
    source(9_000, 1_024).stream,
    'text/plain',
    new AbortController().signal,
    (n) => progress.push(n),
  );
  assert.equal(blob.size, 9_000);
  assert.equal(blob.type, 'text/plain');
  assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), expected(0, 9_000));
  assert.equal(progress.at(-1), 9_000);
});

test('a broken download is a network failure', async () => {
  let sent = false;
  const broken = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new Uint8Array(10));
      } else controller.error(new Error('connection reset'));
    },
  });
  await assert.rejects(
    collectBlob(broken, '', new AbortController().signal, () => {}),
    (error) => error instanceof TransferError && error.kind === 'network',
  );
});

test('a download passing its limit is cut there: a too-large failure, no further chunk read', async () => {
  const { stream, stats } = source(10_000, 1_000);
  await assert.rejects(
    collectBlob(stream, '', new AbortController().signal, () => {}, 2_500),
    (error) => error instanceof TransferError && error.kind === 'too-large' && error.limit === 2_500,
  );
  assert.equal(stats.pulled, 3, 'the chunk that passed the limit is the last one read');
  const exact = await collectBlob(
    source(2_500, 1_000).stream,
    '',
    new AbortController().signal,
    () => {},
    2_500,
  );
  assert.equal(exact.size, 2_500, 'a body of exactly the limit is whole');
});
