/**
 * The SFTP requests the driver makes, as promises, and the two streams over an open remote file:
 * a download that keeps a few reads in flight ahead of its reader, and an upload sink that keeps a
 * few writes in flight. Both hold a bounded number of bytes, whatever the file's size. Errors are
 * ssh2's as they come (sftp-errors.ts maps them).
 */
import { Writable } from 'node:stream';
import type { SFTPWrapper, Stats } from 'ssh2';
import { StorageError } from '../../driver.ts';
import { isStatus, SFTP_STATUS } from './sftp-errors.ts';
import {
  READ_CHUNK,
  READDIRS_AHEAD,
  READS_AHEAD,
  TREE_CONCURRENCY,
  WRITE_CHUNK,
  WRITE_IN_FLIGHT,
} from './sftp-tuning.ts';

export type { Stats };

/** One directory entry with its attributes as the server's `lstat` gives them (links not followed). */
export interface RemoteEntry {
  name: string;
  stats: Stats;
}

/**
 * Sessions whose connection is gone. ssh2 fails the requests that were waiting when a connection
 * drops, but one sent afterwards would wait for ever: every request checks here first.
 */
const closedSessions = new WeakSet<SFTPWrapper>();

/** Marks a session's connection as gone (the pool calls this when it drops). */
export function markClosed(sftp: SFTPWrapper): void {
  closedSessions.add(sftp);
}

/** The error of a request on a connection that is gone (no SFTP status: unreachable). */
const connectionGone = () => new Error('the connection to the server is closed');

const call = <T>(
  sftp: SFTPWrapper,
  start: (done: (error: Error | undefined | null, value?: T) => void) => void,
): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    if (closedSessions.has(sftp)) throw connectionGone();
    start((error, value) => (error ? reject(error) : resolve(value as T)));
  });

export const lstat = (sftp: SFTPWrapper, path: string): Promise<Stats> =>
  call(sftp, (done) => sftp.lstat(path, done));

/** `lstat`, or null when nothing is there. */
export const lstatOrNull = (sftp: SFTPWrapper, path: string): Promise<Stats | null> =>
  lstat(sftp, path).catch((error: unknown) => {
    if (isStatus(error, SFTP_STATUS.NO_SUCH_FILE)) return null;
    throw error;
  });

export const realpath = (sftp: SFTPWrapper, path: string): Promise<string> =>
  call(sftp, (done) => sftp.realpath(path, done));

export const mkdir = (sftp: SFTPWrapper, path: string): Promise<void> =>
  call(sftp, (done) => sftp.mkdir(path, done));

export const rmdir = (sftp: SFTPWrapper, path: string): Promise<void> =>
  call(sftp, (done) => sftp.rmdir(path, done));

export const unlink = (sftp: SFTPWrapper, path: string): Promise<void> =>
  call(sftp, (done) => sftp.unlink(path, done));

export const openFile = (sftp: SFTPWrapper, path: string, flags: 'r' | 'wx'): Promise<Buffer> =>
  call(sftp, (done) => sftp.open(path, flags, done));

export const closeFile = (sftp: SFTPWrapper, handle: Buffer): Promise<void> =>
  call(sftp, (done) => sftp.close(handle, done));

export const fstat = (sftp: SFTPWrapper, handle: Buffer): Promise<Stats> =>
  call(sftp, (done) => sftp.fstat(handle, done));

export const futimes = (sftp: SFTPWrapper, handle: Buffer, atime: number, mtime: number): Promise<void> =>
  call(sftp, (done) => sftp.futimes(handle, atime, mtime, done));

/** Flushes a file to the server's disk (`fsync@openssh.com`); nothing where the server lacks it. */
export async function fsync(sftp: SFTPWrapper, handle: Buffer): Promise<void> {
  try {
    await call(sftp, (done) => sftp.ext_openssh_fsync(handle, done));
  } catch (error) {
    if (!isUnsupported(error)) throw error;
  }
}

/** ssh2 throws this when the server did not offer an extension. */
const isUnsupported = (error: unknown): boolean =>
  error instanceof Error && error.message === 'Server does not support this extended request';

/**
 * Renames `from` to `to`, replacing a file at `to` (`posix-rename@openssh.com`, an atomic rename(2)).
 * Without that extension, plain SFTP rename refuses an existing target: the target is removed first,
 * so for a moment neither name holds it.
 */
export async function renameOver(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
  try {
    await call(sftp, (done) => sftp.ext_openssh_rename(from, to, done));
    return;
  } catch (error) {
    if (!isUnsupported(error)) throw error;
  }
  const existing = await lstatOrNull(sftp, to);
  if (existing && !existing.isDirectory()) await unlink(sftp, to);
  await call(sftp, (done) => sftp.rename(from, to, done));
}

/** Opens a directory for reading (nothing is read yet). */
export const openDir = (sftp: SFTPWrapper, path: string): Promise<Buffer> =>
  call(sftp, (done) => sftp.opendir(path, done));

/**
 * Every entry of a directory (not "." or ".."), handed to `each` batch by batch as the server sends
 * them, so a caller can keep only what it needs. The handle is closed at the end, without waiting
 * for the answer (later requests on the session queue behind the close).
 */
export async function readDir(
  sftp: SFTPWrapper,
  path: string,
  each: (entries: RemoteEntry[]) => void,
): Promise<void> {
  const handle = await openDir(sftp, path);
  try {
    await readOpenDir(sftp, handle, each);
  } finally {
    closeFile(sftp, handle).catch(() => undefined);
  }
}

/**
 * Reads an open directory to its end with READDIRS_AHEAD requests in flight: each takes the next
 * batch the server has (in whatever order they are answered, every batch comes exactly once, and
 * once one answers EOF the rest do too). The handle stays open.
 */
export function readOpenDir(
  sftp: SFTPWrapper,
  handle: Buffer,
  each: (entries: RemoteEntry[]) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let inFlight = 0;
    let ended = false;
    let failed = false;
    let failure: unknown;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      failure = error;
    };
    const answered = (error: Error | undefined | null, list?: Array<{ filename: string; attrs: Stats }>) => {
      inFlight--;
      if (error) {
        if (isStatus(error, SFTP_STATUS.EOF)) ended = true;
        else fail(error);
      } else if (!failed && list) {
        try {
          each(list.map((e) => ({ name: e.filename, stats: e.attrs })));
        } catch (error) {
          fail(error);
        }
      }
      ask();
    };
    const ask = () => {
      while (!ended && !failed && inFlight < READDIRS_AHEAD) {
        try {
          if (closedSessions.has(sftp)) throw connectionGone();
          sftp.readdir(handle, answered as never);
          inFlight++;
        } catch (error) {
          fail(error);
        }
      }
      if (inFlight > 0) return;
      if (failed) reject(failure);
      else resolve();
    };
    ask();
  });
}

/**
 * A web stream over bytes `[start, end]` of an open file, READS_AHEAD reads of READ_CHUNK in flight
 * ahead of the reader (so at most that much is held). `done` runs once, when the stream ends, fails
 * or is cancelled, after the handle is closed.
 */
export function remoteFileStream(
  sftp: SFTPWrapper,
  handle: Buffer,
  start: number,
  end: number,
  mapError: (error: unknown) => unknown,
  done: () => void,
): ReadableStream<Uint8Array> {
  let next = start;
  const pending: Array<Promise<Uint8Array>> = [];
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    // Reads still in flight are answered (or fail) before the handle goes.
    await Promise.allSettled(pending);
    await closeFile(sftp, handle).catch(() => undefined);
    done();
  };
  const topUp = () => {
    while (pending.length < READS_AHEAD && next <= end) {
      const position = next;
      const want = Math.min(READ_CHUNK, end - position + 1);
      next += want;
      const read = new Promise<Uint8Array>((resolve, reject) => {
        try {
          if (closedSessions.has(sftp)) throw connectionGone();
          sftp.read(handle, Buffer.allocUnsafe(want), 0, want, position, (error, bytes, buffer) => {
            if (error) return reject(error);
            if (bytes !== want) {
              return reject(new StorageError('PRECONDITION_FAILED', 'file changed while being read'));
            }
            resolve(new Uint8Array(buffer.buffer, buffer.byteOffset, bytes));
          });
        } catch (error) {
          reject(error);
        }
      });
      read.catch(() => undefined); // handled when its turn comes
      pending.push(read);
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        topUp();
        const head = pending.shift();
        if (!head) {
          await finish();
          controller.close();
          return;
        }
        try {
          controller.enqueue(await head);
          topUp();
        } catch (error) {
          await finish();
          controller.error(mapError(error));
        }
      },
      async cancel() {
        await finish();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A sink writing to an open file at successive offsets, up to WRITE_IN_FLIGHT bytes unanswered at
 * once; it finishes when every write is answered. The handle stays open (the caller syncs, dates
 * and closes it).
 */
export class RemoteFileSink extends Writable {
  private position = 0;
  private inFlight = 0;
  private failure: Error | undefined;
  private waiting: (() => void) | undefined;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly handle: Buffer,
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  get bytes(): number {
    return this.position;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failure) return callback(this.failure);
    // One request per WRITE_CHUNK bytes, all sent at once: ssh2 would send the pieces of a larger
    // one after each other, each waiting for the answer to the last.
    for (let offset = 0; offset < chunk.length; offset += WRITE_CHUNK) {
      const length = Math.min(WRITE_CHUNK, chunk.length - offset);
      this.inFlight += length;
      try {
        if (closedSessions.has(this.sftp)) throw connectionGone();
        this.sftp.write(this.handle, chunk, offset, length, this.position, (error) => {
          this.inFlight -= length;
          if (error && !this.failure) this.failure = error;
          const wake = this.waiting;
          this.waiting = undefined;
          wake?.();
        });
      } catch (error) {
        this.inFlight -= length;
        return callback(error as Error);
      }
      this.position += length;
    }
    if (this.inFlight < WRITE_IN_FLIGHT) return callback();
    this.waitBelow(WRITE_IN_FLIGHT, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.waitBelow(1, callback);
  }

  /** Calls back once fewer than `limit` bytes are in flight, or with the first write's failure. */
  private waitBelow(limit: number, callback: (error?: Error | null) => void): void {
    const check = () => {
      if (this.failure) return callback(this.failure);
      if (this.inFlight < limit) return callback();
      this.waiting = check;
    };
    check();
  }
}

/** Runs `work` on every item, `limit` at a time (requests pipelined on one session). */
export async function eachLimit<T>(
  items: readonly T[],
  work: (item: T) => Promise<void>,
  limit = TREE_CONCURRENCY,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
