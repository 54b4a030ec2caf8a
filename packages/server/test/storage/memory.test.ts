/**
 * The in-memory driver (the storage of the fast tier, docs/testing.md): the shared contract — less
 * its presigned-URL tests, skipped since it declares none (it has no HTTP endpoint) — then what only
 * it shows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MEMORY_CAPABILITIES, MemoryDriver } from '../support/memory-driver.ts';
import { ShiftableClock, gatedStream, readAll, readText, runDriverContract, streamOf } from './contract.ts';

runDriverContract(
  'memory',
  async () => {
    const clock = new ShiftableClock();
    return { driver: new MemoryDriver({ clock }), clock, close: async () => undefined };
  },
  MEMORY_CAPABILITIES,
);

describe('memory driver: specifics', () => {
  it('shows the old content until a write completes; a reader keeps the file it opened', async () => {
    const driver = new MemoryDriver();
    await driver.write('/atomic.txt', streamOf('old'));
    const opened = await driver.read('/atomic.txt');
    const slow = gatedStream('new ', 'content');
    const writing = driver.write('/atomic.txt', slow.body);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await readText(driver, '/atomic.txt'), 'old');
    slow.release();
    await writing;
    assert.equal(await readText(driver, '/atomic.txt'), 'new content');
    assert.equal((await readAll(opened.body)).toString(), 'old');
  });

  it('keeps its bytes to itself: neither the writer nor a reader can change a stored file', async () => {
    const driver = new MemoryDriver();
    const written = new Uint8Array([1, 2, 3]);
    await driver.write('/own.bin', streamOf(written));
    written[0] = 9;
    const reader = (await driver.read('/own.bin')).body.getReader();
    const { value } = await reader.read();
    value![1] = 9;
    await reader.cancel();
    assert.deepEqual([...(await readAll((await driver.read('/own.bin')).body))], [1, 2, 3]);
  });

  it('streams a large file in bounded chunks, and a range from inside one', async () => {
    const driver = new MemoryDriver();
    const big = new Uint8Array(1024 * 1024).map((_, i) => i % 256);
    await driver.write('/big.bin', streamOf(big));
    const sizes: number[] = [];
    for await (const chunk of (await driver.read('/big.bin')).body as unknown as AsyncIterable<Uint8Array>) {
      sizes.push(chunk.length);
    }
    assert.deepEqual(sizes, [262_144, 262_144, 262_144, 262_144]);
    const range = await driver.read('/big.bin', { range: { start: 300_000, end: 300_003 } });
    assert.deepEqual([...(await readAll(range.body))], [224, 225, 226, 227]);
  });

  it('reports the content type given to write and to a multipart upload', async () => {
    const driver = new MemoryDriver();
    await driver.write('/typed.txt', streamOf('t'), { contentType: 'text/plain' });
    assert.equal((await driver.stat('/typed.txt')).contentType, 'text/plain');
    assert.equal((await driver.read('/typed.txt')).contentType, 'text/plain');
    const { uploadId } = await driver.multipart.init('/mp.json', { contentType: 'application/json' });
    const { etag } = await driver.multipart.uploadPart('/mp.json', uploadId, 1, streamOf('{}'), { size: 2 });
    const done = await driver.multipart.complete('/mp.json', uploadId, [{ partNumber: 1, etag }]);
    assert.match(done.etag ?? '', /^"[0-9a-f]{32}-1"$/);
    assert.equal((await driver.stat('/mp.json')).contentType, 'application/json');
  });
});
