/**
 * SFTP storage driver: a folder on an SSH server (docs/architecture.md, "Drivers"), through ssh2.
 *
 * - Connections: a small pool of SFTP sessions (sftp-pool.ts), host key pinned or recorded.
 * - Confinement: every path lies below the root as the server resolved it, and no link is ever
 *   followed. Before each operation the driver asks the server to resolve the path (REALPATH) and
 *   looks at its last name (LSTAT): when the resolved path is not the path itself, a link sits
 *   somewhere along it, and the operation is refused (FORBIDDEN, reason 'permission', as local disk
 *   refuses links). Listings use the attributes of the entries themselves, so links are not listed.
 *   SFTP has no way to open "this name, relative to this open folder", so a link swapped in between
 *   the check and the operation is not caught; only the server's own confinement (a chroot) can.
 * - Writes stream into a hidden temp file `.cubby.tmp-<random>` beside the target, flushed to the
 *   server's disk (fsync@openssh.com), then renamed over the target (posix-rename@openssh.com, an
 *   atomic replace), so a reader sees the old file or the new one. A failed write removes its temp
 *   file; one cut off with its connection is hidden and removed by `sweepTemp`.
 * - ETags: SFTP version 3 gives sizes and modification times in whole seconds only, no inode. The
 *   ETag is `"<size hex>-<mtime ms hex>"`; so that a rewrite of the same size within the same second
 *   still gets a new one, a write that would repeat the replaced file's size and time dates its file
 *   one second after the replaced one.
 * - Multipart uploads keep their parts below `/.cubby.multipart` (storage/tree-multipart.ts).
 * - Copies stream the bytes through this process; moves are renames.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { type Clock, systemClock } from '../../../lib/clock.ts';
import { ByteLimit, bodyLimit } from '../../byte-limit.ts';
import { treeTempName, refuseHidden, isHiddenName, isTempName } from '../../driver-names.ts';
import { satisfyRange } from '../../byte-range.ts';
import {
  type DriverCapabilities,
  type Entry,
  type ListOptions,
  type ListPage,
  listLimit,
  type MultipartApi,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  StorageError,
  type WriteOptions,
  type WriteResult,
} from '../../driver.ts';
import {
  ancestorsAndSelf,
  compareNames,
  driverPath,
  isAddressableName,
  isSameOrInside,
  joinPath,
  nameOf,
  parentOf,
} from '../../driver-path.ts';
import { type PartFiles, treeMultipart } from '../../tree-multipart.ts';
import { isStatus, mapSftpError, SFTP_STATUS, toStorageError } from './sftp-errors.ts';
import {
  closeFile,
  eachLimit,
  fstat,
  fsync,
  futimes,
  lstat,
  lstatOrNull,
  mkdir,
  openDir,
  openFile,
  readDir,
  readOpenDir,
  realpath,
  RemoteFileSink,
  type RemoteEntry,
  remoteFileStream,
  renameOver,
  rmdir,
  type Stats,
  unlink,
} from './sftp-fs.ts';
import { type SftpConnection, SftpPool, type SftpSession } from './sftp-pool.ts';
import { COPY_CONCURRENCY, DEFAULT_SFTP_TUNING, SWEEP_MAX_ENTRIES, type SftpTuning } from './sftp-tuning.ts';

export interface SftpDriverConfig extends SftpConnection {
  clock?: Clock;
  tuning?: Partial<SftpTuning>;
}

/** No presigned URLs (nothing but this server speaks SFTP to the storage); copies pass through here. */
export const SFTP_CAPABILITIES: DriverCapabilities = {
  multipart: true,
  presignGet: false,
  presignPut: false,
  presignPart: false,
  directUrls: false,
  serverSideCopy: false,
  rename: true,
  rangeReads: true,
  etag: 'version',
  contentType: false,
};

const linkRefused = (path: string) =>
  new StorageError('FORBIDDEN', `${path} is or passes through a link, which is never followed`, {
    reason: 'permission',
  });

function etagOf(stats: Stats): string {
  return `"${stats.size.toString(16)}-${(stats.mtime * 1000).toString(16)}"`;
}

function toNodeReadable(body: ReadableStream<Uint8Array>): Readable {
  return Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
}

/** A caller's body as a Node stream, and the error the body itself failed with, if it did. */
function watchedBody(body: ReadableStream<Uint8Array>): { source: Readable; failure(): unknown } {
  let failure: unknown;
  const reader = body.getReader();
  const watched = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          failure = error;
          throw error;
        }
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return { source: toNodeReadable(watched), failure: () => failure };
}

/** A remote path below `root` for a normalised driver path (or part path) `path`. */
function remoteOf(session: SftpSession, path: string): string {
  if (path === '/') return session.root;
  return session.root === '/' ? path : session.root + path;
}

export class SftpDriver implements StorageDriver {
  readonly kind = 'sftp' as const;
  readonly capabilities = SFTP_CAPABILITIES;
  readonly multipart: MultipartApi;
  private readonly pool: SftpPool;

  constructor(config: SftpDriverConfig) {
    this.pool = new SftpPool(config, { ...DEFAULT_SFTP_TUNING, ...config.tuning });
    this.multipart = treeMultipart({
      files: this.partFiles(),
      clock: config.clock ?? systemClock,
      write: (path, body, options) => this.write(path, body, options),
      checkTarget: (path) => this.checkTarget(path),
    });
  }

  /** The server's host key as last seen (`SHA256:…`). */
  hostKey(): string | undefined {
    return this.pool.hostKey();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  // ---- paths ---------------------------------------------------------------------------------

  /** Normalises a user path and refuses the driver's reserved names. */
  private resolve(raw: string): string {
    const path = driverPath(raw);
    refuseHidden(path);
    return path;
  }

  /** Runs `work` on a pooled session, its failures as StorageErrors naming `op` and `path`. */
  private async run<T>(op: string, path: string, work: (session: SftpSession) => Promise<T>): Promise<T> {
    try {
      return await this.pool.use(work);
    } catch (error) {
      return mapSftpError(error, op, path);
    }
  }

  /**
   * What is at `path` (null for nothing), refusing it when it or a folder on the way is a link:
   * the server resolves the path and the result must be the path itself.
   */
  private async inspect(session: SftpSession, path: string): Promise<Stats | null> {
    const remote = remoteOf(session, path);
    if (path === '/') return lstat(session.sftp, remote);
    const [real, stats] = await Promise.allSettled([
      realpath(session.sftp, remote),
      lstat(session.sftp, remote),
    ]);
    if (stats.status === 'fulfilled' && stats.value.isSymbolicLink()) throw linkRefused(path);
    if (real.status === 'fulfilled' && real.value !== remote) throw linkRefused(path);
    if (real.status === 'rejected' && !isStatus(real.reason, SFTP_STATUS.NO_SUCH_FILE)) throw real.reason;
    if (stats.status === 'fulfilled') return stats.value;
    if (isStatus(stats.reason, SFTP_STATUS.NO_SUCH_FILE)) return null;
    throw stats.reason;
  }

  /** Creates `path` and the folders above it where missing; a link on the way is refused. */
  private async ensureDir(session: SftpSession, path: string): Promise<void> {
    if (path === '/') return;
    const found = await this.inspect(session, path);
    if (found) {
      if (!found.isDirectory()) throw new StorageError('NOT_A_DIRECTORY', `${path} is not a directory`);
      return;
    }
    for (const dir of ancestorsAndSelf(path).slice(1)) {
      const remote = remoteOf(session, dir);
      let stats = await lstatOrNull(session.sftp, remote);
      if (!stats) {
        try {
          await mkdir(session.sftp, remote);
          continue;
        } catch (error) {
          // Made meanwhile by another write (OpenSSH answers FAILURE for an existing name).
          stats = await lstatOrNull(session.sftp, remote);
          if (!stats) throw error;
        }
      }
      if (stats.isSymbolicLink()) throw linkRefused(dir);
      if (!stats.isDirectory()) throw new StorageError('NOT_A_DIRECTORY', `${dir} is not a directory`);
    }
  }

  private toEntry(path: string, stats: Stats, name = nameOf(path)): Entry {
    const isDirectory = stats.isDirectory();
    const entry: Entry = {
      path,
      name,
      isDirectory,
      size: isDirectory ? 0 : stats.size,
      modified: new Date(stats.mtime * 1000),
    };
    if (!isDirectory) entry.etag = etagOf(stats);
    return entry;
  }

  // ---- files and directories -----------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const path = this.resolve(raw);
    return this.run('stat', path, async (session) => {
      const stats = await this.inspect(session, path);
      if (!stats) throw new StorageError('NOT_FOUND', `${path} not found`);
      return this.toEntry(path, stats);
    });
  }

  /**
   * One page of a folder. SFTP lists in the server's order, so every page reads the whole folder,
   * keeping only the `limit` smallest names past the cursor (sorted now and then): the time grows
   * with the folder, the memory only with the page.
   */
  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const path = this.resolve(raw);
    const limit = listLimit(options.limit);
    const after =
      options.cursor === undefined ? undefined : Buffer.from(options.cursor, 'base64url').toString();
    return this.run('list', path, async (session) => {
      const byName = (a: Entry, b: Entry) => compareNames(a.name, b.name);
      let kept: Entry[] = [];
      // The folder is opened in the same round trip as the check (its request goes after the
      // check's, and the server answers them in turn), but read only once the check has passed:
      // a folder behind a link is never read.
      const [checked, opened] = await Promise.allSettled([
        this.inspect(session, path),
        openDir(session.sftp, remoteOf(session, path)),
      ]);
      const handle = opened.status === 'fulfilled' ? opened.value : undefined;
      try {
        if (checked.status === 'rejected') throw checked.reason;
        const stats = checked.value;
        if (!stats) throw new StorageError('NOT_FOUND', `${path} not found`);
        if (!stats.isDirectory()) throw new StorageError('NOT_A_DIRECTORY', `${path} is not a directory`);
        if (!handle) throw (opened as PromiseRejectedResult).reason;
        await readOpenDir(session.sftp, handle, (batch) => {
          for (const { name, stats } of batch) {
            // Files and folders only: links (never followed), devices, sockets and pipes are not listed.
            if (!(stats.isFile() || stats.isDirectory())) continue;
            if (isHiddenName(name) || !isAddressableName(name)) continue;
            if (after !== undefined && compareNames(name, after) <= 0) continue;
            // Made now, while the next batches are on their way.
            kept.push(this.toEntry(joinPath(path, name), stats, name));
          }
          if (kept.length > 4 * limit) kept = kept.sort(byName).slice(0, limit + 1);
        });
      } finally {
        if (handle) closeFile(session.sftp, handle).catch(() => undefined);
      }
      kept.sort(byName);
      const page: ListPage = { entries: kept.slice(0, limit) };
      if (kept.length > limit) page.cursor = Buffer.from(kept[limit - 1]!.name).toString('base64url');
      return page;
    });
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const path = this.resolve(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    // The session stays held until the body ends or is cancelled.
    const lease = await this.pool.acquire();
    const { sftp } = lease.session;
    let handle: Buffer | undefined;
    try {
      const found = await this.inspect(lease.session, path);
      if (!found) throw new StorageError('NOT_FOUND', `${path} not found`);
      if (found.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      if (!found.isFile()) throw new StorageError('FORBIDDEN', `${path} is not a regular file`);
      handle = await openFile(sftp, remoteOf(lease.session, path), 'r');
      // The open file's own size and time: the path may have been replaced since it was looked at.
      const stats = await fstat(sftp, handle);
      if (!stats.isFile()) throw new StorageError('FORBIDDEN', `${path} is not a regular file`);
      const range = options.range ? satisfyRange(options.range, stats.size) : undefined;
      const start = range?.start ?? 0;
      const end = range?.end ?? stats.size - 1;
      const result: ReadResult = {
        body: remoteFileStream(
          sftp,
          handle,
          start,
          end,
          (error) => toStorageError(error, 'read', path),
          lease.release,
        ),
        size: stats.size,
        contentLength: end - start + 1,
        etag: etagOf(stats),
        lastModified: new Date(stats.mtime * 1000),
      };
      if (range) result.range = range;
      return result;
    } catch (error) {
      if (handle) await closeFile(sftp, handle).catch(() => undefined);
      lease.release();
      return mapSftpError(error, 'read', path);
    }
  }

  async write(
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const path = this.resolve(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const limit = bodyLimit(options.size);
    return this.writeBody('write', path, body, limit);
  }

  /**
   * Streams a caller's body into `path`, its folder made first. When the body itself fails (its
   * sender went away), that failure is thrown as it is: the server did nothing wrong.
   */
  private async writeBody(
    op: string,
    path: string,
    body: ReadableStream<Uint8Array>,
    limit: ByteLimit,
  ): Promise<WriteResult> {
    const watched = watchedBody(body);
    try {
      return await this.run(op, path, async (session) => {
        await this.ensureDir(session, parentOf(path));
        return this.writeFile(session, path, watched.source, limit);
      });
    } catch (error) {
      throw watched.failure() ?? error;
    } finally {
      // Not read to its end when the write failed before or during it.
      watched.source.destroy();
    }
  }

  /**
   * Streams `source` through `limit` into a temp file beside `path` (its folder exists), then
   * renames it over `path`. The temp file goes when anything fails.
   */
  private async writeFile(
    session: SftpSession,
    path: string,
    source: Readable,
    limit: ByteLimit,
  ): Promise<WriteResult> {
    const { sftp } = session;
    const existing = await this.inspect(session, path);
    if (existing?.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    const temp = remoteOf(session, joinPath(parentOf(path), treeTempName()));
    const handle = await openFile(sftp, temp, 'wx');
    let stats: Stats;
    try {
      await pipeline(source, limit, new RemoteFileSink(sftp, handle));
      await fsync(sftp, handle);
      stats = await fstat(sftp, handle);
      if (existing && existing.size === stats.size && stats.mtime <= existing.mtime) {
        // The same size within the same second: date it after the file it replaces (a new ETag).
        stats.mtime = existing.mtime + 1;
        await futimes(sftp, handle, stats.atime, stats.mtime);
      }
      await closeFile(sftp, handle);
    } catch (error) {
      await closeFile(sftp, handle).catch(() => undefined);
      await unlink(sftp, temp).catch(() => undefined);
      throw limit.failure ?? error;
    }
    try {
      await renameOver(sftp, temp, remoteOf(session, path));
    } catch (error) {
      await unlink(sftp, temp).catch(() => undefined);
      throw error;
    }
    return { etag: etagOf(stats), size: stats.size };
  }

  /** Removes what crashed writes left: temp files and folders untouched for `maxAgeMs`. */
  async sweepTemp(maxAgeMs: number): Promise<number> {
    let removed = 0;
    let budget = SWEEP_MAX_ENTRIES;
    const cutoff = (Date.now() - maxAgeMs) / 1000;
    await this.run('sweep', '/', async (session) => {
      const walk = async (remote: string): Promise<void> => {
        const entries: RemoteEntry[] = [];
        await readDir(session.sftp, remote, (batch) => {
          const taken = batch.slice(0, Math.max(budget, 0));
          entries.push(...taken);
          budget -= taken.length;
        });
        for (const { name, stats } of entries) {
          const child = remote === '/' ? `/${name}` : `${remote}/${name}`;
          if (isTempName(name)) {
            if (stats.mtime > cutoff) continue;
            await removeRemote(session, child, stats).catch(() => undefined);
            removed++;
          } else if (stats.isDirectory() && budget > 0) {
            await walk(child).catch(() => undefined); // gone meanwhile
          }
        }
      };
      await walk(session.root);
    });
    return removed;
  }

  async mkdir(raw: string): Promise<void> {
    const path = this.resolve(raw);
    if (path === '/') throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    await this.run('mkdir', path, async (session) => {
      await this.ensureDir(session, parentOf(path));
      if (await this.inspect(session, path)) {
        throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
      }
      try {
        await mkdir(session.sftp, remoteOf(session, path));
      } catch (error) {
        if (await lstatOrNull(session.sftp, remoteOf(session, path))) {
          throw new StorageError('ALREADY_EXISTS', `${path} already exists`, { cause: error });
        }
        throw error;
      }
    });
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const path = this.resolve(raw);
    if (path === '/') throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    await this.run('remove', path, async (session) => {
      const stats = await this.inspect(session, path);
      if (!stats) throw new StorageError('NOT_FOUND', `${path} not found`);
      const remote = remoteOf(session, path);
      if (!stats.isDirectory() || options.recursive) return removeRemote(session, remote, stats);
      try {
        await rmdir(session.sftp, remote);
      } catch (error) {
        if (isStatus(error, SFTP_STATUS.FAILURE)) {
          throw new StorageError('PRECONDITION_FAILED', `${path} is not empty`, { cause: error });
        }
        throw error;
      }
    });
  }

  /**
   * Copy and move: both sides checked (no link on either), the target's folder made, then `use`
   * with the source's attributes and the target's (null when free).
   */
  private async transfer(
    op: string,
    rawFrom: string,
    rawTo: string,
    use: (session: SftpSession, from: string, to: string, source: Stats) => Promise<void>,
  ): Promise<void> {
    const from = this.resolve(rawFrom);
    const to = this.resolve(rawTo);
    if (from === '/' || to === '/' || isSameOrInside(from, to)) {
      throw new StorageError('INVALID_PATH', `cannot ${op} ${from} onto or into itself`);
    }
    await this.run(op, from, async (session) => {
      const source = await this.inspect(session, from);
      if (!source) throw new StorageError('NOT_FOUND', `${from} not found`);
      if (!source.isFile() && !source.isDirectory()) {
        throw new StorageError('FORBIDDEN', `${from} is not a regular file`);
      }
      await this.ensureDir(session, parentOf(to));
      const target = await this.inspect(session, to);
      if (target && (source.isDirectory() || target.isDirectory())) {
        throw new StorageError('ALREADY_EXISTS', `${to} already exists`);
      }
      await use(session, from, to, source);
    });
  }

  async copy(rawFrom: string, rawTo: string): Promise<void> {
    await this.transfer('copy', rawFrom, rawTo, (session, from, to, source) =>
      this.copyInto(session, from, to, source),
    );
  }

  /** Streams a file into place as a write does, or a folder into a temp folder renamed into place. */
  private async copyInto(session: SftpSession, from: string, to: string, source: Stats): Promise<void> {
    const fromRemote = remoteOf(session, from);
    if (!source.isDirectory()) {
      const handle = await openFile(session.sftp, fromRemote, 'r');
      const body = toNodeReadable(
        remoteFileStream(
          session.sftp,
          handle,
          0,
          source.size - 1,
          (error) => toStorageError(error, 'copy', from),
          () => undefined,
        ),
      );
      try {
        await this.writeFile(session, to, body, new ByteLimit(source.size, true));
      } finally {
        body.destroy();
      }
      return;
    }
    const temp = remoteOf(session, joinPath(parentOf(to), treeTempName()));
    try {
      await copyTree(session, fromRemote, temp);
      await renameOver(session.sftp, temp, remoteOf(session, to));
    } catch (error) {
      await removeRemote(session, temp).catch(() => undefined);
      throw error;
    }
  }

  async move(rawFrom: string, rawTo: string): Promise<void> {
    await this.transfer('move', rawFrom, rawTo, async (session, from, to, source) => {
      try {
        await renameOver(session.sftp, remoteOf(session, from), remoteOf(session, to));
      } catch (error) {
        // OpenSSH answers FAILURE for a rename across file systems: copy, then remove the source.
        if (!isStatus(error, SFTP_STATUS.FAILURE)) throw error;
        await this.copyInto(session, from, to, source);
        await removeRemote(session, remoteOf(session, from), source);
      }
    });
  }

  // ---- multipart ------------------------------------------------------------------------------

  /** A user path as multipart targets it: checked, normalised, not a folder. */
  private async checkTarget(raw: string): Promise<string> {
    const path = this.resolve(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    await this.run('multipart', path, async (session) => {
      if ((await this.inspect(session, path))?.isDirectory()) {
        throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      }
    });
    return path;
  }

  /** The raw file operations of multipart uploads, below `/.cubby.multipart` (no user-path rules). */
  private partFiles(): PartFiles {
    return {
      writeFile: async (path, body, size) => {
        await this.writeBody('write part', path, body, new ByteLimit(size, true));
      },
      readFile: async (path) => {
        const lease = await this.pool.acquire();
        const { sftp } = lease.session;
        try {
          const handle = await openFile(sftp, remoteOf(lease.session, path), 'r');
          const stats = await fstat(sftp, handle).catch(async (error: unknown) => {
            await closeFile(sftp, handle).catch(() => undefined);
            throw error;
          });
          const mapError = (error: unknown) => toStorageError(error, 'read part', path);
          return remoteFileStream(sftp, handle, 0, stats.size - 1, mapError, lease.release);
        } catch (error) {
          lease.release();
          return mapSftpError(error, 'read part', path);
        }
      },
      listFiles: (path) =>
        this.run('list parts', path, async (session) => {
          const found: Array<{ name: string; size: number; isDirectory: boolean }> = [];
          await readDir(session.sftp, remoteOf(session, path), (batch) => {
            for (const { name, stats } of batch) {
              if (stats.isFile() || stats.isDirectory()) {
                found.push({ name, size: stats.size, isDirectory: stats.isDirectory() });
              }
            }
          });
          return found;
        }),
      mkdirs: (path) => this.run('mkdir', path, (session) => this.ensureDir(session, path)),
      removeTree: (path) =>
        this.run('remove', path, async (session) => {
          const stats = await lstatOrNull(session.sftp, remoteOf(session, path));
          if (stats) await removeRemote(session, remoteOf(session, path), stats);
        }),
    };
  }
}

/** Removes a remote file, link or folder with everything in it (links are removed, never followed). */
async function removeRemote(session: SftpSession, remote: string, stats?: Stats): Promise<void> {
  const { sftp } = session;
  const found = stats ?? (await lstatOrNull(sftp, remote));
  if (!found) return;
  if (!found.isDirectory()) return unlink(sftp, remote);
  const entries: RemoteEntry[] = [];
  await readDir(sftp, remote, (batch) => entries.push(...batch));
  await eachLimit(entries, (entry) => removeRemote(session, `${remote}/${entry.name}`, entry.stats));
  await rmdir(sftp, remote);
}

/**
 * Copies the folder `from` as the new folder `to`, entry by entry: the driver's own files and links
 * are left out (a copied link could point anywhere).
 */
async function copyTree(session: SftpSession, from: string, to: string): Promise<void> {
  const { sftp } = session;
  await mkdir(sftp, to);
  const entries: RemoteEntry[] = [];
  await readDir(sftp, from, (batch) => entries.push(...batch));
  await eachLimit(
    entries,
    async ({ name, stats }) => {
      if (isHiddenName(name)) return;
      if (stats.isDirectory()) return copyTree(session, `${from}/${name}`, `${to}/${name}`);
      if (!stats.isFile()) return;
      const source = await openFile(sftp, `${from}/${name}`, 'r');
      let target: Buffer;
      try {
        target = await openFile(sftp, `${to}/${name}`, 'wx');
      } catch (error) {
        await closeFile(sftp, source).catch(() => undefined);
        throw error;
      }
      try {
        const body = remoteFileStream(
          sftp,
          source,
          0,
          stats.size - 1,
          (error) => error,
          () => undefined,
        );
        await pipeline(toNodeReadable(body), new RemoteFileSink(sftp, target));
      } finally {
        await closeFile(sftp, target).catch(() => undefined);
      }
    },
    COPY_CONCURRENCY,
  );
}

export function createSftpDriver(config: SftpDriverConfig): SftpDriver {
  return new SftpDriver(config);
}
