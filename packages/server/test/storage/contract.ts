/**
 * The storage driver contract: one suite every backend must pass (as rclone's fstests), run by
 * local.test.ts and s3.test.ts. It pins down what the vfs may rely on whatever the backend:
 * metadata, pagination past S3's 1000-key pages, ranges, streamed writes, directory semantics,
 * multipart uploads with S3's rules, presigned URLs used by plain `fetch` (on a driver that has them),
 * and awkward names.
 * Failures are asserted by StorageError code, content by bytes or hash.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type DriverCapabilities,
  type Entry,
  type StorageDriver,
  StorageError,
  type StorageErrorCode,
} from '../../src/storage/driver.ts';

/** A clock that reads real time unless a test pins it (to presign URLs in the past). */
export class ShiftableClock {
  private pinned: Date | null = null;
  now(): Date {
    return this.pinned ? new Date(this.pinned) : new Date();
  }
  pin(at: Date | null): void {
    this.pinned = at;
  }
}

export interface DriverHarness {
  driver: StorageDriver;
  /** The clock the driver signs with (and, for local, the presign routes verify with). */
  clock: ShiftableClock;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

/** Names that break naive URL and key handling: spaces, CJK, `#`, `?`, `%`, a literal escape, `+`, `&`. */
export const ODD_DIR = 'dir with space/目录 #?%';
export const ODD_NAMES = ['file with space.txt', '中文文件名.txt', 'odd #?% & + 100%25.txt'];

// ---- helpers ----------------------------------------------------------------------------------

export function streamOf(data: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** Deterministic chunks of `size` bytes: a seeded 64 KiB block, each copy stamped with its index. */
function* generatedChunks(size: number, seed: string): Generator<Uint8Array> {
  const block = Buffer.alloc(64 * 1024);
  for (let offset = 0, h = Buffer.from(seed); offset < block.length; offset += 32) {
    h = createHash('sha256').update(h).digest();
    h.copy(block, offset);
  }
  for (let sent = 0, index = 0; sent < size; index++) {
    const n = Math.min(block.length, size - sent);
    const chunk = Buffer.from(block.subarray(0, n)); // a fresh buffer: consumers may hold on to it
    if (n >= 4) chunk.writeUInt32BE(index, 0);
    sent += n;
    yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
  }
}

/** Generated data that fails with "client went away" after `bytes` (a client that disconnects). */
export function droppedStream(bytes: number, seed: string): ReadableStream<Uint8Array> {
  const source = generatedStream(bytes * 2 + 1, seed).getReader();
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= bytes) return controller.error(new Error('client went away'));
      const { value } = await source.read();
      sent += value!.length;
      controller.enqueue(value!);
    },
  });
}

/** A body that sends `first` at once and `rest` only after `release()`: a write caught halfway. */
export function gatedStream(
  first: string,
  rest: string,
): { body: ReadableStream<Uint8Array>; release(): void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode(first));
        return;
      }
      await gate;
      controller.enqueue(new TextEncoder().encode(rest));
      controller.close();
    },
  });
  return { body, release: () => release() };
}

/** A body that never ends, counting the chunks read from it: to show a server refused it unread. */
export function endlessStream(): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024));
    },
  });
  return { body, pulled: () => pulled };
}

/** A pull-driven stream over generated data: it produces a chunk only when the consumer asks. */
export function generatedStream(size: number, seed: string): ReadableStream<Uint8Array> {
  const chunks = generatedChunks(size, seed);
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    },
    { highWaterMark: 0 },
  );
}

export function generatedHash(size: number, seed: string, hash = createHash('sha256')): string {
  for (const chunk of generatedChunks(size, seed)) hash.update(chunk);
  return hash.digest('hex');
}

export async function hashStream(
  stream: ReadableStream<Uint8Array>,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function readText(driver: StorageDriver, path: string): Promise<string> {
  return (await readAll((await driver.read(path)).body)).toString('utf8');
}

export async function expectCode(promise: Promise<unknown>, code: StorageErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof StorageError, `expected StorageError(${code}), got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}

export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function listAll(
  driver: StorageDriver,
  dir: string,
  limit?: number,
): Promise<{ entries: Entry[]; pages: number[] }> {
  const entries: Entry[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await driver.list(dir, { ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) });
    entries.push(...page.entries);
    pages.push(page.entries.length);
    cursor = page.cursor;
    assert.ok(pages.length < 100, 'pagination does not end');
  } while (cursor);
  return { entries, pages };
}

const names = async (driver: StorageDriver, dir: string): Promise<string[]> =>
  (await listAll(driver, dir)).entries.map((e) => e.name);

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

const bytesOf = (length: number): Buffer => Buffer.from(Array.from({ length }, (_, i) => i % 251));

/** A fetch PUT with a body, as a browser on another origin would send it. */
function put(url: URL, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'PUT', body, headers: { Origin: 'http://app.example', ...headers } });
}

// ---- the suite --------------------------------------------------------------------------------

/**
 * Runs the suite on the drivers `makeDriver` makes, whose kind declares `declared` (its registry
 * entry's capabilities). The suite first checks the declaration against what the driver does, then
 * skips the tests of what it does not declare.
 */
export function runDriverContract(
  name: string,
  makeDriver: () => Promise<DriverHarness>,
  declared: DriverCapabilities,
): void {
  /** Skips a test (by the capability's name) when the driver does not declare it. */
  const needs = (...capabilities: (keyof DriverCapabilities)[]) => {
    const missing = capabilities.filter((c) => !declared[c]);
    return { skip: missing.length > 0 ? `the driver declares no ${missing.join(', ')}` : false };
  };

  describe(`storage driver contract: ${name}`, () => {
    let h: DriverHarness;
    let driver: StorageDriver;
    const base = `/contract-${randomBytes(4).toString('hex')}`;
    const at = (path: string): string => `${base}/${path}`;
    const write = (path: string, data: string | Uint8Array, options = {}) =>
      driver.write(path, streamOf(data), options);

    before(async () => {
      h = await makeDriver();
      driver = h.driver;
    });
    after(async () => {
      await driver?.remove(base, { recursive: true }).catch(() => undefined);
      await h?.close();
    });

    describe('capabilities', () => {
      it('are those its registry entry declares', () => {
        assert.deepEqual(driver.capabilities, declared);
      });

      it('has a presign method exactly for each kind of presigned URL it declares', () => {
        for (const method of ['presignGet', 'presignPut', 'presignPart'] as const) {
          assert.equal(typeof driver[method] === 'function', declared[method], method);
        }
        if (declared.directUrls) assert.ok(declared.presignGet, 'direct URLs are presigned URLs');
      });

      it('gives the ETags it declares: MD5s alike for alike bytes, or a new version per write', async () => {
        const path = at('caps/etag.txt');
        const first = await write(path, 'same bytes', { size: 10 });
        const second = await write(path, 'same bytes', { size: 10 });
        assert.equal((await driver.stat(path)).etag, second.etag);
        if (declared.etag === 'md5') {
          const md5 = createHash('md5').update('same bytes').digest('hex');
          assert.equal(first.etag, `"${md5}"`);
          assert.equal(second.etag, `"${md5}"`);
        } else {
          assert.notEqual(second.etag, first.etag, 'a rewrite is a new version');
        }
      });

      it('stores the content type exactly when it declares so', async () => {
        const path = at('caps/typed.bin');
        await write(path, 'typed', { contentType: 'application/x-cubby-test' });
        const { contentType } = await driver.stat(path);
        assert.equal(contentType, declared.contentType ? 'application/x-cubby-test' : undefined);
      });

      it('keeps the modification time through a move, as renames do', needs('rename'), async () => {
        const path = at('caps/renamed.txt');
        h.clock.pin(new Date(Date.now() - 3_600_000));
        try {
          await write(path, 'moved');
          const before = await driver.stat(path);
          h.clock.pin(null);
          await driver.move(path, at('caps/renamed-to.txt'));
          const after = await driver.stat(at('caps/renamed-to.txt'));
          assert.deepEqual(after.modified, before.modified);
        } finally {
          h.clock.pin(null);
        }
      });

      it('reads a range when it declares range reads', needs('rangeReads'), async () => {
        await write(at('caps/range.txt'), '0123456789');
        const got = await driver.read(at('caps/range.txt'), { range: { start: 2, end: 4 } });
        assert.equal(got.contentLength, 3);
        assert.equal((await readAll(got.body)).toString(), '234');
      });
    });

    describe('stat', () => {
      it('describes a file: name, size, modification time and a quoted ETag', async () => {
        const written = await write(at('stat/a.txt'), 'hello');
        const entry = await driver.stat(at('stat/a.txt'));
        assert.equal(entry.path, at('stat/a.txt'));
        assert.equal(entry.name, 'a.txt');
        assert.equal(entry.isDirectory, false);
        assert.equal(entry.size, 5);
        assert.ok(
          entry.modified instanceof Date && Math.abs(entry.modified.getTime() - Date.now()) < 120_000,
        );
        assert.match(entry.etag ?? '', /^".+"$/);
        assert.equal(entry.etag, written.etag, 'write and stat agree on the ETag');
        assert.equal((await driver.stat(at('stat/a.txt'))).etag, entry.etag, 'the ETag is stable');
      });

      it('describes the root and any directory as a directory', async () => {
        const root = await driver.stat('/');
        assert.equal(root.isDirectory, true);
        assert.equal(root.path, '/');
        await driver.mkdir(at('stat/made'));
        assert.equal((await driver.stat(at('stat/made'))).isDirectory, true);
        await write(at('stat/implied/deep/f.txt'), 'x');
        const implied = await driver.stat(at('stat/implied'));
        assert.equal(implied.isDirectory, true);
        assert.equal(implied.size, 0);
      });

      it('normalises paths: slashes, dots and a trailing slash name the same entry', async () => {
        await write(at('stat/norm.txt'), 'n');
        const entry = await driver.stat(`/${base}//stat/./sub/../norm.txt/`);
        assert.equal(entry.path, at('stat/norm.txt'));
      });

      it('answers NOT_FOUND for a missing path and INVALID_PATH for one above the root', async () => {
        await expectCode(driver.stat(at('stat/missing.txt')), 'NOT_FOUND');
        await expectCode(driver.stat('/../outside'), 'INVALID_PATH');
        await expectCode(driver.stat('/a/\u0000b'), 'INVALID_PATH');
      });
    });

    describe('list', () => {
      it('lists the files and directories directly inside, in byte order of their names', async () => {
        await write(at('list/b.txt'), 'bb');
        await write(at('list/a.txt'), 'a');
        await write(at('list/sub/inner.txt'), 'not listed at this level');
        await driver.mkdir(at('list/empty'));
        const { entries } = await listAll(driver, at('list'));
        assert.deepEqual(
          entries.map((e) => [e.name, e.isDirectory, e.isDirectory ? 0 : e.size]),
          [
            ['a.txt', false, 1],
            ['b.txt', false, 2],
            ['empty', true, 0],
            ['sub', true, 0],
          ],
        );
        assert.equal(entries[0]!.path, at('list/a.txt'));
        assert.deepEqual(await names(driver, at('list/empty')), []);
      });

      it('answers NOT_FOUND for a missing directory and NOT_A_DIRECTORY for a file', async () => {
        await write(at('list-errors/file.txt'), 'f');
        await expectCode(driver.list(at('list-errors/missing')), 'NOT_FOUND');
        await expectCode(driver.list(at('list-errors/file.txt')), 'NOT_A_DIRECTORY');
      });

      describe('a directory of 1,050 entries', () => {
        const dir = at('many');
        const expected = Array.from({ length: 1050 }, (_, i) => `f-${String(i).padStart(4, '0')}.txt`);
        before(async () => {
          await mapLimit(expected, 16, (file) => write(`${dir}/${file}`, file));
        });

        it('is listed page by page past 1000 entries, each entry exactly once', async () => {
          const { entries, pages } = await listAll(driver, dir);
          assert.ok(pages.length >= 2, `one page of ${pages[0]} cannot hold 1050 entries`);
          assert.ok(pages.every((n) => n <= 1000));
          assert.deepEqual(
            entries.map((e) => e.name),
            expected,
          );
          assert.equal(entries[1049]!.size, 'f-1049.txt'.length);
        });

        it('honours a smaller page size', async () => {
          const { entries, pages } = await listAll(driver, dir, 400);
          assert.deepEqual(pages, [400, 400, 250]);
          assert.equal(new Set(entries.map((e) => e.name)).size, 1050);
        });

        it('is removed recursively, all 1,050 entries', async () => {
          await driver.remove(dir, { recursive: true });
          await expectCode(driver.stat(dir), 'NOT_FOUND');
          await expectCode(driver.stat(`${dir}/f-1049.txt`), 'NOT_FOUND');
          assert.ok(!(await names(driver, base)).includes('many'));
        });
      });
    });

    describe('read', () => {
      const data = bytesOf(1000);
      const file = at('read/range.bin');
      before(async () => {
        await write(file, data);
      });

      it('reads the whole file with its size and ETag', async () => {
        const result = await driver.read(file);
        assert.deepEqual(await readAll(result.body), data);
        assert.equal(result.size, 1000);
        assert.equal(result.contentLength, 1000);
        assert.equal(result.range, undefined);
        assert.equal(result.etag, (await driver.stat(file)).etag);
      });

      const ranges: Array<[string, { start: number; end?: number }, number, number]> = [
        ['the first bytes', { start: 0, end: 9 }, 0, 9],
        ['a middle slice', { start: 100, end: 199 }, 100, 199],
        ['from an offset to the end', { start: 990 }, 990, 999],
        ['an end past the file, clamped', { start: 995, end: 5000 }, 995, 999],
        ['the last byte alone', { start: 999, end: 999 }, 999, 999],
      ];
      for (const [label, range, start, end] of ranges) {
        it(`reads ${label}`, async () => {
          const result = await driver.read(file, { range });
          assert.deepEqual(await readAll(result.body), data.subarray(start, end + 1));
          assert.deepEqual(result.range, { start, end });
          assert.equal(result.contentLength, end - start + 1);
          assert.equal(result.size, 1000, 'size is the whole file');
        });
      }

      it('answers INVALID_RANGE for a range it cannot satisfy', async () => {
        await expectCode(driver.read(file, { range: { start: 1000 } }), 'INVALID_RANGE');
        await expectCode(driver.read(file, { range: { start: 20, end: 10 } }), 'INVALID_RANGE');
        await expectCode(driver.read(file, { range: { start: -1 } }), 'INVALID_RANGE');
        await write(at('read/empty.bin'), '');
        await expectCode(driver.read(at('read/empty.bin'), { range: { start: 0 } }), 'INVALID_RANGE');
      });

      it('reads an empty file as zero bytes', async () => {
        await write(at('read/empty2.bin'), '');
        const result = await driver.read(at('read/empty2.bin'));
        assert.equal(result.size, 0);
        assert.equal((await readAll(result.body)).length, 0);
      });

      it('answers NOT_FOUND for a missing file and IS_A_DIRECTORY for a directory', async () => {
        await expectCode(driver.read(at('read/missing.bin')), 'NOT_FOUND');
        await expectCode(driver.read(at('read')), 'IS_A_DIRECTORY');
      });

      it('lets a reader stop early without reading the rest', async () => {
        const result = await driver.read(file);
        const reader = result.body.getReader();
        const first = await reader.read();
        assert.ok(first.value && first.value.length > 0);
        await reader.cancel();
        assert.equal((await readAll((await driver.read(file)).body)).length, 1000, 'the file is intact');
      });
    });

    describe('write', () => {
      it('streams a 20 MiB generated body of unknown size, stored byte for byte', async () => {
        const size = 20 * MiB;
        const result = await driver.write(at('write/big.bin'), generatedStream(size, 'big'));
        assert.equal(result.size, size);
        const read = await driver.read(at('write/big.bin'));
        assert.equal(read.size, size);
        assert.deepEqual(await hashStream(read.body), { sha256: generatedHash(size, 'big'), bytes: size });
        assert.equal((await driver.stat(at('write/big.bin'))).etag, result.etag);
      });

      it('stores a body of declared size', async () => {
        const result = await driver.write(at('write/sized.bin'), generatedStream(300_000, 's'), {
          size: 300_000,
        });
        assert.equal(result.size, 300_000);
        assert.equal(
          (await hashStream((await driver.read(at('write/sized.bin'))).body)).sha256,
          generatedHash(300_000, 's'),
        );
      });

      it('refuses a body longer than its declared size with TOO_LARGE and stores nothing', async () => {
        await expectCode(write(at('write/over.bin'), '0123456789ABCDEF', { size: 10 }), 'TOO_LARGE');
        await expectCode(driver.stat(at('write/over.bin')), 'NOT_FOUND');
      });

      it('refuses a body shorter than its declared size and stores nothing', async () => {
        await expectCode(write(at('write/short.bin'), '0123', { size: 10 }), 'PRECONDITION_FAILED');
        await expectCode(driver.stat(at('write/short.bin')), 'NOT_FOUND');
      });

      it('stores nothing when the body stream fails midway', async () => {
        let sent = 0;
        const failing = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= 3) return controller.error(new Error('client went away'));
            sent++;
            controller.enqueue(new Uint8Array(64 * 1024).fill(7));
          },
        });
        await assert.rejects(driver.write(at('write/broken.bin'), failing));
        await expectCode(driver.stat(at('write/broken.bin')), 'NOT_FOUND');
        assert.ok(!(await names(driver, at('write'))).includes('broken.bin'));
      });

      it('replaces an existing file; the ETag changes with the content', async () => {
        const first = await write(at('write/over.txt'), 'first version');
        const second = await write(at('write/over.txt'), 'second');
        assert.equal(await readText(driver, at('write/over.txt')), 'second');
        assert.equal((await driver.stat(at('write/over.txt'))).size, 6);
        assert.notEqual(first.etag, second.etag);
      });

      it('creates missing parent directories', async () => {
        await write(at('write/new/parents/f.txt'), 'deep');
        assert.equal((await driver.stat(at('write/new/parents'))).isDirectory, true);
        assert.deepEqual(await names(driver, at('write/new')), ['parents']);
      });

      it('answers IS_A_DIRECTORY when the path is a directory', async () => {
        await driver.mkdir(at('write/a-dir'));
        await expectCode(write(at('write/a-dir'), 'x'), 'IS_A_DIRECTORY');
        await expectCode(write('/', 'x'), 'IS_A_DIRECTORY');
      });
    });

    describe('mkdir', () => {
      it('creates an empty directory, and its missing parents', async () => {
        await driver.mkdir(at('mkdir/one/two/three'));
        for (const path of ['mkdir/one', 'mkdir/one/two', 'mkdir/one/two/three']) {
          assert.equal((await driver.stat(at(path))).isDirectory, true, path);
        }
        assert.deepEqual(await names(driver, at('mkdir/one/two/three')), []);
        assert.deepEqual(await names(driver, at('mkdir/one')), ['two']);
      });

      it('answers ALREADY_EXISTS when a directory or a file is there', async () => {
        await driver.mkdir(at('mkdir/exists'));
        await expectCode(driver.mkdir(at('mkdir/exists')), 'ALREADY_EXISTS');
        await write(at('mkdir/file.txt'), 'f');
        await expectCode(driver.mkdir(at('mkdir/file.txt')), 'ALREADY_EXISTS');
        await expectCode(driver.mkdir('/'), 'ALREADY_EXISTS');
      });

      it('answers NOT_A_DIRECTORY below a file', async () => {
        await write(at('mkdir/plain.txt'), 'f');
        await expectCode(driver.mkdir(at('mkdir/plain.txt/sub')), 'NOT_A_DIRECTORY');
      });
    });

    describe('remove', () => {
      it('removes a file; its directory stays, even when now empty', async () => {
        await write(at('remove/dir/only.txt'), 'x');
        await driver.remove(at('remove/dir/only.txt'));
        await expectCode(driver.stat(at('remove/dir/only.txt')), 'NOT_FOUND');
        assert.equal((await driver.stat(at('remove/dir'))).isDirectory, true);
        assert.deepEqual(await names(driver, at('remove/dir')), []);
      });

      it('removes an empty directory without recursive, a full one only with it', async () => {
        await driver.mkdir(at('remove/empty'));
        await driver.remove(at('remove/empty'));
        await expectCode(driver.stat(at('remove/empty')), 'NOT_FOUND');

        await write(at('remove/full/a.txt'), 'a');
        await write(at('remove/full/sub/b.txt'), 'b');
        await expectCode(driver.remove(at('remove/full')), 'PRECONDITION_FAILED');
        assert.equal(await readText(driver, at('remove/full/a.txt')), 'a', 'nothing was removed');
        await driver.remove(at('remove/full'), { recursive: true });
        await expectCode(driver.stat(at('remove/full')), 'NOT_FOUND');
        await expectCode(driver.stat(at('remove/full/sub/b.txt')), 'NOT_FOUND');
      });

      it('answers NOT_FOUND for a missing path and INVALID_PATH for the root', async () => {
        await expectCode(driver.remove(at('remove/missing')), 'NOT_FOUND');
        await expectCode(driver.remove('/', { recursive: true }), 'INVALID_PATH');
      });
    });

    describe('copy and move', () => {
      const tree = async (dir: string): Promise<void> => {
        await write(`${dir}/a.txt`, 'A');
        await write(`${dir}/sub/b.txt`, 'BB');
        await driver.mkdir(`${dir}/sub/empty`);
      };
      const expectTree = async (dir: string): Promise<void> => {
        assert.equal(await readText(driver, `${dir}/a.txt`), 'A');
        assert.equal(await readText(driver, `${dir}/sub/b.txt`), 'BB');
        assert.equal((await driver.stat(`${dir}/sub/empty`)).isDirectory, true);
        assert.deepEqual(await names(driver, `${dir}/sub`), ['b.txt', 'empty']);
      };

      it('copies a file; both copies hold the bytes', async () => {
        await write(at('copy/src.txt'), 'copy me');
        await driver.copy(at('copy/src.txt'), at('copy/other/dst.txt'));
        assert.equal(await readText(driver, at('copy/src.txt')), 'copy me');
        assert.equal(await readText(driver, at('copy/other/dst.txt')), 'copy me');
      });

      it('copies onto an existing file, replacing it', async () => {
        await write(at('copy/new.txt'), 'new');
        await write(at('copy/old.txt'), 'old content');
        await driver.copy(at('copy/new.txt'), at('copy/old.txt'));
        assert.equal(await readText(driver, at('copy/old.txt')), 'new');
      });

      it('copies a directory with everything below it', async () => {
        await tree(at('copy/tree'));
        await driver.copy(at('copy/tree'), at('copy/tree-copy'));
        await expectTree(at('copy/tree'));
        await expectTree(at('copy/tree-copy'));
      });

      it('refuses to copy a directory onto something that exists, or into itself', async () => {
        await tree(at('copy/t2'));
        await driver.mkdir(at('copy/taken'));
        await expectCode(driver.copy(at('copy/t2'), at('copy/taken')), 'ALREADY_EXISTS');
        await expectCode(driver.copy(at('copy/t2'), at('copy/t2/inside')), 'INVALID_PATH');
        await expectCode(driver.copy(at('copy/t2'), at('copy/t2')), 'INVALID_PATH');
        await expectCode(driver.copy(at('copy/missing'), at('copy/x')), 'NOT_FOUND');
      });

      it('moves a file; the source is gone and its directory stays', async () => {
        await write(at('move/from/f.txt'), 'moving');
        await driver.move(at('move/from/f.txt'), at('move/to/g.txt'));
        await expectCode(driver.stat(at('move/from/f.txt')), 'NOT_FOUND');
        assert.equal(await readText(driver, at('move/to/g.txt')), 'moving');
        assert.deepEqual(await names(driver, at('move/from')), []);
      });

      it('moves a directory with everything below it', async () => {
        await tree(at('move/tree'));
        await driver.move(at('move/tree'), at('move/renamed'));
        await expectCode(driver.stat(at('move/tree')), 'NOT_FOUND');
        await expectCode(driver.stat(at('move/tree/a.txt')), 'NOT_FOUND');
        await expectTree(at('move/renamed'));
      });

      it('refuses to move a missing path or a directory into itself', async () => {
        await expectCode(driver.move(at('move/missing'), at('move/x')), 'NOT_FOUND');
        await tree(at('move/t3'));
        await expectCode(driver.move(at('move/t3'), at('move/t3/sub/deeper')), 'INVALID_PATH');
        await expectTree(at('move/t3'));
      });
    });

    describe('multipart uploads', needs('multipart'), () => {
      const five = 5 * MiB;

      it('assembles two 5 MiB parts and a small last part; listParts shows them', async () => {
        const path = at('mp/assembled.bin');
        const { uploadId } = await driver.multipart.init(path, { contentType: 'application/octet-stream' });
        const sizes = [five, five, 1234];
        const parts = [];
        for (const [i, size] of sizes.entries()) {
          const { etag } = await driver.multipart.uploadPart(
            path,
            uploadId,
            i + 1,
            generatedStream(size, `p${i}`),
            {
              size,
            },
          );
          assert.match(etag, /^".+"$/);
          parts.push({ partNumber: i + 1, etag });
        }
        const listed = await driver.multipart.listParts(path, uploadId);
        assert.deepEqual(
          listed.map((p) => [p.partNumber, p.etag, p.size]),
          parts.map((p, i) => [p.partNumber, p.etag, sizes[i]]),
        );
        await expectCode(driver.stat(path), 'NOT_FOUND'); // invisible until complete

        const done = await driver.multipart.complete(path, uploadId, parts);
        const total = five + five + 1234;
        assert.equal(done.size, total);
        const expected = createHash('sha256');
        for (const [i, size] of sizes.entries()) {
          for (const chunk of generatedChunks(size, `p${i}`)) expected.update(chunk);
        }
        assert.deepEqual(await hashStream((await driver.read(path)).body), {
          sha256: expected.digest('hex'),
          bytes: total,
        });
        assert.equal((await driver.stat(path)).etag, done.etag, 'complete and stat agree on the ETag');
        await expectCode(driver.multipart.listParts(path, uploadId), 'NOT_FOUND');
      });

      it('keeps the last upload of a part number', async () => {
        const path = at('mp/replaced.txt');
        const { uploadId } = await driver.multipart.init(path);
        await driver.multipart.uploadPart(path, uploadId, 1, streamOf('first'), { size: 5 });
        const { etag } = await driver.multipart.uploadPart(path, uploadId, 1, streamOf('second'), {
          size: 6,
        });
        assert.deepEqual(await driver.multipart.listParts(path, uploadId), [
          { partNumber: 1, etag, size: 6 },
        ]);
        await driver.multipart.complete(path, uploadId, [{ partNumber: 1, etag }]);
        assert.equal(await readText(driver, path), 'second');
      });

      it('refuses a part under 5 MiB that is not the last, and an ETag that was not returned', async () => {
        const path = at('mp/refused.txt');
        const { uploadId } = await driver.multipart.init(path);
        const a = await driver.multipart.uploadPart(path, uploadId, 1, streamOf('aaaa'), { size: 4 });
        const b = await driver.multipart.uploadPart(path, uploadId, 2, streamOf('bbbb'), { size: 4 });
        await expectCode(
          driver.multipart.complete(path, uploadId, [
            { partNumber: 1, etag: a.etag },
            { partNumber: 2, etag: b.etag },
          ]),
          'PRECONDITION_FAILED',
        );
        await expectCode(
          driver.multipart.complete(path, uploadId, [
            { partNumber: 1, etag: '"0123456789abcdef0123456789abcdef"' },
          ]),
          'PRECONDITION_FAILED',
        );
        await expectCode(driver.stat(path), 'NOT_FOUND');
        await driver.multipart.abort(path, uploadId);
      });

      it('refuses a part body that runs past its declared size', async () => {
        const path = at('mp/oversize.txt');
        const { uploadId } = await driver.multipart.init(path);
        await expectCode(
          driver.multipart.uploadPart(path, uploadId, 1, streamOf('0123456789'), { size: 4 }),
          'TOO_LARGE',
        );
        assert.deepEqual(await driver.multipart.listParts(path, uploadId), []);
        await driver.multipart.abort(path, uploadId);
      });

      it('forgets an aborted upload: parts, completion and further parts are NOT_FOUND', async () => {
        const path = at('mp/aborted.txt');
        const { uploadId } = await driver.multipart.init(path);
        const { etag } = await driver.multipart.uploadPart(path, uploadId, 1, streamOf('data'), { size: 4 });
        await driver.multipart.abort(path, uploadId);
        await expectCode(driver.multipart.listParts(path, uploadId), 'NOT_FOUND');
        await expectCode(driver.multipart.complete(path, uploadId, [{ partNumber: 1, etag }]), 'NOT_FOUND');
        await expectCode(
          driver.multipart.uploadPart(path, uploadId, 2, streamOf('more'), { size: 4 }),
          'NOT_FOUND',
        );
        await expectCode(driver.stat(path), 'NOT_FOUND');
      });

      it('lists unfinished uploads with their path and start, and forgets finished and aborted ones', async () => {
        const open = at('mp/listed-open.bin');
        const done = at('mp/listed-done.txt');
        const started = Date.now();
        const a = await driver.multipart.init(open);
        const b = await driver.multipart.init(done);
        const { etag } = await driver.multipart.uploadPart(done, b.uploadId, 1, streamOf('done'), {
          size: 4,
        });
        const mine = async () =>
          (await driver.multipart.listUploads(1000)).filter(
            (u) => u.uploadId === a.uploadId || u.uploadId === b.uploadId,
          );
        const listed = await mine();
        assert.deepEqual(listed.map((u) => u.path).sort(), [done, open]);
        for (const u of listed) {
          // A storage server's clock may be a little off this one's.
          assert.ok(Math.abs(u.initiated.getTime() - started) < 5 * 60_000, `${u.initiated.toISOString()}`);
        }
        await driver.multipart.complete(done, b.uploadId, [{ partNumber: 1, etag }]);
        assert.deepEqual(
          (await mine()).map((u) => u.path),
          [open],
        );
        await driver.multipart.abort(open, a.uploadId);
        assert.deepEqual(await mine(), []);
      });

      it('answers NOT_FOUND for an unknown upload id or one used with another path', async () => {
        const path = at('mp/owned.txt');
        const { uploadId } = await driver.multipart.init(path);
        await expectCode(driver.multipart.listParts(at('mp/other.txt'), uploadId), 'NOT_FOUND');
        await expectCode(driver.multipart.listParts(path, 'no-such-upload'), 'NOT_FOUND');
        await driver.multipart.abort(path, uploadId);
      });
    });

    describe('presigned URLs used by plain fetch', () => {
      it('GET downloads the bytes, honours Range and names the download', needs('presignGet'), async () => {
        const path = at('presign/get me.bin');
        const data = bytesOf(5000);
        await write(path, data);
        const url = await driver.presignGet!(path, { expiresIn: 300, filename: 'report 报告.bin' });
        const full = await fetch(url);
        assert.equal(full.status, 200);
        assert.deepEqual(Buffer.from(await full.arrayBuffer()), data);
        assert.match(
          full.headers.get('content-disposition') ?? '',
          /^attachment;.*filename\*=UTF-8''report%20%E6%8A%A5%E5%91%8A\.bin/,
        );

        const part = await fetch(url, { headers: { Range: 'bytes=100-199' } });
        assert.equal(part.status, 206);
        assert.equal(part.headers.get('content-range'), 'bytes 100-199/5000');
        assert.deepEqual(Buffer.from(await part.arrayBuffer()), data.subarray(100, 200));

        const inline = await driver.presignGet!(path, {
          expiresIn: 300,
          disposition: 'inline',
          contentType: 'text/plain',
        });
        const shown = await fetch(inline);
        assert.match(shown.headers.get('content-disposition') ?? '', /^inline/);
        assert.equal(shown.headers.get('content-type'), 'text/plain');
        await shown.arrayBuffer();
      });

      it(
        'PUT stores the body; a browser on another origin can read the ETag',
        needs('presignPut'),
        async () => {
          const path = at('presign/put.txt');
          const url = await driver.presignPut!(path, { expiresIn: 300, contentType: 'text/plain', size: 11 });
          const res = await put(url, 'hello world', { 'Content-Type': 'text/plain' });
          assert.equal(res.status, 200, await res.text());
          const etag = res.headers.get('etag');
          assert.ok(etag, 'the ETag header is sent');
          assert.ok(res.headers.get('access-control-allow-origin'), 'CORS allows the origin');
          assert.match(res.headers.get('access-control-expose-headers') ?? '', /etag/i);
          assert.equal(await readText(driver, path), 'hello world');
          assert.equal((await driver.stat(path)).etag, etag);
        },
      );

      it('answers a CORS preflight for a PUT', needs('presignPut'), async () => {
        const url = await driver.presignPut!(at('presign/preflight.txt'), {
          expiresIn: 300,
          contentType: 'text/plain',
          size: 1,
        });
        const res = await fetch(url, {
          method: 'OPTIONS',
          headers: {
            Origin: 'http://app.example',
            'Access-Control-Request-Method': 'PUT',
            'Access-Control-Request-Headers': 'content-type',
          },
        });
        assert.ok(res.status === 200 || res.status === 204, `preflight answered ${res.status}`);
        assert.ok(res.headers.get('access-control-allow-origin'));
        assert.match(res.headers.get('access-control-allow-methods') ?? '', /PUT/);
      });

      it(
        'refuses a tampered URL with 403 and stores nothing',
        needs('presignPut', 'presignGet'),
        async () => {
          const path = at('presign/tampered.txt');
          const url = await driver.presignPut!(path, { expiresIn: 300, contentType: 'text/plain', size: 4 });
          const badSig = new URL(url);
          for (const name of ['X-Amz-Signature', 'sig']) {
            const sig = badSig.searchParams.get(name);
            if (sig) badSig.searchParams.set(name, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
          }
          assert.equal((await put(badSig, 'data', { 'Content-Type': 'text/plain' })).status, 403);

          const otherKey = new URL(url.href.replace('tampered.txt', 'elsewhere.txt'));
          assert.notEqual(otherKey.href, url.href);
          assert.equal((await put(otherKey, 'data', { 'Content-Type': 'text/plain' })).status, 403);

          const getUrl = await driver.presignGet!(path, { expiresIn: 300 });
          const badGet = new URL(getUrl.href.replace('tampered.txt', 'tampered.txx'));
          assert.equal((await fetch(badGet)).status, 403);
          await expectCode(driver.stat(path), 'NOT_FOUND');
          await expectCode(driver.stat(at('presign/elsewhere.txt')), 'NOT_FOUND');
        },
      );

      it('refuses an expired URL with 403', needs('presignGet', 'presignPut'), async () => {
        const path = at('presign/expired.txt');
        await write(path, 'old news');
        h.clock.pin(new Date(Date.now() - 2 * 3600_000));
        let getUrl: URL;
        let putUrl: URL;
        try {
          getUrl = await driver.presignGet!(path, { expiresIn: 60 });
          putUrl = await driver.presignPut!(path, { expiresIn: 60, contentType: 'text/plain', size: 3 });
        } finally {
          h.clock.pin(null);
        }
        assert.equal((await fetch(getUrl)).status, 403);
        assert.equal((await put(putUrl, 'new', { 'Content-Type': 'text/plain' })).status, 403);
        assert.equal(await readText(driver, path), 'old news');
      });

      it(
        'refuses a PUT larger than the signed size, or of another Content-Type, and stores nothing',
        needs('presignPut'),
        async () => {
          const path = at('presign/limited.txt');
          const url = await driver.presignPut!(path, { expiresIn: 300, contentType: 'text/plain', size: 10 });
          const tooBig = await put(url, 'x'.repeat(10_000), { 'Content-Type': 'text/plain' });
          assert.ok([403, 413].includes(tooBig.status), `answered ${tooBig.status}`);
          const wrongType = await put(url, 'x'.repeat(10), { 'Content-Type': 'text/html' });
          assert.equal(wrongType.status, 403);
          await expectCode(driver.stat(path), 'NOT_FOUND');
          assert.ok(!(await names(driver, at('presign'))).includes('limited.txt'));
        },
      );

      it(
        'uploads parts to presigned part URLs, whose ETags complete the upload',
        needs('presignPart', 'multipart'),
        async () => {
          const path = at('presign/parts.bin');
          const { uploadId } = await driver.multipart.init(path);
          const first = Buffer.alloc(5 * MiB, 1);
          const last = Buffer.from('the end');
          const parts = [];
          for (const [i, body] of [first, last].entries()) {
            const url = await driver.presignPart!(path, uploadId, i + 1, {
              expiresIn: 300,
              size: body.length,
            });
            const res = await put(url, body);
            assert.equal(res.status, 200, await res.text());
            assert.match(res.headers.get('access-control-expose-headers') ?? '', /etag/i);
            parts.push({ partNumber: i + 1, etag: res.headers.get('etag') ?? '' });
          }
          const done = await driver.multipart.complete(path, uploadId, parts);
          assert.equal(done.size, first.length + last.length);
          const content = await readAll((await driver.read(path, { range: { start: 5 * MiB - 2 } })).body);
          assert.deepEqual(content, Buffer.concat([Buffer.from([1, 1]), last]));
        },
      );
    });

    describe('names with spaces, Chinese characters and #?%', () => {
      for (const file of ODD_NAMES) {
        it(`handles "${file}" through every operation`, async () => {
          const dir = at(ODD_DIR);
          const path = `${dir}/${file}`;
          const text = `content of ${file}`;
          await write(path, text);
          const entry = await driver.stat(path);
          assert.equal(entry.name, file);
          assert.equal(entry.path, path);
          assert.ok((await names(driver, dir)).includes(file));
          assert.ok((await names(driver, at('dir with space'))).includes('目录 #?%'));
          assert.equal(await readText(driver, path), text);
          const slice = await driver.read(path, { range: { start: 11 } });
          assert.equal((await readAll(slice.body)).toString(), file);

          await driver.copy(path, `${dir}/copy ${file}`);
          assert.equal(await readText(driver, `${dir}/copy ${file}`), text);
          await driver.move(`${dir}/copy ${file}`, `${dir}/moved ${file}`);
          assert.equal(await readText(driver, `${dir}/moved ${file}`), text);
          await expectCode(driver.stat(`${dir}/copy ${file}`), 'NOT_FOUND');

          await driver.mkdir(`${dir}/dir ${file}`);
          assert.equal((await driver.stat(`${dir}/dir ${file}`)).isDirectory, true);

          const mp = `${dir}/mp ${file}`;
          const { uploadId } = await driver.multipart.init(mp);
          const { etag } = await driver.multipart.uploadPart(mp, uploadId, 1, streamOf(text), {
            size: Buffer.byteLength(text),
          });
          assert.equal((await driver.multipart.listParts(mp, uploadId)).length, 1);
          await driver.multipart.complete(mp, uploadId, [{ partNumber: 1, etag }]);
          assert.equal(await readText(driver, mp), text);

          const made = [file, `moved ${file}`, `mp ${file}`];
          if (declared.presignPut && declared.presignGet) {
            const putPath = `${dir}/put ${file}`;
            const putUrl = await driver.presignPut!(putPath, {
              expiresIn: 300,
              contentType: 'text/plain',
              size: 5,
            });
            assert.equal((await put(putUrl, 'typed', { 'Content-Type': 'text/plain' })).status, 200);
            const got = await fetch(await driver.presignGet!(putPath, { expiresIn: 300 }));
            assert.equal(got.status, 200);
            assert.equal(await got.text(), 'typed');
            made.push(`put ${file}`);
          }

          for (const name of made) {
            await driver.remove(`${dir}/${name}`);
            await expectCode(driver.stat(`${dir}/${name}`), 'NOT_FOUND');
          }
          await driver.remove(`${dir}/dir ${file}`);
          assert.deepEqual(
            (await names(driver, dir)).filter((n) => n.includes(file)),
            [],
          );
        });
      }

      it('keeps names in byte order next to plain ones', async () => {
        const dir = at('order');
        const all = ['Zeta', 'alpha', '中文', 'a b', 'a#b', 'a%b', 'a?b'];
        for (const name of all) await write(`${dir}/${name}`, name);
        assert.deepEqual(await names(driver, dir), [...all].sort(byteOrder));
      });
    });
  });
}
