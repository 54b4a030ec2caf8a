/**
 * WebDAV storage driver: a folder on a WebDAV server (Nextcloud, Apache mod_dav, rclone, another
 * Cubby's /dav), confined to the config's `default_folder` (docs/architecture.md, "Drivers").
 *
 * - Paths: driver paths become URLs below the configured folder, each segment escaped, so no name
 *   (`..` is refused by driver-path.ts; `%2e%2e` is escaped to a literal name) reaches outside it.
 *   Answers' hrefs are decoded and matched to the folder asked for; anything else is ignored.
 * - `list` is one PROPFIND (Depth 1) per page, parsed as a stream (webdav-propfind.ts); WebDAV
 *   lists in no set order, so the folder's entries are gathered (at most `maxListEntries`, else
 *   TOO_LARGE), sorted by UTF-8 bytes, and paged by a cursor naming the last entry given.
 * - `write` PUTs to a hidden temp name beside the target (`.cubby.tmp-…`, storage/driver-names.ts), then MOVEs it over the
 *   target (`Overwrite: T`); a failed write deletes its temp. So a reader sees the old file or the
 *   new one, never a partial one (on servers that delete the target before the rename, such as
 *   Apache, briefly neither).
 * - `copy` is server-side: COPY to a temp name, then MOVE into place; `move` is MOVE. Neither moves
 *   bytes through this process.
 * - ETags are the server's `getetag` (a weak tag's `W/` dropped), or size and modification time
 *   when it gives none. Content types are not stored.
 * - Multipart uploads keep their parts in the storage (storage/tree-multipart.ts).
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { type Clock, systemClock } from '../../../lib/clock.ts';
import { bodyLimit } from '../../byte-limit.ts';
import { treeTempName, refuseHidden, isHiddenName, isTempName } from '../../driver-names.ts';
import { checkRange, satisfyRange } from '../../byte-range.ts';
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
  driverPath,
  isAddressableName,
  isSameOrInside,
  joinPath,
  nameOf,
  parentOf,
} from '../../driver-path.ts';
import { type PartFiles, treeMultipart } from '../../tree-multipart.ts';
import { answerBody, brokenAnswer, drain, WebdavClient } from './webdav-client.ts';
import { statusError } from './webdav-errors.ts';
import { type DavResource, parseMultistatus, PROPFIND_BODY } from './webdav-propfind.ts';
import type { WebdavDriverConfig } from './webdav-settings.ts';
import { DEFAULT_WEBDAV_TUNING, LOCKED_RETRY_MS, type WebdavTuning } from './webdav-tuning.ts';

export type { WebdavDriverConfig } from './webdav-settings.ts';

/**
 * COPY runs on the server; MOVE is a rename on the servers it was tested on (Apache mod_dav_fs,
 * rclone), keeping the modification time; ranges are read with Range; ETags are versions.
 */
export const WEBDAV_CAPABILITIES: DriverCapabilities = {
  multipart: true,
  presignGet: false,
  presignPut: false,
  presignPart: false,
  directUrls: false,
  serverSideCopy: true,
  rename: true,
  rangeReads: true,
  etag: 'version',
  contentType: false,
};

const OK = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** A quoted strong ETag: the server's (its `W/` dropped, quotes added when missing), else size and time. */
function etagOf(resource: DavResource): string {
  const given = resource.etag?.replace(/^W\//, '');
  if (given) return /^".*"$/.test(given) ? given : `"${given}"`;
  return `"${(resource.size ?? 0).toString(16)}-${(resource.modified?.getTime() ?? 0).toString(16)}"`;
}

function entryOf(path: string, resource: DavResource): Entry {
  const entry: Entry = {
    path,
    name: path === '/' ? '' : nameOf(path),
    isDirectory: resource.isCollection,
    size: resource.isCollection ? 0 : (resource.size ?? 0),
    modified: resource.modified ?? null,
  };
  if (!resource.isCollection) entry.etag = etagOf(resource);
  return entry;
}

const encodeCursor = (name: string): string => Buffer.from(name, 'utf8').toString('base64url');
const decodeCursor = (cursor: string): string => Buffer.from(cursor, 'base64url').toString('utf8');

const folderMissing = (cause?: unknown): StorageError =>
  new StorageError('UNAVAILABLE', 'the configured folder does not exist on the WebDAV server', {
    reason: 'folder_missing',
    cause,
  });

export class WebdavDriver implements StorageDriver {
  readonly kind = 'webdav' as const;
  readonly capabilities = WEBDAV_CAPABILITIES;
  readonly multipart: MultipartApi;
  private readonly client: WebdavClient;
  private readonly tuning: WebdavTuning;
  /** Temp files this driver is writing now: a sweep never touches them. */
  private readonly liveTemps = new Set<string>();

  constructor(config: WebdavDriverConfig) {
    this.tuning = { ...DEFAULT_WEBDAV_TUNING, ...config.tuning };
    this.client = new WebdavClient(config, this.tuning);
    const clock: Clock = config.clock ?? systemClock;
    this.multipart = treeMultipart({
      files: this.partFiles(),
      clock,
      write: (path, body, options) => this.write(path, body, options),
      checkTarget: async (raw) => {
        const path = this.resolve(raw);
        if ((await this.statAt(path, 'multipart'))?.isDirectory || path === '/') {
          throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
        }
        return path;
      },
    });
  }

  // ---- paths and requests ---------------------------------------------------------------------

  /** Normalises a user path and refuses the driver's reserved names. */
  private resolve(raw: string): string {
    const path = driverPath(raw);
    refuseHidden(path);
    return path;
  }

  /**
   * Sends a request without a body and drops the answer's body: its status. 423 (Locked) is tried
   * again a few times: rclone locks a resource while any request works on it, so two writes into
   * one new folder meet it.
   */
  private async simple(method: string, path: string, op: string, headers?: Record<string, string>) {
    for (let attempt = 1; ; attempt++) {
      const res = await this.client.send(method, path, { op, ...(headers ? { headers } : {}) });
      await drain(res);
      if (res.statusCode !== 423 || attempt > this.tuning.lockedRetries) return res.statusCode ?? 0;
      await sleep(LOCKED_RETRY_MS * attempt);
    }
  }

  /**
   * PROPFIND `path` at `depth`, each resource handed to `onResource` (false stops the parse);
   * false when nothing is there (404, or 409 below a file).
   */
  private async propfind(
    path: string,
    depth: 0 | 1,
    op: string,
    onResource: (resource: DavResource) => boolean | void,
  ): Promise<boolean> {
    const res = await this.client.send('PROPFIND', path, {
      op,
      text: PROPFIND_BODY,
      headers: { Depth: String(depth) },
    });
    if (res.statusCode !== 207) {
      await drain(res);
      // 409 below a file, or 400 (Apache: "extraneous path components").
      if (res.statusCode === 404 || res.statusCode === 409 || res.statusCode === 400) return false;
      throw statusError(res.statusCode ?? 0, op, path);
    }
    try {
      await parseMultistatus(res, onResource, `${op} ${path}`);
    } catch (error) {
      throw brokenAnswer(error, op, path);
    } finally {
      if (!res.complete) res.destroy();
    }
    return true;
  }

  /** The entry at a (checked) path, or null when nothing is there. */
  private async statAt(path: string, op: string): Promise<Entry | null> {
    let found: DavResource | undefined;
    const nameOfHref = this.client.namesIn(path);
    const exists = await this.propfind(path, 0, op, (resource) => {
      if (nameOfHref(resource.href) === '') found = resource;
      else if (!found) found = resource; // a server that answers with another spelling of the path
      return false;
    });
    return exists && found ? entryOf(path, found) : null;
  }

  /**
   * The entries directly inside the folder `dir` (unsorted), hidden ones too when `hidden`.
   * NOT_FOUND for a missing folder (folder_missing for the root), NOT_A_DIRECTORY for a file,
   * TOO_LARGE past `maxListEntries`.
   */
  private async entriesOf(dir: string, op: string, hidden = false): Promise<Entry[]> {
    const entries: Entry[] = [];
    let self: DavResource | undefined;
    const nameOfHref = this.client.namesIn(dir);
    const exists = await this.propfind(dir, 1, op, (resource) => {
      const name = nameOfHref(resource.href);
      if (name === '') self = resource;
      if (!name || !isAddressableName(name)) return;
      if (!hidden && isHiddenName(name)) return;
      if (entries.length >= this.tuning.maxListEntries) {
        throw new StorageError(
          'TOO_LARGE',
          `${op} ${dir}: more than ${this.tuning.maxListEntries} entries in one folder`,
        );
      }
      entries.push(entryOf(joinPath(dir, name), resource));
    });
    if (!exists)
      throw dir === '/' ? folderMissing() : new StorageError('NOT_FOUND', `${op} ${dir}: not found`);
    if (self && !self.isCollection)
      throw new StorageError('NOT_A_DIRECTORY', `${op} ${dir}: not a directory`);
    return entries;
  }

  /** Makes `dir` and its missing parents; NOT_A_DIRECTORY when a file is in the way. */
  private async mkdirs(dir: string, op: string): Promise<void> {
    if (dir === '/') return this.checkRoot(op);
    if (await this.mkcol(dir, op)) return;
    // A parent is missing or is a file (409, or 400 from Apache, 405 from rclone): see to it, then
    // try again.
    await this.mkdirs(parentOf(dir), op);
    if (!(await this.mkcol(dir, op))) {
      throw new StorageError('UNAVAILABLE', `${op} ${dir}: the folder cannot be made`);
    }
  }

  /**
   * One MKCOL: true when the folder is there now (made, or there already); false when the server
   * refused in a way that may mean a missing parent.
   */
  private async mkcol(dir: string, op: string): Promise<boolean> {
    const status = await this.simple('MKCOL', dir, op);
    if (OK(status)) return true;
    if (status === 405) {
      const there = await this.statAt(dir, op);
      if (there?.isDirectory) return true;
      if (there) throw new StorageError('NOT_A_DIRECTORY', `${op} ${dir}: a file is in the way`);
    }
    if (status === 400 || status === 405 || status === 409) return false;
    throw statusError(status, op, dir);
  }

  /** The configured folder exists (folder_missing otherwise). */
  private async checkRoot(op: string): Promise<void> {
    const root = await this.statAt('/', op);
    if (!root) throw folderMissing();
    if (!root.isDirectory) throw new StorageError('UNAVAILABLE', `${op}: the configured folder is a file`);
  }

  /** `dir` is a folder, made when missing; NOT_A_DIRECTORY when it is a file. */
  private async ensureFolder(dir: string, op: string): Promise<void> {
    const there = await this.statAt(dir, op);
    if (there?.isDirectory) return;
    if (there) throw new StorageError('NOT_A_DIRECTORY', `${op} ${dir}: not a directory`);
    await this.mkdirs(dir, op);
  }

  /** MOVE or COPY `from` to `to` on the server. */
  private async relocate(
    method: 'MOVE' | 'COPY',
    from: string,
    to: string,
    overwrite: boolean,
    op: string,
  ): Promise<void> {
    const status = await this.simple(method, from, op, {
      Destination: this.client.url(to),
      Overwrite: overwrite ? 'T' : 'F',
      Depth: 'infinity',
    });
    if (OK(status)) return;
    if (status === 412) throw new StorageError('ALREADY_EXISTS', `${op} ${to}: already exists`);
    if (status === 409) throw new StorageError('NOT_FOUND', `${op} ${to}: the parent folder is missing`);
    throw statusError(status, op, from);
  }

  /** Deletes a file or a folder with everything in it; false when nothing was there. */
  private async deleteAt(path: string, op: string): Promise<boolean> {
    const status = await this.simple('DELETE', path, op, { Depth: 'infinity' });
    if (OK(status)) return true;
    if (status === 404) return false;
    throw statusError(status, op, path);
  }

  /**
   * Streams `body` to a temp name in `dir` and moves it onto `path`; the temp goes on failure.
   * Returns the bytes written.
   */
  private async putVia(
    path: string,
    body: ReadableStream<Uint8Array>,
    size: number | undefined,
    op: string,
  ): Promise<number> {
    if (size !== undefined && (!Number.isSafeInteger(size) || size < 0)) {
      throw new StorageError('PRECONDITION_FAILED', `${op} ${path}: invalid size`);
    }
    const temp = joinPath(parentOf(path), treeTempName());
    const limit = bodyLimit(size);
    const source = Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
    source.on('error', (error) => limit.destroy(error));
    source.pipe(limit);
    this.liveTemps.add(temp);
    try {
      let res: IncomingMessage;
      try {
        res = await this.client.send('PUT', temp, {
          op,
          stream: limit,
          ...(size !== undefined ? { contentLength: size } : {}),
          headers: { 'Content-Type': 'application/octet-stream' },
        });
      } catch (error) {
        throw limit.failure ?? error;
      }
      await drain(res);
      if (!OK(res.statusCode)) throw statusError(res.statusCode ?? 0, op, path);
      if (limit.failure) throw limit.failure;
      await this.relocate('MOVE', temp, path, true, op);
      return limit.bytes;
    } catch (error) {
      source.destroy();
      await this.deleteAt(temp, op).catch(() => undefined);
      throw error;
    } finally {
      this.liveTemps.delete(temp);
    }
  }

  // ---- the contract ---------------------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const path = this.resolve(raw);
    const entry = await this.statAt(path, 'stat');
    if (!entry)
      throw path === '/' ? folderMissing() : new StorageError('NOT_FOUND', `stat ${path}: not found`);
    return path === '/' ? { ...entry, isDirectory: true, size: 0 } : entry;
  }

  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const dir = this.resolve(raw);
    const limit = listLimit(options.limit);
    // Byte order of UTF-8 names (driver-path.ts, compareNames), each name encoded once.
    const keyed = (await this.entriesOf(dir, 'list')).map((entry) => ({
      entry,
      key: Buffer.from(entry.name, 'utf8'),
    }));
    keyed.sort((a, b) => Buffer.compare(a.key, b.key));
    let start = 0;
    if (options.cursor) {
      const after = Buffer.from(decodeCursor(options.cursor), 'utf8');
      start = keyed.findIndex((e) => Buffer.compare(e.key, after) > 0);
      if (start < 0) start = keyed.length;
    }
    const page = keyed.slice(start, start + limit).map((e) => e.entry);
    const more = start + limit < keyed.length;
    return { entries: page, ...(more ? { cursor: encodeCursor(page[page.length - 1]!.name) } : {}) };
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const path = this.resolve(raw);
    if (options.range) checkRange(options.range);
    const entry = await this.statAt(path, 'read');
    if (!entry) throw new StorageError('NOT_FOUND', `read ${path}: not found`);
    if (entry.isDirectory) throw new StorageError('IS_A_DIRECTORY', `read ${path}: a directory`);
    const wanted = options.range ? satisfyRange(options.range, entry.size) : undefined;
    const res = await this.client.send('GET', path, {
      op: 'read',
      ...(wanted ? { headers: { Range: `bytes=${wanted.start}-${wanted.end}` } } : {}),
    });
    try {
      return this.readResult(res, path, entry, options);
    } catch (error) {
      res.destroy();
      throw error;
    }
  }

  /** The answer to a GET as a read result: a 206's range, or a 200 with the range cut out here. */
  private readResult(res: IncomingMessage, path: string, entry: Entry, options: ReadOptions): ReadResult {
    const status = res.statusCode ?? 0;
    const common = {
      ...(entry.etag ? { etag: entry.etag } : {}),
      ...(entry.modified ? { lastModified: entry.modified } : {}),
    };
    if (status === 206 && options.range) {
      const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''));
      if (!match || Number(match[1]) !== options.range.start) {
        throw new StorageError('UNAVAILABLE', `read ${path}: the server answered another range`);
      }
      const [start, end, size] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const length = end - start + 1;
      return {
        body: answerBody(res, { skip: 0, length }, 'read', path),
        size,
        contentLength: length,
        range: { start, end },
        ...common,
      };
    }
    if (status === 200) {
      const declared = Number(res.headers['content-length']);
      const size = Number.isSafeInteger(declared) ? declared : entry.size;
      // A server that ignores Range sends the whole file: the bytes before the range are skipped.
      const range = options.range ? satisfyRange(options.range, size) : undefined;
      const skip = range?.start ?? 0;
      const length = range ? range.end - range.start + 1 : size;
      return {
        body: answerBody(res, { skip, length }, 'read', path),
        size,
        contentLength: length,
        ...(range ? { range } : {}),
        ...common,
      };
    }
    throw statusError(status, 'read', path);
  }

  async write(
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const path = this.resolve(raw);
    const existing = path === '/' ? { isDirectory: true } : await this.statAt(path, 'write');
    if (existing?.isDirectory) {
      await body.cancel().catch(() => undefined);
      throw new StorageError('IS_A_DIRECTORY', `write ${path}: a directory`);
    }
    try {
      if (!existing) await this.ensureFolder(parentOf(path), 'write');
    } catch (error) {
      await body.cancel().catch(() => undefined);
      throw error;
    }
    const size = await this.putVia(path, body, options.size, 'write');
    const written = await this.statAt(path, 'write');
    return { size, ...(written?.etag ? { etag: written.etag } : {}) };
  }

  async mkdir(raw: string): Promise<void> {
    const path = this.resolve(raw);
    if (path === '/' || (await this.statAt(path, 'mkdir'))) {
      throw new StorageError('ALREADY_EXISTS', `mkdir ${path}: already exists`);
    }
    await this.mkdirs(path, 'mkdir');
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const path = this.resolve(raw);
    if (path === '/') throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    const entry = await this.statAt(path, 'remove');
    if (!entry) throw new StorageError('NOT_FOUND', `remove ${path}: not found`);
    if (entry.isDirectory && !options.recursive) {
      // WebDAV's DELETE of a folder takes everything in it: look first.
      let empty = true;
      const nameOfHref = this.client.namesIn(path);
      await this.propfind(path, 1, 'remove', (resource) => {
        if (nameOfHref(resource.href) === '') return;
        empty = false;
        return false;
      });
      if (!empty) throw new StorageError('PRECONDITION_FAILED', `remove ${path}: the folder is not empty`);
    }
    if (!(await this.deleteAt(path, 'remove'))) {
      throw new StorageError('NOT_FOUND', `remove ${path}: not found`);
    }
  }

  /**
   * Copy and move: both sides checked, the target's folder made; then the server copies (to a temp
   * name, moved into place) or moves.
   */
  private async transfer(method: 'COPY' | 'MOVE', rawFrom: string, rawTo: string): Promise<void> {
    const op = method.toLowerCase();
    const from = this.resolve(rawFrom);
    const to = this.resolve(rawTo);
    if (from === '/' || to === '/' || isSameOrInside(from, to)) {
      throw new StorageError('INVALID_PATH', `cannot ${op} ${from} onto or into itself`);
    }
    const source = await this.statAt(from, op);
    if (!source) throw new StorageError('NOT_FOUND', `${op} ${from}: not found`);
    const target = await this.statAt(to, op);
    if (target && (source.isDirectory || target.isDirectory)) {
      throw new StorageError('ALREADY_EXISTS', `${op} ${to}: already exists`);
    }
    if (!target) await this.ensureFolder(parentOf(to), op);
    if (method === 'MOVE') return this.relocate('MOVE', from, to, !source.isDirectory, op);
    const temp = joinPath(parentOf(to), treeTempName());
    this.liveTemps.add(temp);
    try {
      await this.relocate('COPY', from, temp, false, op);
      await this.relocate('MOVE', temp, to, !source.isDirectory, op);
    } catch (error) {
      await this.deleteAt(temp, op).catch(() => undefined);
      throw error;
    } finally {
      this.liveTemps.delete(temp);
    }
  }

  async copy(from: string, to: string): Promise<void> {
    await this.transfer('COPY', from, to);
  }

  async move(from: string, to: string): Promise<void> {
    await this.transfer('MOVE', from, to);
  }

  /**
   * Removes the temp files and folders failed writes and copies left anywhere below the root, once
   * untouched for `maxAgeMs` (by the server's clock against ours), never one this driver is
   * writing. Walks at most `sweepMaxFolders` folders. Returns how many went.
   */
  async sweepTemp(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    const folders = ['/'];
    let removed = 0;
    for (let visited = 0; folders.length > 0 && visited < this.tuning.sweepMaxFolders; visited++) {
      const dir = folders.shift()!;
      const entries = await this.entriesOf(dir, 'sweep', true).catch(() => [] as Entry[]);
      for (const entry of entries) {
        if (isTempName(entry.name)) {
          const old = entry.modified !== null && entry.modified.getTime() < cutoff;
          if (!old || this.liveTemps.has(entry.path)) continue;
          if (await this.deleteAt(entry.path, 'sweep').catch(() => false)) removed++;
        } else if (entry.isDirectory) {
          folders.push(entry.path);
        }
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.client.close();
  }

  // ---- multipart ------------------------------------------------------------------------------

  /** The raw file operations tree-multipart.ts keeps an upload's parts with. */
  private partFiles(): PartFiles {
    return {
      writeFile: async (path, body, size) => {
        await this.putVia(driverPath(path), body, size, 'multipart');
      },
      readFile: async (raw) => {
        const path = driverPath(raw);
        const res = await this.client.send('GET', path, { op: 'multipart' });
        if (res.statusCode !== 200) {
          await drain(res);
          throw statusError(res.statusCode ?? 0, 'multipart', path);
        }
        const length = Number(res.headers['content-length']);
        if (!Number.isSafeInteger(length)) {
          res.destroy();
          throw new StorageError('UNAVAILABLE', `multipart ${path}: no Content-Length`);
        }
        return answerBody(res, { skip: 0, length }, 'multipart', path);
      },
      listFiles: async (raw) => {
        const entries = await this.entriesOf(driverPath(raw), 'multipart', true);
        return entries
          .filter((e) => !isTempName(e.name))
          .map((e) => ({ name: e.name, size: e.size, isDirectory: e.isDirectory }));
      },
      mkdirs: (raw) => this.mkdirs(driverPath(raw), 'multipart'),
      removeTree: async (raw) => {
        await this.deleteAt(driverPath(raw), 'multipart');
      },
    };
  }
}
