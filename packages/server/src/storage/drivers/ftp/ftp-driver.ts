/**
 * FTP / FTPS storage driver: a folder on an FTP server, reached with basic-ftp in passive mode,
 * with explicit TLS (AUTH TLS) when configured (docs/architecture.md, "Drivers").
 *
 * - Paths are confined to the configured root: user paths are normalised (`..` refused,
 *   storage/driver-path.ts) and joined below the root as the server names it. Links on the server
 *   are never listed, read, written or entered: entries are described by MLST/MLSD (or a LIST of
 *   their folder), which tell a link from a file, and a folder is entered with CWD and checked
 *   against where the server says it landed (ftp-session.ts).
 * - Listing is MLSD when the server offers MLST in FEAT, LIST parsing otherwise; a listing is one
 *   transfer of the whole folder, sorted here in byte order of UTF-8 names and cut into pages.
 * - Reads stream RETR, after REST for a range's start; a range's end cuts the transfer cleanly
 *   (ftp-transfer.ts). Writes stream STOR into a hidden temp file `.cubby.tmp-…` beside the target,
 *   then rename it over the target (RNFR/RNTO); a server that refuses to rename onto an existing
 *   file has the target removed first. A failed write removes its temp file.
 * - Copies stream the bytes through this process on two connections; moves are one rename.
 * - ETags are versions: the server's size, modification time and, where given (MLSD `unique`),
 *   the file's identity, so a rewrite of the same bytes is a new version.
 * - Multipart uploads keep their parts in the storage (storage/tree-multipart.ts).
 */
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { type Clock, systemClock } from '../../../lib/clock.ts';
import { processState } from '../../../lib/process-tag.ts';
import { ByteLimit, bodyLimit } from '../../byte-limit.ts';
import { isHiddenName, isTempName, refuseHidden, treeTempName, tempOwner } from '../../driver-names.ts';
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
  compareNames,
  driverPath,
  isAddressableName,
  isSameOrInside,
  joinPath,
  nameOf,
  parentOf,
  pathSegments,
} from '../../driver-path.ts';
import { type PartFiles, treeMultipart } from '../../tree-multipart.ts';
import { ftpCode, mapFtpError } from './ftp-errors.ts';
import { FtpPool } from './ftp-pool.ts';
import { type FtpConnectOptions, type RemoteEntry, FtpSession } from './ftp-session.ts';
import { FTP_TUNING } from './ftp-tuning.ts';

export interface FtpDriverConfig extends Omit<FtpConnectOptions, 'listing'> {
  /** `list` keeps to LIST even where MLSD is offered (tests of the fallback). Default `auto`. */
  listing?: FtpConnectOptions['listing'];
  /** Control connections at most (default FTP_TUNING.maxClients); copies need two. */
  maxClients?: number;
  clock?: Clock;
}

/**
 * No presigned URLs (the server speaks no HTTP); a copy streams through this process; a move is
 * the server's rename; ranges start with REST; ETags are versions; content types are not stored.
 */
export const FTP_CAPABILITIES: DriverCapabilities = {
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

/** The temp files this process is writing now, by server and path: a sweep never touches them. */
const liveTemps = new Set<string>();

const linkRefused = (path: string) =>
  new StorageError('FORBIDDEN', `${path} is a link, which is never followed`);

function toNodeReadable(body: ReadableStream<Uint8Array>): Readable {
  return Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
}

/** An entry of a driver path from the server's description. */
function toEntry(path: string, remote: RemoteEntry, name = nameOf(path)): Entry {
  const isDirectory = remote.kind === 'dir';
  const entry: Entry = {
    path,
    name,
    isDirectory,
    size: remote.size,
    modified: remote.modified,
  };
  if (!isDirectory) entry.etag = `"${remote.version}"`;
  return entry;
}

export class FtpDriver implements StorageDriver {
  readonly kind = 'ftp' as const;
  readonly capabilities = FTP_CAPABILITIES;
  readonly multipart: MultipartApi;
  private readonly pool: FtpPool;
  private readonly clock: Clock;
  private readonly serverKey: string;

  constructor(config: FtpDriverConfig) {
    const { listing = 'auto', maxClients = FTP_TUNING.maxClients, clock, ...server } = config;
    const options: FtpConnectOptions = { ...server, listing };
    this.pool = new FtpPool(() => FtpSession.open(options), maxClients);
    this.clock = clock ?? systemClock;
    this.serverKey = `${config.username}@${config.host}:${config.port}${config.root}`;
    this.multipart = treeMultipart({
      files: this.partFiles(),
      clock: this.clock,
      write: (path, body, options) => this.write(path, body, options),
      checkTarget: async (raw) => {
        const { path, segments } = this.resolve(raw);
        if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
        const found = await this.session((s) => this.locate(s, path)).catch((error: unknown) => {
          if (error instanceof StorageError && error.code === 'NOT_FOUND') return null;
          throw error;
        });
        if (found?.kind === 'dir') throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
        return path;
      },
    });
  }

  // ---- paths and connections -------------------------------------------------------------------

  /** Normalises a user path and refuses the driver's reserved names. */
  private resolve(raw: string): { path: string; segments: string[] } {
    const path = driverPath(raw);
    const segments = pathSegments(path);
    refuseHidden(path);
    return { path, segments };
  }

  /** Runs `use` on a connection of its own, mapping what fails to a StorageError for `op` on `path`. */
  private async session<T>(use: (s: FtpSession) => Promise<T>, op = 'ftp', path = '/'): Promise<T> {
    try {
      return await this.pool.use(1, use);
    } catch (error) {
      return mapFtpError(error, op, path);
    }
  }

  /**
   * What is at the driver path `path`, its folder entered and checked first: NOT_FOUND when nothing
   * is there (or its folder is missing), FORBIDDEN for a link.
   */
  private async locate(s: FtpSession, path: string): Promise<RemoteEntry> {
    if (path === '/') return { name: '', kind: 'dir', size: 0, modified: null, version: '' };
    try {
      await s.enter(s.remote(parentOf(path)));
    } catch (error) {
      if (ftpCode(error) !== undefined)
        throw new StorageError('NOT_FOUND', `${path} not found`, { cause: error });
      throw error;
    }
    const found = await s.facts(s.remote(path));
    if (!found) throw new StorageError('NOT_FOUND', `${path} not found`);
    if (found.kind === 'link') throw linkRefused(path);
    if (found.kind === 'other') throw new StorageError('FORBIDDEN', `${path} is not a regular file`);
    return found;
  }

  /** As `locate`, null when nothing is there. */
  private async probe(s: FtpSession, path: string): Promise<RemoteEntry | null> {
    try {
      return await this.locate(s, path);
    } catch (error) {
      if (error instanceof StorageError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  // ---- reading ---------------------------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const { path } = this.resolve(raw);
    return this.session(async (s) => toEntry(path, await this.locate(s, path)), 'stat', path);
  }

  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const { path } = this.resolve(raw);
    const limit = listLimit(options.limit);
    const after =
      options.cursor === undefined ? undefined : Buffer.from(options.cursor, 'base64url').toString();
    const all = await this.session(
      async (s) => {
        try {
          return await s.entries(s.remote(path));
        } catch (error) {
          if (ftpCode(error) === undefined) throw error;
          // CWD refused: say why (missing, a file, a link).
          const found = await this.locate(s, path);
          if (found.kind !== 'dir') throw new StorageError('NOT_A_DIRECTORY', `${path} is not a directory`);
          throw error;
        }
      },
      'list',
      path,
    );
    // Files and folders only: links (never followed) and anything else are not listed. Sorted by
    // their UTF-8 bytes (compareNames, storage/driver-path.ts).
    const visible = all
      .filter(
        (e) =>
          (e.kind === 'file' || e.kind === 'dir') &&
          !isHiddenName(e.name) &&
          isAddressableName(e.name) &&
          (after === undefined || compareNames(e.name, after) > 0),
      )
      .sort((a, b) => compareNames(a.name, b.name));
    const slice = visible.slice(0, limit);
    const page: ListPage = { entries: slice.map((e) => toEntry(joinPath(path, e.name), e, e.name)) };
    if (limit < visible.length) page.cursor = Buffer.from(slice.at(-1)!.name).toString('base64url');
    return page;
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const { path } = this.resolve(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const [s] = await this.pool.acquire(1).catch((error: unknown) => mapFtpError(error, 'read', path));
    let handedOver = false;
    try {
      const found = await this.locate(s!, path);
      if (found.kind === 'dir') throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      const range = options.range ? satisfyRange(options.range, found.size) : undefined;
      const start = range?.start ?? 0;
      const end = range?.end ?? found.size - 1;
      const result: ReadResult = {
        body: new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
        size: found.size,
        contentLength: end - start + 1,
        etag: `"${found.version}"`,
      };
      if (found.modified) result.lastModified = found.modified;
      if (range) result.range = range;
      if (result.contentLength > 0) {
        const retrieval = await s!.retrieve(s!.remote(path), start, end - start + 1, path);
        handedOver = true;
        void retrieval.done.then(() => this.pool.release(s!));
        result.body = retrieval.body;
      }
      return result;
    } catch (error) {
      return mapFtpError(error, 'read', path);
    } finally {
      if (!handedOver) this.pool.release(s!);
    }
  }

  // ---- writing ---------------------------------------------------------------------------------

  async write(
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const { path } = this.resolve(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const limit = bodyLimit(options.size);
    return this.session((s) => this.writeOn(s, path, toNodeReadable(body), limit), 'write', path);
  }

  /** Streams `source` through `limit` into a temp file beside `path`, then renames it into place. */
  private async writeOn(
    s: FtpSession,
    path: string,
    source: Readable,
    limit: ByteLimit,
  ): Promise<WriteResult> {
    try {
      await s.mkdirs(s.remote(parentOf(path)));
      const existing = await s.facts(s.remote(path));
      if (existing?.kind === 'dir') throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      if (existing?.kind === 'link') throw linkRefused(path);
    } catch (error) {
      source.destroy();
      throw error;
    }
    await this.withTemp(s, parentOf(path), async (temp) => {
      await this.storeLimited(s, temp, source, limit);
      await this.renameOver(s, temp, s.remote(path));
    });
    const written = await s.facts(s.remote(path));
    if (!written) throw new StorageError('UNAVAILABLE', `${path} vanished after writing`);
    return { etag: `"${written.version}"`, size: written.size };
  }

  /**
   * Renames `from` onto `to`. pure-ftpd replaces a file at `to` (rename(2), as the tests show); a
   * server that refuses has the file removed first and the rename tried once more (then, for a
   * moment, no file is at `to`).
   */
  private async renameOver(s: FtpSession, from: string, to: string): Promise<void> {
    try {
      await s.rename(from, to);
    } catch (error) {
      if (ftpCode(error) === undefined) throw error;
      const there = await s.facts(to);
      if (!there || there.kind !== 'file') throw error;
      await s.client.send(`DELE ${to}`);
      await s.rename(from, to);
    }
  }

  /**
   * Runs `use` with a new temp name in the folder `dir` (a driver path), known as a live write (never
   * swept) until it settles; when `use` fails the temp file goes (on a fresh connection when this one broke).
   */
  private async withTemp(s: FtpSession, dir: string, use: (temp: string) => Promise<void>): Promise<void> {
    const temp = s.remote(joinPath(dir, treeTempName()));
    const live = `${this.serverKey}\u0000${temp}`;
    liveTemps.add(live);
    try {
      await use(temp);
    } catch (error) {
      await this.removeQuietly(s, temp);
      throw error;
    } finally {
      liveTemps.delete(live);
    }
  }

  /**
   * Streams `source` through `limit` into the server file `full`; when that fails, the file goes and
   * the limit's own error (TOO_LARGE, PRECONDITION_FAILED) is the one thrown.
   */
  private async storeLimited(s: FtpSession, full: string, source: Readable, limit: ByteLimit): Promise<void> {
    try {
      await s.store(
        full,
        pipeline(source, limit, () => undefined),
      );
    } catch (error) {
      source.destroy();
      await this.removeQuietly(s, full);
      throw limit.failure ?? error;
    }
  }

  /** Removes a server file or folder, ignoring failure: on a fresh connection when `s` broke. */
  private async removeQuietly(s: FtpSession, full: string): Promise<void> {
    const remove = (c: FtpSession) => c.removeTree(full).catch(() => undefined);
    if (s.closed) await this.pool.use(1, remove).catch(() => undefined);
    else await remove(s);
  }

  async mkdir(raw: string): Promise<void> {
    const { path } = this.resolve(raw);
    if (path === '/') throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    await this.session(
      async (s) => {
        await s.mkdirs(s.remote(parentOf(path)));
        if (await s.facts(s.remote(path))) throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
        await s.client.send(`MKD ${s.remote(path)}`);
      },
      'mkdir',
      path,
    );
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { path } = this.resolve(raw);
    if (path === '/') throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    await this.session(
      async (s) => {
        const found = await this.locate(s, path);
        const full = s.remote(path);
        if (found.kind !== 'dir') await s.client.send(`DELE ${full}`);
        else if (options.recursive) await s.removeTree(full, found);
        else {
          if ((await s.entries(full)).length > 0) {
            throw new StorageError('PRECONDITION_FAILED', `${path} is not empty`);
          }
          await s.client.send(`RMD ${full}`);
        }
      },
      'remove',
      path,
    );
  }

  // ---- copy and move ---------------------------------------------------------------------------

  /** Both sides checked (the target's folder made): the source's entry, and whether the target exists. */
  private async prepareTransfer(
    s: FtpSession,
    rawFrom: string,
    rawTo: string,
  ): Promise<{ from: string; to: string; source: RemoteEntry; target: RemoteEntry | null }> {
    const from = this.resolve(rawFrom).path;
    const to = this.resolve(rawTo).path;
    if (from === '/' || to === '/' || isSameOrInside(from, to)) {
      throw new StorageError('INVALID_PATH', `cannot copy or move ${from} onto or into itself`);
    }
    const source = await this.locate(s, from);
    await s.mkdirs(s.remote(parentOf(to)));
    const target = await s.facts(s.remote(to));
    if (target?.kind === 'link') throw linkRefused(to);
    if (target && (source.kind === 'dir' || target.kind === 'dir')) {
      throw new StorageError('ALREADY_EXISTS', `${to} already exists`);
    }
    return { from, to, source, target };
  }

  async copy(rawFrom: string, rawTo: string): Promise<void> {
    try {
      // One connection reads while the other writes.
      await this.pool.use(2, async (reader, writer) => {
        const { from, to, source } = await this.prepareTransfer(writer!, rawFrom, rawTo);
        if (source.kind !== 'dir') {
          await this.withTemp(writer!, parentOf(to), async (temp) => {
            await this.copyFile(reader!, writer!, writer!.remote(from), temp, source.size);
            await this.renameOver(writer!, temp, writer!.remote(to));
          });
          return;
        }
        await this.withTemp(writer!, parentOf(to), async (temp) => {
          await this.copyTree(reader!, writer!, writer!.remote(from), temp);
          await writer!.rename(temp, writer!.remote(to));
        });
      });
    } catch (error) {
      mapFtpError(error, 'copy', rawFrom);
    }
  }

  /** Copies the server folder `from` as the new folder `to`, leaving out links and the driver's own files. */
  private async copyTree(reader: FtpSession, writer: FtpSession, from: string, to: string): Promise<void> {
    await writer.client.send(`MKD ${to}`);
    for (const entry of await reader.entries(from)) {
      if (isHiddenName(entry.name)) continue;
      const source = `${from}/${entry.name}`;
      if (entry.kind === 'dir') await this.copyTree(reader, writer, source, `${to}/${entry.name}`);
      else if (entry.kind === 'file')
        await this.copyFile(reader, writer, source, `${to}/${entry.name}`, entry.size);
    }
  }

  /** Streams the server file `from` (of `size` bytes) into the new server file `to`. */
  private async copyFile(
    reader: FtpSession,
    writer: FtpSession,
    from: string,
    to: string,
    size: number,
  ): Promise<void> {
    const { body, done } =
      size === 0
        ? { body: new ReadableStream<Uint8Array>({ start: (c) => c.close() }), done: Promise.resolve(true) }
        : await reader.retrieve(from, 0, size, from);
    const source = toNodeReadable(body);
    try {
      await writer.store(to, source);
    } catch (error) {
      source.destroy();
      throw error;
    } finally {
      await done;
    }
  }

  async move(rawFrom: string, rawTo: string): Promise<void> {
    await this.session(
      async (s) => {
        const { from, to } = await this.prepareTransfer(s, rawFrom, rawTo);
        await this.renameOver(s, s.remote(from), s.remote(to));
      },
      'move',
      rawFrom,
    );
  }

  // ---- temp files, multipart, lifecycle --------------------------------------------------------

  /**
   * Removes the temp files crashed writes left below the root: at once when their writer is a dead
   * process of this machine, otherwise once older than `maxAgeMs` by the server's clock. A temp file
   * this process is writing is never touched; links are never entered; at most
   * FTP_TUNING.sweepMaxEntries entries are looked at. Returns how many went.
   */
  async sweepTemp(maxAgeMs: number): Promise<number> {
    return this.session(async (s) => {
      let removed = 0;
      let seen = 0;
      const folders = [s.remote('/')];
      while (folders.length > 0 && seen < FTP_TUNING.sweepMaxEntries) {
        const folder = folders.pop()!;
        const entries = await s.entries(folder).catch(() => []);
        for (const entry of entries) {
          if (++seen > FTP_TUNING.sweepMaxEntries) break;
          const full = `${folder === '/' ? '' : folder}/${entry.name}`;
          if (!isTempName(entry.name)) {
            if (entry.kind === 'dir') folders.push(full);
            continue;
          }
          if (liveTemps.has(`${this.serverKey}\u0000${full}`)) continue;
          const owner = tempOwner(entry.name);
          if (processState(owner) !== 'dead') {
            if (!entry.modified || this.clock.now().getTime() - entry.modified.getTime() < maxAgeMs) continue;
          }
          await s.removeTree(full, entry).catch(() => undefined);
          removed++;
        }
      }
      return removed;
    }, 'sweep');
  }

  /** The raw file operations multipart uploads keep their parts with (below `/.cubby.multipart`). */
  private partFiles(): PartFiles {
    const internal = (path: string): string => driverPath(path);
    return {
      writeFile: (path, body, size) =>
        this.session(
          (s) =>
            this.storeLimited(s, s.remote(internal(path)), toNodeReadable(body), new ByteLimit(size, true)),
          'write part',
          path,
        ),
      readFile: async (path) => {
        const [s] = await this.pool
          .acquire(1)
          .catch((error: unknown) => mapFtpError(error, 'read part', path));
        try {
          const retrieval = await s!.retrieve(s!.remote(internal(path)), 0, null, path);
          void retrieval.done.then(() => this.pool.release(s!));
          return retrieval.body;
        } catch (error) {
          this.pool.release(s!);
          return mapFtpError(error, 'read part', path);
        }
      },
      listFiles: (dir) =>
        this.session(
          async (s) => {
            const entries = await s.entries(s.remote(internal(dir))).catch((error: unknown) => {
              if (ftpCode(error) !== undefined) throw new StorageError('NOT_FOUND', `${dir} not found`);
              throw error;
            });
            return entries
              .filter((e) => e.kind === 'file' || e.kind === 'dir')
              .map((e) => ({ name: e.name, size: e.size, isDirectory: e.kind === 'dir' }));
          },
          'list parts',
          dir,
        ),
      mkdirs: (path) => this.session((s) => s.mkdirs(s.remote(internal(path))), 'mkdir parts', path),
      removeTree: (path) => this.session((s) => s.removeTree(s.remote(internal(path))), 'remove parts', path),
    };
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}
