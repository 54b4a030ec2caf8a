/**
 * Local-disk storage driver: a root folder on this machine.
 *
 * - Paths are confined to the root: normalised first, then the real path of the deepest existing
 *   ancestor must lie inside the real root, so a symlink cannot lead out of it.
 * - Whole files are written to a hidden temp file beside the target and renamed into place, so a
 *   reader never sees a partial file and a failed upload leaves nothing behind. A crash does leave
 *   the temp file; its name carries the writer's process tag (lib/process-tag.ts), so `sweepTemp`
 *   removes a dead writer's at once and an unknown writer's by age, never a live write's.
 * - Multipart uploads keep their parts under `<root>/.cubby-multipart/<uploadId>/` and are
 *   concatenated by streaming on `complete`.
 * - Names starting with `.cubby-` are the driver's own: never listed, refused as user paths.
 * - Presigned URLs point at this server (see local-signature.ts and local-routes.ts).
 *
 * ETags are `"<inode>-<size>-<mtime ns>"` (hex): stable across reads, changed by every write, since
 * every write renames a new inode into place. Content types are not stored on disk.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { formatTag, parseTag, type ProcessTag, processState, THIS_PROCESS } from '../../lib/process-tag.ts';
import { ByteLimit } from '../byte-limit.ts';
import { satisfyRange } from '../byte-range.ts';
import {
  type Entry,
  type ListOptions,
  type ListPage,
  listLimit,
  MULTIPART_LIMITS,
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
} from '../driver.ts';
import {
  compareNames,
  driverPath,
  isAddressableName,
  isSameOrInside,
  joinPath,
  nameOf,
  pathSegments,
} from '../driver-path.ts';
import { buildLocalPresignUrl, type LocalSignedParams } from './local-signature.ts';

export {
  LOCAL_PRESIGN_MOUNT,
  type LocalSignedParams,
  type SignatureCheck,
  verifyLocalSignature,
} from './local-signature.ts';
export { localPresignRoutes } from './local-routes.ts';

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

const RESERVED_PREFIX = '.cubby-';
const MULTIPART_DIR = '.cubby-multipart';
const TEMP_PREFIX = '.cubby-tmp-';
const READ_CHUNK = 256 * 1024;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

const ERRNO_CODES: Record<string, StorageErrorCode> = {
  ENOENT: 'NOT_FOUND',
  EEXIST: 'ALREADY_EXISTS',
  ENOTEMPTY: 'PRECONDITION_FAILED',
  ENOTDIR: 'NOT_A_DIRECTORY',
  EISDIR: 'IS_A_DIRECTORY',
  ENAMETOOLONG: 'INVALID_PATH',
  EINVAL: 'INVALID_PATH',
  EACCES: 'FORBIDDEN',
  EPERM: 'FORBIDDEN',
  EROFS: 'FORBIDDEN',
  ENOSPC: 'TOO_LARGE',
  EDQUOT: 'TOO_LARGE',
  EFBIG: 'TOO_LARGE',
  EIO: 'UNAVAILABLE',
  ELOOP: 'FORBIDDEN',
};

/** Turns a file-system error into a StorageError; anything unexpected is rethrown as it is (a bug). */
function mapFsError(error: unknown, op: string, path: string): never {
  if (error instanceof StorageError) throw error;
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  const code = errno ? ERRNO_CODES[errno] : undefined;
  if (code) throw new StorageError(code, `${op} ${path}: ${errno}`, { cause: error });
  throw error;
}

const isErrno = (error: unknown, ...codes: string[]): boolean =>
  codes.includes((error as NodeJS.ErrnoException | null)?.code ?? '');

/** Temp files carry their writer's tag, so a sweep knows a dead process's leftovers at once. */
const tempName = (): string => `${TEMP_PREFIX}${formatTag(THIS_PROCESS)}-${randomBytes(8).toString('hex')}`;
const tempOwner = (name: string): ProcessTag | null =>
  parseTag(name.slice(TEMP_PREFIX.length, name.lastIndexOf('-')));

/** The temp files this process is writing now, by absolute path: a sweep never touches them. */
const liveTemps = new Set<string>();

function etagOf(stats: { ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `"${stats.ino.toString(16)}-${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}"`;
}

const stripQuotes = (etag: string): string =>
  etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();

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

export class LocalDriver implements StorageDriver {
  readonly kind = 'local' as const;
  readonly configId: string;
  readonly multipart: MultipartApi;
  private readonly root: string;
  private readonly clock: Clock;
  private realRoot: Promise<string> | undefined;

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

  /** The root's real path, the folder created on first use; UNAVAILABLE (and retried later) when it cannot be. */
  private rootReal(): Promise<string> {
    this.realRoot ??= fs
      .mkdir(this.root, { recursive: true })
      .then(() => fs.realpath(this.root))
      .catch((error: unknown) => {
        this.realRoot = undefined;
        throw new StorageError('UNAVAILABLE', 'the storage folder cannot be opened', { cause: error });
      });
    return this.realRoot;
  }

  /** Normalises a user path, refuses the driver's reserved names, and returns it with its file path. */
  private resolve(raw: string): { path: string; abs: string } {
    const path = driverPath(raw);
    const segments = pathSegments(path);
    if (segments.some((s) => s.startsWith(RESERVED_PREFIX))) {
      throw new StorageError('INVALID_PATH', `names starting with ${RESERVED_PREFIX} are reserved`);
    }
    return { path, abs: nodePath.join(this.root, ...segments) };
  }

  private async isInsideRoot(real: string): Promise<boolean> {
    const root = await this.rootReal();
    return real === root || real.startsWith(root + nodePath.sep);
  }

  /**
   * Refuses a file path whose deepest existing ancestor (or itself) really lies outside the root,
   * which only a symlink can cause once the path is normalised.
   */
  private async confine(abs: string, path: string): Promise<void> {
    await this.rootReal();
    let probe = abs;
    for (;;) {
      try {
        const real = await fs.realpath(probe);
        if (!(await this.isInsideRoot(real))) {
          throw new StorageError('FORBIDDEN', `${path} leads outside the storage root`);
        }
        return;
      } catch (error) {
        if (!isErrno(error, 'ENOENT', 'ENOTDIR')) mapFsError(error, 'resolve', path);
        const up = nodePath.dirname(probe);
        if (up === probe) throw error;
        probe = up;
      }
    }
  }

  private async resolveConfined(raw: string): Promise<{ path: string; abs: string }> {
    const resolved = this.resolve(raw);
    await this.confine(resolved.abs, resolved.path);
    return resolved;
  }

  private async lstatOrNull(abs: string, path: string): Promise<Stats | null> {
    try {
      return await fs.lstat(abs);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return null;
      return mapFsError(error, 'stat', path);
    }
  }

  /** Creates the parent folders of `abs` (a file in the way is NOT_A_DIRECTORY) and re-checks confinement. */
  private async ensureParent(abs: string, path: string): Promise<string> {
    const dir = nodePath.dirname(abs);
    try {
      await fs.mkdir(dir, { recursive: true });
    } catch (error) {
      if (isErrno(error, 'EEXIST', 'ENOTDIR')) {
        throw new StorageError('NOT_A_DIRECTORY', `a parent of ${path} is a file`, { cause: error });
      }
      mapFsError(error, 'mkdir', path);
    }
    await this.confine(dir, path);
    return dir;
  }

  private async toEntry(path: string, abs: string): Promise<Entry> {
    const stats = await fs.stat(abs, { bigint: true });
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

  // ---- files and directories -----------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const { path, abs } = await this.resolveConfined(raw);
    try {
      return await this.toEntry(path, abs);
    } catch (error) {
      return mapFsError(error, 'stat', path);
    }
  }

  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const { path, abs } = await this.resolveConfined(raw);
    const limit = listLimit(options.limit);
    const after =
      options.cursor === undefined ? undefined : Buffer.from(options.cursor, 'base64url').toString();
    let dirents;
    try {
      dirents = await fs.readdir(abs, { withFileTypes: true });
    } catch (error) {
      return mapFsError(error, 'list', path);
    }
    const listed = dirents.filter((d) => !d.name.startsWith(RESERVED_PREFIX) && isAddressableName(d.name));
    const links = new Set(listed.filter((d) => d.isSymbolicLink()).map((d) => d.name));
    const names = listed.map((d) => d.name).sort(compareNames);
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
        batch.map((name) => this.listEntry(joinPath(path, name), nodePath.join(abs, name), links.has(name))),
      );
      for (const entry of found) if (entry) entries.push(entry);
    }
    const page: ListPage = { entries };
    if (index < names.length) page.cursor = Buffer.from(names[index - 1]!).toString('base64url');
    return page;
  }

  /** An entry for a listing; null for one that vanished meanwhile or is a symlink out of the root. */
  private async listEntry(path: string, abs: string, symlink: boolean): Promise<Entry | null> {
    try {
      // readdir said what is a link: only those need a look at where they lead.
      if (symlink && !(await this.isInsideRoot(await fs.realpath(abs)))) return null;
      return await this.toEntry(path, abs);
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ELOOP')) return null;
      return mapFsError(error, 'list', path);
    }
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const { path, abs } = await this.resolveConfined(raw);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(abs, 'r');
    } catch (error) {
      return mapFsError(error, 'read', path);
    }
    try {
      const stats = await handle.stat({ bigint: true });
      if (stats.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
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
    const { path, abs } = await this.resolveConfined(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const existing = await this.lstatOrNull(abs, path);
    if (existing?.isDirectory()) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    const dir = await this.ensureParent(abs, path);
    const limit =
      options.size === undefined
        ? new ByteLimit(Number.MAX_SAFE_INTEGER, false)
        : new ByteLimit(options.size, true);
    await this.withTemp(dir, async (temp) => {
      await this.writeTemp(temp, toNodeReadable(body), limit, path);
      try {
        await fs.rename(temp, abs);
      } catch (error) {
        await fs.rm(temp, { force: true });
        if (isErrno(error, 'EISDIR', 'ENOTEMPTY', 'EEXIST')) {
          throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`, { cause: error });
        }
        mapFsError(error, 'write', path);
      }
    });
    const entry = await this.stat(path);
    return { etag: entry.etag, size: entry.size };
  }

  /** Streams `source` through `limit` into a new temp file, synced to disk; removes it on any failure. */
  private async writeTemp(temp: string, source: Readable, limit: ByteLimit, path: string): Promise<void> {
    // `flush` syncs the file before it is closed, so the rename that follows never exposes an
    // empty file after a crash.
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

  /** Runs `use` with a new temp path in `dir`, known as a live write (swept never) until `use` settles. */
  private async withTemp<T>(dir: string, use: (temp: string) => Promise<T>): Promise<T> {
    const temp = nodePath.join(dir, tempName());
    liveTemps.add(temp);
    try {
      return await use(temp);
    } finally {
      liveTemps.delete(temp);
    }
  }

  /**
   * Removes the temp files a crash left anywhere below the root (writes are renamed into place
   * when complete, so a temp file outlives its write only when its writer died): at once when their
   * writer is a dead process of this machine, otherwise once untouched for `maxAgeMs`. A temp file
   * this process is writing is never touched. Returns how many went.
   */
  async sweepTemp(maxAgeMs: number): Promise<number> {
    let removed = 0;
    const dirs = [this.root];
    for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
      let entries;
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        continue; // gone meanwhile, or never created
      }
      for (const entry of entries) {
        const abs = nodePath.join(dir, entry.name);
        if (!entry.name.startsWith(TEMP_PREFIX)) {
          // Symlinks are not followed: they may lead out of the root.
          if (entry.isDirectory()) dirs.push(abs);
          continue;
        }
        if (liveTemps.has(abs)) continue;
        if (processState(tempOwner(entry.name)) !== 'dead') {
          const stats = await fs.lstat(abs).catch(() => null);
          if (!stats || Date.now() - stats.mtimeMs < maxAgeMs) continue;
        }
        await fs.rm(abs, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  async mkdir(raw: string): Promise<void> {
    const { path, abs } = await this.resolveConfined(raw);
    if (path === '/' || (await this.lstatOrNull(abs, path))) {
      throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    }
    await this.ensureParent(abs, path);
    try {
      await fs.mkdir(abs);
    } catch (error) {
      mapFsError(error, 'mkdir', path);
    }
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { path, abs } = await this.resolveConfined(raw);
    if (path === '/') throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    const stats = await this.lstatOrNull(abs, path);
    if (!stats) throw new StorageError('NOT_FOUND', `${path} not found`);
    try {
      if (!stats.isDirectory()) await fs.unlink(abs);
      else if (options.recursive) await fs.rm(abs, { recursive: true });
      else await fs.rmdir(abs);
    } catch (error) {
      mapFsError(error, 'remove', path);
    }
  }

  /** Shared checks of copy and move; returns both sides and whether the source is a directory. */
  private async transferPlan(rawFrom: string, rawTo: string) {
    const from = await this.resolveConfined(rawFrom);
    const to = await this.resolveConfined(rawTo);
    if (isSameOrInside(from.path, to.path)) {
      throw new StorageError('INVALID_PATH', `cannot copy or move ${from.path} onto or into itself`);
    }
    const source = await this.lstatOrNull(from.abs, from.path);
    if (!source) throw new StorageError('NOT_FOUND', `${from.path} not found`);
    const target = await this.lstatOrNull(to.abs, to.path);
    if (target && (source.isDirectory() || target.isDirectory())) {
      throw new StorageError('ALREADY_EXISTS', `${to.path} already exists`);
    }
    const dir = await this.ensureParent(to.abs, to.path);
    return { from, to, dir, isDirectory: source.isDirectory() };
  }

  async copy(rawFrom: string, rawTo: string): Promise<void> {
    const { from, to, dir, isDirectory } = await this.transferPlan(rawFrom, rawTo);
    await this.copyInto(from, to, dir, isDirectory);
  }

  /** Copies into a hidden temp name beside the target, then renames it into place. */
  private async copyInto(
    from: { path: string; abs: string },
    to: { path: string; abs: string },
    dir: string,
    isDirectory: boolean,
  ): Promise<void> {
    await this.withTemp(dir, async (temp) => {
      try {
        if (isDirectory) {
          await fs.cp(from.abs, temp, {
            recursive: true,
            errorOnExist: true,
            force: false,
            // Skip the driver's own files and symlinks: a copied link could point anywhere.
            filter: async (src) =>
              !nodePath.basename(src).startsWith(RESERVED_PREFIX) && !(await fs.lstat(src)).isSymbolicLink(),
          });
        } else {
          await fs.copyFile(from.abs, temp, fs.constants.COPYFILE_EXCL);
        }
        await fs.rename(temp, to.abs);
      } catch (error) {
        await fs.rm(temp, { recursive: true, force: true });
        if (isDirectory && isErrno(error, 'ENOTEMPTY', 'EEXIST', 'EISDIR')) {
          throw new StorageError('ALREADY_EXISTS', `${to.path} already exists`, { cause: error });
        }
        mapFsError(error, 'copy', from.path);
      }
    });
  }

  async move(rawFrom: string, rawTo: string): Promise<void> {
    const { from, to, dir, isDirectory } = await this.transferPlan(rawFrom, rawTo);
    try {
      await fs.rename(from.abs, to.abs);
    } catch (error) {
      if (!isErrno(error, 'EXDEV')) {
        if (isErrno(error, 'ENOTEMPTY', 'EEXIST')) {
          throw new StorageError('ALREADY_EXISTS', `${to.path} already exists`, { cause: error });
        }
        mapFsError(error, 'move', from.path);
      }
      // The root spans file systems (a bind mount inside it): copy, then remove the source.
      await this.copyInto(from, to, dir, isDirectory);
      await fs.rm(from.abs, { recursive: true, force: true });
    }
  }

  // ---- multipart ------------------------------------------------------------------------------

  private uploadDir(uploadId: string): string {
    return nodePath.join(this.root, MULTIPART_DIR, uploadId);
  }

  /** The upload's folder, after checking the id is ours and belongs to `path`; NOT_FOUND otherwise. */
  private async openUpload(
    raw: string,
    uploadId: string,
  ): Promise<{ path: string; dir: string; meta: UploadMeta }> {
    const path = this.resolve(raw).path;
    if (typeof uploadId !== 'string' || !/^[0-9a-f]{32}$/.test(uploadId)) {
      throw new StorageError('NOT_FOUND', 'unknown upload');
    }
    const dir = this.uploadDir(uploadId);
    let meta: UploadMeta;
    try {
      meta = JSON.parse(await fs.readFile(nodePath.join(dir, 'meta.json'), 'utf8')) as UploadMeta;
    } catch (error) {
      if (isErrno(error, 'ENOENT')) throw new StorageError('NOT_FOUND', 'unknown upload');
      return mapFsError(error, 'multipart', path);
    }
    if (meta.path !== path) throw new StorageError('NOT_FOUND', 'unknown upload');
    return { path, dir, meta };
  }

  /** The unfinished uploads: the folders below `.cubby-multipart` with their `meta.json`. */
  private async multipartListUploads(limit: number): Promise<PendingUpload[]> {
    let names: string[];
    try {
      names = await fs.readdir(nodePath.join(this.root, MULTIPART_DIR));
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return [];
      return mapFsError(error, 'list uploads', '/');
    }
    const found: PendingUpload[] = [];
    for (const uploadId of names) {
      if (found.length >= limit) break;
      if (!/^[0-9a-f]{32}$/.test(uploadId)) continue;
      try {
        const meta = JSON.parse(
          await fs.readFile(nodePath.join(this.uploadDir(uploadId), 'meta.json'), 'utf8'),
        ) as UploadMeta;
        found.push({ path: meta.path, uploadId, initiated: new Date(meta.created) });
      } catch {
        // Completed or aborted meanwhile, or its init never finished writing.
      }
    }
    return found;
  }

  private async multipartInit(raw: string, contentType?: string): Promise<{ uploadId: string }> {
    const { path, abs } = await this.resolveConfined(raw);
    if (path === '/' || (await this.lstatOrNull(abs, path))?.isDirectory()) {
      throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    }
    const uploadId = randomBytes(16).toString('hex');
    const dir = this.uploadDir(uploadId);
    const meta: UploadMeta = { path, created: this.clock.now().toISOString() };
    if (contentType !== undefined) meta.contentType = contentType;
    try {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(nodePath.join(dir, 'meta.json'), JSON.stringify(meta));
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
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new StorageError('PRECONDITION_FAILED', 'part size is required');
    }
    if (size > MULTIPART_LIMITS.maxPartSize) throw new StorageError('TOO_LARGE', 'part larger than 5 GiB');
    const { path, dir } = await this.openUpload(raw, uploadId);
    const hash = createHash('md5');
    return this.withTemp(dir, async (temp) => {
      await this.writeTemp(
        temp,
        toNodeReadable(body),
        new ByteLimit(size, true, (chunk) => hash.update(chunk)),
        path,
      );
      const md5 = hash.digest('hex');
      const prefix = partPrefix(partNumber);
      try {
        await fs.rename(temp, nodePath.join(dir, prefix + md5));
        // A part uploaded again replaces the earlier one, as on S3.
        for (const name of await fs.readdir(dir)) {
          if (name.startsWith(prefix) && name !== prefix + md5) {
            await fs.rm(nodePath.join(dir, name), { force: true });
          }
        }
      } catch (error) {
        await fs.rm(temp, { force: true });
        if (isErrno(error, 'ENOENT')) throw new StorageError('NOT_FOUND', 'upload aborted', { cause: error });
        mapFsError(error, 'upload part', path);
      }
      return { etag: `"${md5}"` };
    });
  }

  private async readParts(
    dir: string,
    path: string,
  ): Promise<Map<number, MultipartPartInfo & { file: string }>> {
    const parts = new Map<number, MultipartPartInfo & { file: string }>();
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) throw new StorageError('NOT_FOUND', 'unknown upload', { cause: error });
      return mapFsError(error, 'list parts', path);
    }
    for (const name of names.sort()) {
      const match = /^(\d{5})\.([0-9a-f]{32})$/.exec(name);
      if (!match) continue;
      const file = nodePath.join(dir, name);
      const stats = await fs.stat(file).catch(() => null);
      if (!stats) continue;
      parts.set(Number(match[1]), {
        partNumber: Number(match[1]),
        etag: `"${match[2]}"`,
        size: stats.size,
        file,
      });
    }
    return parts;
  }

  private async multipartListParts(raw: string, uploadId: string): Promise<MultipartPartInfo[]> {
    const { path, dir } = await this.openUpload(raw, uploadId);
    const parts = await this.readParts(dir, path);
    return [...parts.values()]
      .sort((a, b) => a.partNumber - b.partNumber)
      .map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
  }

  private async multipartComplete(
    raw: string,
    uploadId: string,
    parts: MultipartPart[],
  ): Promise<WriteResult> {
    const { path, dir } = await this.openUpload(raw, uploadId);
    const stored = await this.readParts(dir, path);
    const files = checkCompleteParts(parts, stored);
    const { abs } = await this.resolveConfined(path);
    if ((await this.lstatOrNull(abs, path))?.isDirectory()) {
      throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    }
    const targetDir = await this.ensureParent(abs, path);
    await this.withTemp(targetDir, async (temp) => {
      let handle: fs.FileHandle | undefined;
      try {
        handle = await fs.open(temp, 'wx');
        for (const file of files) {
          for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
            await handle.write(chunk as Buffer);
          }
        }
        await handle.sync();
        await handle.close();
        handle = undefined;
        await fs.rename(temp, abs);
      } catch (error) {
        await handle?.close().catch(() => undefined);
        await fs.rm(temp, { force: true });
        if (isErrno(error, 'ENOENT')) throw new StorageError('NOT_FOUND', 'upload aborted', { cause: error });
        mapFsError(error, 'complete', path);
      }
    });
    await fs.rm(dir, { recursive: true, force: true });
    const entry = await this.stat(path);
    return { etag: entry.etag, size: entry.size };
  }

  private async multipartAbort(raw: string, uploadId: string): Promise<void> {
    const { dir } = await this.openUpload(raw, uploadId);
    await fs.rm(dir, { recursive: true, force: true });
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
    const { path } = await this.openUpload(raw, uploadId);
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

function checkPartNumber(partNumber: number): void {
  if (!Number.isSafeInteger(partNumber) || partNumber < 1 || partNumber > MULTIPART_LIMITS.maxParts) {
    throw new StorageError('INVALID_RANGE', 'part number must be 1 to 10000');
  }
}

const partPrefix = (partNumber: number): string => String(partNumber).padStart(5, '0') + '.';

/**
 * S3's CompleteMultipartUpload rules: at least one part, ascending part numbers, each naming a stored
 * part by its ETag, every part but the last at least 5 MiB. Returns the part files in order.
 */
function checkCompleteParts(
  parts: MultipartPart[],
  stored: Map<number, MultipartPartInfo & { file: string }>,
): string[] {
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new StorageError('PRECONDITION_FAILED', 'no parts given');
  }
  const files: string[] = [];
  parts.forEach((part, i) => {
    const previous = parts[i - 1];
    if (previous && part.partNumber <= previous.partNumber) {
      throw new StorageError('PRECONDITION_FAILED', 'parts must be listed in ascending order');
    }
    const found = stored.get(part.partNumber);
    if (!found || stripQuotes(found.etag) !== stripQuotes(part.etag ?? '')) {
      throw new StorageError(
        'PRECONDITION_FAILED',
        `part ${part.partNumber} was not uploaded with that ETag`,
      );
    }
    if (i < parts.length - 1 && found.size < MULTIPART_LIMITS.minPartSize) {
      throw new StorageError('PRECONDITION_FAILED', `part ${part.partNumber} is smaller than 5 MiB`);
    }
    files.push(found.file);
  });
  return files;
}

export function createLocalDriver(config: LocalDriverConfig): LocalDriver {
  return new LocalDriver(config);
}
