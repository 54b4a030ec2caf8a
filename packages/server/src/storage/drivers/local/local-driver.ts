/**
 * Local-disk storage driver: a root folder on this machine.
 *
 * - Paths are confined to the root and symbolic links are never followed (local-fs.ts): every name
 *   is looked up inside a folder already open from the root, so no link — not even one swapped in
 *   while a request runs — leads a read, a write or a delete anywhere a path could not. Links are
 *   not listed; a path that meets one is FORBIDDEN.
 * - Whole files are written to a hidden temp file beside the target and renamed into place, so a
 *   reader never sees a partial file and a failed upload leaves nothing behind. A crash does leave
 *   the temp file; its name carries the writer's process tag (lib/process-tag.ts), so `sweepTemp`
 *   removes a dead writer's at once and an unknown writer's by age, never a live write's.
 * - Multipart uploads keep their parts under `<root>/.cubby-multipart/<uploadId>/` and are
 *   concatenated by streaming on `complete`.
 * - Names starting with `.cubby-` are the driver's own: never listed, refused as user paths. Those
 *   starting with `.cubby.` (another Cubby's WebDAV driver keeping its files here through /dav) are
 *   taken by exact path, hidden by the vfs, and swept like its own temp files (storage/driver-names.ts).
 * - Presigned URLs point at this server (see local-signature.ts; the door is modules/storage-links/local-links.routes.ts).
 *
 * ETags are `"<inode>-<size>-<mtime ns>"` (hex): stable across reads, changed by every write, since
 * every write renames a new inode into place. Content types are not stored on disk.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { type Clock, systemClock } from '../../../lib/clock.ts';
import { processState } from '../../../lib/process-tag.ts';
import { ByteLimit, bodyLimit } from '../../byte-limit.ts';
import {
  RESERVED_PREFIX,
  tempName,
  tempOwner,
  refuseReserved,
  isReservedName,
  isHiddenName,
  isTempName,
} from '../../driver-names.ts';
import { satisfyRange } from '../../byte-range.ts';
import {
  type DriverCapabilities,
  type Entry,
  type ListOptions,
  type ListPage,
  listLimit,
  type MultipartApi,
  type MultipartPart,
  type MultipartPartInfo,
  type PendingUpload,
  type PresignGetOptions,
  type PresignPartOptions,
  type PresignPutOptions,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  StorageError,
  type StorageErrorCode,
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
  pathSegments,
} from '../../driver-path.ts';
import { checkCompleteParts, checkPartNumber, checkPartSize } from '../../multipart-rules.ts';
import { isErrno, mapFsError } from './local-errors.ts';
import { OpenDir, withDir } from './local-fs.ts';
import { buildLocalPresignUrl, type LocalSignedParams } from './local-signature.ts';
import { MAX_PRESIGN_SECONDS, READ_CHUNK } from './local-tuning.ts';

export interface LocalDriverConfig {
  /** The storage folder; created on first use. */
  root: string;
  /** The storage config's id; it names the driver in presigned URLs. */
  configId: string;
  /** This server's public origin (with any path prefix), for presigned URLs. */
  publicBaseUrl?: string;
  /** The server secret presigned URLs are signed with; the routes verify with the same one. */
  signingSecret?: string;
  clock?: Clock;
}

const MULTIPART_DIR = `${RESERVED_PREFIX}multipart`;

/** The temp files this process is writing now, by absolute path: a sweep never touches them. */
const liveTemps = new Set<string>();

function etagOf(stats: { ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `"${stats.ino.toString(16)}-${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}"`;
}

/** A pull-based stream over `[start, end]` of an open file: it reads only as fast as it is consumed. */
function fileRangeStream(handle: fs.FileHandle, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const want = Math.min(READ_CHUNK, end - position + 1);
          if (want <= 0) {
            await close();
            controller.close();
            return;
          }
          const buffer = Buffer.allocUnsafe(want);
          const { bytesRead } = await handle.read(buffer, 0, want, position);
          if (bytesRead === 0) {
            // The file shrank under us: end early rather than hang; the consumer sees a short body.
            await close();
            controller.error(new StorageError('PRECONDITION_FAILED', 'file changed while being read'));
            return;
          }
          position += bytesRead;
          controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead));
        } catch (error) {
          await close();
          controller.error(error);
        }
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
}

function toNodeReadable(body: ReadableStream<Uint8Array>): Readable {
  return Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
}

interface UploadMeta {
  path: string;
  contentType?: string;
  created: string;
}

/**
 * Presigned URLs come back to this server (modules/storage-links/local-links.routes.ts); a copy streams the bytes through this
 * process (file by open file, never following a link); a move is a rename; ETags are versions.
 */
export const LOCAL_CAPABILITIES: DriverCapabilities = {
  multipart: true,
  presignGet: true,
  presignPut: true,
  presignPart: true,
  directUrls: false,
  serverSideCopy: false,
  rename: true,
  rangeReads: true,
  etag: 'version',
  contentType: false,
};

export class LocalDriver implements StorageDriver {
  readonly kind = 'local' as const;
  readonly capabilities = LOCAL_CAPABILITIES;
  readonly configId: string;
  readonly multipart: MultipartApi;
  private readonly root: string;
  private readonly clock: Clock;

  constructor(private readonly config: LocalDriverConfig) {
    this.root = nodePath.resolve(config.root);
    this.configId = config.configId;
    this.clock = config.clock ?? systemClock;
    this.multipart = {
      init: (path, options) => this.multipartInit(path, options?.contentType),
      uploadPart: (path, uploadId, partNumber, body, options) =>
        this.multipartUploadPart(path, uploadId, partNumber, body, options.size),
      complete: (path, uploadId, parts) => this.multipartComplete(path, uploadId, parts),
      abort: (path, uploadId) => this.multipartAbort(path, uploadId),
      listParts: (path, uploadId) => this.multipartListParts(path, uploadId),
      listUploads: (limit) => this.multipartListUploads(limit),
    };
  }

  // ---- paths ---------------------------------------------------------------------------------

  /** The root, open (local-fs.ts); the folder is made on first use. UNAVAILABLE when it cannot be. */
  private async openRoot(): Promise<OpenDir> {
    try {
      return await OpenDir.root(this.root);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) {
        throw new StorageError('UNAVAILABLE', 'the storage folder cannot be opened', { cause: error });
      }
    }
    try {
      await fs.mkdir(this.root, { recursive: true });
      return await OpenDir.root(this.root);
    } catch (error) {
      throw new StorageError('UNAVAILABLE', 'the storage folder cannot be opened', { cause: error });
    }
  }

  /** Normalises a user path and refuses the driver's reserved names. */
  private resolve(raw: string): { path: string; segments: string[] } {
    const path = driverPath(raw);
    const segments = pathSegments(path);
    refuseReserved(path);
    return { path, segments };
  }

  /** Runs `use` in the folder `segments` name (opened from the root, made with `create`). */
  private async inDir<T>(
    segments: readonly string[],
    use: (dir: OpenDir) => Promise<T>,
    options: { create?: boolean } = {},
  ): Promise<T> {
    const root = await this.openRoot();
    try {
      return await withDir(root.walk(segments, options), use);
    } finally {
      await root.close();
    }
  }

  /** Runs `use` in the folder that holds a path (not the root), with the path's last name. */
  private inParent<T>(
    segments: readonly string[],
    use: (dir: OpenDir, name: string) => Promise<T>,
    options: { create?: boolean } = {},
  ): Promise<T> {
    const name = segments.at(-1)!;
    return this.inDir(segments.slice(0, -1), (dir) => use(dir, name), options);
  }

  private toEntry(path: string, stats: BigIntStats): Entry {
    const isDirectory = stats.isDirectory();
    const entry: Entry = {
      path,
      name: nameOf(path),
      isDirectory,
      size: isDirectory ? 0 : Number(stats.size),
      modified: new Date(Number(stats.mtimeMs)),
    };
    if (!isDirectory) entry.etag = etagOf(stats);
    return entry;
  }

  /** What is at `name` in `dir`: NOT_FOUND for nothing, FORBIDDEN for a link (never followed). */
  private async lstatAt(dir: OpenDir, name: string, path: string): Promise<BigIntStats> {
    const stats = await dir.lstat(name).catch((error: unknown) => mapFsError(error, 'stat', path));
    if (!stats) throw new StorageError('NOT_FOUND', `${path} not found`);
    if (stats.isSymbolicLink()) throw linkRefused(path);
    return stats;
  }

  // ---- files and directories -----------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const { path, segments } = this.resolve(raw);
    try {
      if (segments.length === 0)
        return await this.inDir([], async (root) => this.toEntry(path, await root.stat()));
      return await this.inParent(segments, async (dir, name) =>
        this.toEntry(path, await this.lstatAt(dir, name, path)),
      );
    } catch (error) {
      return mapFsError(error, 'stat', path);
    }
  }

  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const { path, segments } = this.resolve(raw);
    const limit = listLimit(options.limit);
    const after =
      options.cursor === undefined ? undefined : Buffer.from(options.cursor, 'base64url').toString();
    try {
      return await this.inDir(segments, async (dir) => {
        // Files and folders only: links (never followed) and devices, sockets and pipes are not listed.
        const names = (await dir.entries())
          .filter(
            (d) => (d.isFile() || d.isDirectory()) && !isReservedName(d.name) && isAddressableName(d.name),
          )
          .map((d) => d.name)
          .sort(compareNames);
        let from = 0;
        if (after !== undefined) {
          while (from < names.length && compareNames(names[from]!, after) <= 0) from++;
        }
        const entries: Entry[] = [];
        let index = from;
        while (index < names.length && entries.length < limit) {
          // Stat in small parallel batches: fast, without opening thousands of files at once.
          const batch = names.slice(index, index + Math.min(64, limit - entries.length));
          index += batch.length;
          const found = await Promise.all(
            batch.map(async (name) => {
              const stats = await dir.lstat(name);
              // Gone meanwhile, or swapped for a link: not listed.
              if (!stats || !(stats.isFile() || stats.isDirectory())) return null;
              return this.toEntry(joinPath(path, name), stats);
            }),
          );
          for (const entry of found) if (entry) entries.push(entry);
        }
        const page: ListPage = { entries };
        if (index < names.length) page.cursor = Buffer.from(names[index - 1]!).toString('base64url');
        return page;
      });
    } catch (error) {
      return mapFsError(error, 'list', path);
    }
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    let handle: fs.FileHandle;
    try {
      handle = await this.inParent(segments, (dir, name) => dir.openFile(name));
    } catch (error) {
      if (isErrno(error, 'ELOOP')) throw linkRefused(path);
      return mapFsError(error, 'read', path);
    }
    try {
      const stats = await handle.stat({ bigint: true });
      if (stats.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      if (!stats.isFile()) throw new StorageError('FORBIDDEN', `${path} is not a regular file`);
      const size = Number(stats.size);
      const range = options.range ? satisfyRange(options.range, size) : undefined;
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      const result: ReadResult = {
        body: fileRangeStream(handle, start, end),
        size,
        contentLength: end - start + 1,
        etag: etagOf(stats),
        lastModified: new Date(Number(stats.mtimeMs)),
      };
      if (range) result.range = range;
      return result;
    } catch (error) {
      await handle.close().catch(() => undefined);
      return mapFsError(error, 'read', path);
    }
  }

  async write(
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const limit = bodyLimit(options.size);
    try {
      return await this.replaceFile(segments, path, (dir, temp) =>
        this.writeTemp(dir.at(temp), toNodeReadable(body), limit, path),
      );
    } catch (error) {
      return mapFsError(error, 'write', path);
    }
  }

  /**
   * Writes a whole file: `fill` writes a temp file beside it (in its folder, made when missing),
   * which is then renamed into place, so a reader sees the old file or the new one, never a part.
   */
  private replaceFile(
    segments: readonly string[],
    path: string,
    fill: (dir: OpenDir, temp: string) => Promise<void>,
  ): Promise<WriteResult> {
    return this.inParent(
      segments,
      async (dir, name) => {
        const existing = await dir.lstat(name);
        if (existing?.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
        if (existing?.isSymbolicLink()) throw linkRefused(path);
        await this.withTemp(dir, async (temp) => {
          await fill(dir, temp);
          await this.renameTemp(dir, temp, name, path, 'IS_A_DIRECTORY');
        });
        const entry = this.toEntry(path, await this.lstatAt(dir, name, path));
        return { etag: entry.etag, size: entry.size };
      },
      { create: true },
    );
  }

  /** Renames a finished temp file or folder into place; removes it when that fails. */
  private async renameTemp(
    dir: OpenDir,
    temp: string,
    name: string,
    path: string,
    taken: StorageErrorCode,
  ): Promise<void> {
    try {
      await fs.rename(dir.at(temp), dir.at(name));
    } catch (error) {
      await dir.removeTree(temp).catch(() => undefined);
      if (isErrno(error, 'EISDIR', 'ENOTEMPTY', 'EEXIST')) {
        throw new StorageError(
          taken,
          taken === 'IS_A_DIRECTORY' ? `${path} is a directory` : `${path} already exists`,
          {
            cause: error,
          },
        );
      }
      mapFsError(error, 'write', path);
    }
  }

  /** Streams `source` through `limit` into a new temp file, synced to disk; removes it on any failure. */
  private async writeTemp(temp: string, source: Readable, limit: ByteLimit, path: string): Promise<void> {
    // `flush` syncs the file before it is closed, so the rename that follows never exposes an
    // empty file after a crash. `wx` (O_EXCL) never follows a link.
    const sink = createWriteStream(temp, { flags: 'wx', flush: true, highWaterMark: 1024 * 1024 });
    try {
      await pipeline(source, limit, sink);
    } catch (error) {
      source.destroy();
      // The pipeline can fail before the file is even open; it is created when the open completes,
      // so wait for the sink to close before removing it.
      if (!sink.closed) await once(sink, 'close').catch(() => undefined);
      await fs.rm(temp, { force: true });
      if (limit.failure) throw limit.failure;
      mapFsError(error, 'write', path);
    }
  }

  /** Runs `use` with a new temp name in `dir`, known as a live write (swept never) until `use` settles. */
  private async withTemp<T>(dir: OpenDir, use: (temp: string) => Promise<T>): Promise<T> {
    const temp = tempName();
    const live = this.liveKey(dir.childPath(temp));
    liveTemps.add(live);
    try {
      return await use(temp);
    } finally {
      liveTemps.delete(live);
    }
  }

  private liveKey(path: string): string {
    return `${this.root}\u0000${path}`;
  }

  /** The file system's room under the root (created if missing). */
  async space(): Promise<{ totalBytes: number; freeBytes: number }> {
    await fs.mkdir(this.root, { recursive: true });
    const stats = await fs.statfs(this.root);
    return { totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize };
  }

  /**
   * Removes the temp files a crash left anywhere below the root (writes are renamed into place
   * when complete, so a temp file outlives its write only when its writer died): at once when their
   * writer is a dead process of this machine, otherwise once untouched for `maxAgeMs`. A temp file
   * this process is writing is never touched. Returns how many went.
   */
  async sweepTemp(maxAgeMs: number): Promise<number> {
    let root: OpenDir;
    try {
      root = await OpenDir.root(this.root);
    } catch {
      return 0; // never created, or gone
    }
    try {
      return await this.sweepIn(root, maxAgeMs);
    } finally {
      await root.close();
    }
  }

  private async sweepIn(dir: OpenDir, maxAgeMs: number): Promise<number> {
    let removed = 0;
    const entries = await dir.entries().catch(() => []);
    for (const entry of entries) {
      if (!isTempName(entry.name)) {
        // Links are not followed: they may lead out of the root.
        if (!entry.isDirectory()) continue;
        const child = await dir.open(entry.name).catch(() => null);
        if (!child) continue;
        try {
          removed += await this.sweepIn(child, maxAgeMs);
        } finally {
          await child.close();
        }
        continue;
      }
      if (liveTemps.has(this.liveKey(dir.childPath(entry.name)))) continue;
      if (processState(tempOwner(entry.name)) !== 'dead') {
        const stats = await dir.lstat(entry.name).catch(() => null);
        if (!stats || Date.now() - Number(stats.mtimeMs) < maxAgeMs) continue;
      }
      await dir.removeTree(entry.name).catch(() => undefined);
      removed++;
    }
    return removed;
  }

  async mkdir(raw: string): Promise<void> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    try {
      await this.inParent(
        segments,
        async (dir, name) => {
          if (await dir.lstat(name)) throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
          await fs.mkdir(dir.at(name));
        },
        { create: true },
      );
    } catch (error) {
      if (isErrno(error, 'EEXIST')) throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
      mapFsError(error, 'mkdir', path);
    }
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    try {
      await this.inParent(segments, async (dir, name) => {
        const stats = await this.lstatAt(dir, name, path);
        if (!stats.isDirectory()) await fs.unlink(dir.at(name));
        else if (options.recursive) await dir.removeTree(name);
        else await fs.rmdir(dir.at(name));
      });
    } catch (error) {
      mapFsError(error, 'remove', path);
    }
  }

  /**
   * Copy and move: both sides checked and their folders open (the target's made), then `use`
   * with the source's folder and name, the target's, and whether the source is a folder.
   */
  private async transfer(
    rawFrom: string,
    rawTo: string,
    use: (from: At, to: At, isDirectory: boolean) => Promise<void>,
  ): Promise<void> {
    const from = this.resolve(rawFrom);
    const to = this.resolve(rawTo);
    if (from.segments.length === 0 || to.segments.length === 0 || isSameOrInside(from.path, to.path)) {
      throw new StorageError('INVALID_PATH', `cannot copy or move ${from.path} onto or into itself`);
    }
    try {
      await this.inParent(from.segments, async (fromDir, fromName) => {
        const source = await this.lstatAt(fromDir, fromName, from.path);
        await this.inParent(
          to.segments,
          async (toDir, toName) => {
            const target = await toDir.lstat(toName);
            if (target?.isSymbolicLink()) throw linkRefused(to.path);
            if (target && (source.isDirectory() || target.isDirectory())) {
              throw new StorageError('ALREADY_EXISTS', `${to.path} already exists`);
            }
            await use(
              { dir: fromDir, name: fromName, path: from.path },
              { dir: toDir, name: toName, path: to.path },
              source.isDirectory(),
            );
          },
          { create: true },
        );
      });
    } catch (error) {
      mapFsError(error, 'copy', from.path);
    }
  }

  async copy(rawFrom: string, rawTo: string): Promise<void> {
    await this.transfer(rawFrom, rawTo, (from, to, isDirectory) => this.copyInto(from, to, isDirectory));
  }

  /** Copies into a hidden temp name beside the target, then renames it into place. */
  private async copyInto(from: At, to: At, isDirectory: boolean): Promise<void> {
    await this.withTemp(to.dir, async (temp) => {
      try {
        if (isDirectory) await copyTree(from.dir, from.name, to.dir, temp);
        else await copyFileAt(from.dir, from.name, to.dir, temp);
      } catch (error) {
        await to.dir.removeTree(temp).catch(() => undefined);
        if (isErrno(error, 'ELOOP')) throw linkRefused(from.path);
        mapFsError(error, 'copy', from.path);
      }
      await this.renameTemp(to.dir, temp, to.name, to.path, 'ALREADY_EXISTS');
    });
  }

  async move(rawFrom: string, rawTo: string): Promise<void> {
    await this.transfer(rawFrom, rawTo, async (from, to, isDirectory) => {
      try {
        await fs.rename(from.dir.at(from.name), to.dir.at(to.name));
      } catch (error) {
        if (!isErrno(error, 'EXDEV')) {
          if (isErrno(error, 'ENOTEMPTY', 'EEXIST')) {
            throw new StorageError('ALREADY_EXISTS', `${to.path} already exists`, { cause: error });
          }
          mapFsError(error, 'move', from.path);
        }
        // The root spans file systems (a bind mount inside it): copy, then remove the source.
        await this.copyInto(from, to, isDirectory);
        await from.dir.removeTree(from.name);
      }
    });
  }

  // ---- multipart ------------------------------------------------------------------------------

  /**
   * Runs `use` in an upload's folder, after checking the id is ours and belongs to `path`
   * (NOT_FOUND otherwise), with `<root>/.cubby-multipart` open too (the folder goes from there).
   */
  private async inUpload<T>(
    raw: string,
    uploadId: string,
    use: (upload: { path: string; dir: OpenDir; uploads: OpenDir; meta: UploadMeta }) => Promise<T>,
  ): Promise<T> {
    const path = this.resolve(raw).path;
    if (typeof uploadId !== 'string' || !/^[0-9a-f]{32}$/.test(uploadId)) {
      throw new StorageError('NOT_FOUND', 'unknown upload');
    }
    const missing = (error: unknown) =>
      isErrno(error, 'ENOENT') || (error instanceof StorageError && error.code === 'NOT_FOUND');
    try {
      return await this.inDir([MULTIPART_DIR], (uploads) =>
        withDir(uploads.open(uploadId), async (dir) => {
          const meta = await readMeta(dir);
          if (meta.path !== path) throw new StorageError('NOT_FOUND', 'unknown upload');
          return use({ path, dir, uploads, meta });
        }),
      );
    } catch (error) {
      if (missing(error)) throw new StorageError('NOT_FOUND', 'unknown upload', { cause: error });
      return mapFsError(error, 'multipart', path);
    }
  }

  /** The unfinished uploads: the folders below `.cubby-multipart` with their `meta.json`. */
  private async multipartListUploads(limit: number): Promise<PendingUpload[]> {
    try {
      return await this.inDir([MULTIPART_DIR], async (uploads) => {
        const found: PendingUpload[] = [];
        for (const entry of await uploads.entries()) {
          if (found.length >= limit) break;
          if (!entry.isDirectory() || !/^[0-9a-f]{32}$/.test(entry.name)) continue;
          try {
            const meta = await withDir(uploads.open(entry.name), readMeta);
            found.push({ path: meta.path, uploadId: entry.name, initiated: new Date(meta.created) });
          } catch {
            // Completed or aborted meanwhile, or its init never finished writing.
          }
        }
        return found;
      });
    } catch (error) {
      if (error instanceof StorageError && error.code === 'NOT_FOUND') return [];
      return mapFsError(error, 'list uploads', '/');
    }
  }

  private async multipartInit(raw: string, contentType?: string): Promise<{ uploadId: string }> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    const target = await this.inParent(segments, (dir, name) => dir.lstat(name)).catch((error: unknown) =>
      error instanceof StorageError && error.code === 'NOT_FOUND'
        ? null
        : mapFsError(error, 'multipart init', path),
    );
    if (target?.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    const uploadId = randomBytes(16).toString('hex');
    const meta: UploadMeta = { path, created: this.clock.now().toISOString() };
    if (contentType !== undefined) meta.contentType = contentType;
    try {
      await this.inDir(
        [MULTIPART_DIR, uploadId],
        async (dir) => {
          const file = await dir.createFile('meta.json');
          try {
            await file.writeFile(JSON.stringify(meta));
          } finally {
            await file.close();
          }
        },
        { create: true },
      );
    } catch (error) {
      mapFsError(error, 'multipart init', path);
    }
    return { uploadId };
  }

  private async multipartUploadPart(
    raw: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    size: number,
  ): Promise<{ etag: string }> {
    checkPartNumber(partNumber);
    checkPartSize(size);
    return this.inUpload(raw, uploadId, ({ path, dir }) => {
      const hash = createHash('md5');
      return this.withTemp(dir, async (temp) => {
        await this.writeTemp(
          dir.at(temp),
          toNodeReadable(body),
          new ByteLimit(size, true, (chunk) => hash.update(chunk)),
          path,
        );
        const md5 = hash.digest('hex');
        const prefix = partPrefix(partNumber);
        try {
          await fs.rename(dir.at(temp), dir.at(prefix + md5));
          // A part uploaded again replaces the earlier one, as on S3.
          for (const entry of await dir.entries()) {
            if (entry.name.startsWith(prefix) && entry.name !== prefix + md5) {
              await fs.rm(dir.at(entry.name), { force: true });
            }
          }
        } catch (error) {
          await fs.rm(dir.at(temp), { force: true });
          if (isErrno(error, 'ENOENT'))
            throw new StorageError('NOT_FOUND', 'upload aborted', { cause: error });
          mapFsError(error, 'upload part', path);
        }
        return { etag: `"${md5}"` };
      });
    });
  }

  private async readParts(dir: OpenDir): Promise<Map<number, MultipartPartInfo & { file: string }>> {
    const parts = new Map<number, MultipartPartInfo & { file: string }>();
    const names = (await dir.entries()).filter((e) => e.isFile()).map((e) => e.name);
    for (const name of names.sort()) {
      const match = /^(\d{5})\.([0-9a-f]{32})$/.exec(name);
      if (!match) continue;
      const stats = await dir.lstat(name).catch(() => null);
      if (!stats?.isFile()) continue;
      parts.set(Number(match[1]), {
        partNumber: Number(match[1]),
        etag: `"${match[2]}"`,
        size: Number(stats.size),
        file: name,
      });
    }
    return parts;
  }

  private async multipartListParts(raw: string, uploadId: string): Promise<MultipartPartInfo[]> {
    return this.inUpload(raw, uploadId, async ({ dir }) => {
      const parts = await this.readParts(dir);
      return [...parts.values()]
        .sort((a, b) => a.partNumber - b.partNumber)
        .map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
    });
  }

  private async multipartComplete(
    raw: string,
    uploadId: string,
    parts: MultipartPart[],
  ): Promise<WriteResult> {
    const { segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    return this.inUpload(raw, uploadId, async ({ path, dir, uploads }) => {
      const files = checkCompleteParts(parts, await this.readParts(dir)).map((part) => part.file);
      const written = await this.replaceFile(segments, path, async (target, temp) => {
        let handle: fs.FileHandle | undefined;
        try {
          handle = await target.createFile(temp);
          for (const file of files) {
            const part = await dir.openFile(file);
            for await (const chunk of part.createReadStream({ highWaterMark: 1024 * 1024 })) {
              await handle.write(chunk as Buffer);
            }
          }
          await handle.sync();
          await handle.close();
          handle = undefined;
        } catch (error) {
          await handle?.close().catch(() => undefined);
          await fs.rm(target.at(temp), { force: true });
          if (isErrno(error, 'ENOENT'))
            throw new StorageError('NOT_FOUND', 'upload aborted', { cause: error });
          mapFsError(error, 'complete', path);
        }
      });
      await uploads.removeTree(uploadId);
      return written;
    });
  }

  private async multipartAbort(raw: string, uploadId: string): Promise<void> {
    await this.inUpload(raw, uploadId, ({ uploads }) => uploads.removeTree(uploadId));
  }

  // ---- presigned URLs -------------------------------------------------------------------------

  private presign(params: Omit<LocalSignedParams, 'configId' | 'exp'>, expiresIn: number): URL {
    const { publicBaseUrl, signingSecret } = this.config;
    if (!publicBaseUrl || !signingSecret) {
      throw new StorageError('UNAVAILABLE', 'presigned URLs need publicBaseUrl and signingSecret');
    }
    if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0 || expiresIn > MAX_PRESIGN_SECONDS) {
      throw new RangeError('expiresIn must be 1 to 604800 seconds');
    }
    const exp = Math.floor(this.clock.now().getTime() / 1000) + expiresIn;
    return buildLocalPresignUrl(publicBaseUrl, { ...params, configId: this.configId, exp }, signingSecret);
  }

  async presignGet(raw: string, options: PresignGetOptions): Promise<URL> {
    const { path } = this.resolve(raw);
    return this.presign(
      {
        op: 'get',
        key: path,
        disposition: options.disposition ?? 'attachment',
        filename: options.filename ?? nameOf(path),
        ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
      },
      options.expiresIn,
    );
  }

  async presignPut(raw: string, options: PresignPutOptions): Promise<URL> {
    const { path } = this.resolve(raw);
    if (!Number.isSafeInteger(options.size) || options.size < 0) {
      throw new RangeError('size must be a byte count');
    }
    return this.presign(
      { op: 'put', key: path, size: options.size, contentType: options.contentType },
      options.expiresIn,
    );
  }

  async presignPart(
    raw: string,
    uploadId: string,
    partNumber: number,
    options: PresignPartOptions,
  ): Promise<URL> {
    checkPartNumber(partNumber);
    const path = await this.inUpload(raw, uploadId, async ({ path }) => path);
    return this.presign(
      {
        op: 'part',
        key: path,
        uploadId,
        partNumber,
        ...(options.size === undefined ? {} : { size: options.size }),
      },
      options.expiresIn,
    );
  }
}

/** One side of a copy or move: the open folder that holds it, its name there, and its path. */
interface At {
  dir: OpenDir;
  name: string;
  path: string;
}

const linkRefused = (path: string) =>
  new StorageError('FORBIDDEN', `${path} is a link, which is never followed`);

async function readMeta(dir: OpenDir): Promise<UploadMeta> {
  const file = await dir.openFile('meta.json');
  try {
    return JSON.parse(await file.readFile('utf8')) as UploadMeta;
  } finally {
    await file.close();
  }
}

/** Copies the file `name` of `from` to a new file `target` of `to`, through handles (no link followed). */
async function copyFileAt(from: OpenDir, name: string, to: OpenDir, target: string): Promise<void> {
  const source = await from.openFile(name);
  const stats = await source.stat().catch(async (error: unknown) => {
    await source.close();
    throw error;
  });
  if (!stats.isFile()) {
    await source.close();
    throw new StorageError('FORBIDDEN', `${from.childPath(name)} is not a regular file`);
  }
  const sink = await to.createFile(target).catch(async (error: unknown) => {
    await source.close();
    throw error;
  });
  await pipeline(
    source.createReadStream({ highWaterMark: 1024 * 1024 }),
    sink.createWriteStream({ highWaterMark: 1024 * 1024 }),
  );
}

/**
 * Copies the folder `name` of `from` as the new folder `target` of `to`, folder by open folder:
 * the driver's own files and links are left out (a copied link could point anywhere).
 */
async function copyTree(from: OpenDir, name: string, to: OpenDir, target: string): Promise<void> {
  await fs.mkdir(to.at(target));
  await withDir(from.open(name), (source) =>
    withDir(to.open(target), async (copy) => {
      for (const entry of await source.entries()) {
        if (isHiddenName(entry.name)) continue;
        if (entry.isDirectory()) await copyTree(source, entry.name, copy, entry.name);
        else if (entry.isFile()) await copyFileAt(source, entry.name, copy, entry.name);
      }
    }),
  );
}

const partPrefix = (partNumber: number): string => String(partNumber).padStart(5, '0') + '.';

export function createLocalDriver(config: LocalDriverConfig): LocalDriver {
  return new LocalDriver(config);
}
