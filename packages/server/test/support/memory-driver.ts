/**
 * In-memory storage driver, for tests: it keeps the contract of storage/driver.ts (pinned down by
 * test/storage/contract.ts, docs/testing.md) with a tree of folders and files held in this process.
 *
 * - Folders are explicit, as on local disk: `mkdir` and writes make them, and an emptied folder stays.
 * - A file is a frozen list of the chunks its body delivered (copied, so the writer may reuse its
 *   buffers). A write collects its body off to the side and only then puts the new file in place, so
 *   a reader sees the old content or the new, never a part; a reader keeps the file it opened even
 *   when it is replaced meanwhile. Reads stream the chunks (sliced for a range), never the whole file
 *   concatenated.
 * - ETags are S3's: the MD5 of the bytes, or for a multipart upload the MD5 of its parts' MD5s with
 *   `-<parts>` after it.
 * - No presigned URLs: there is no HTTP endpoint to point them at.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { type Clock, systemClock } from '../../src/lib/clock.ts';
import { ByteLimit } from '../../src/storage/byte-limit.ts';
import { satisfyRange } from '../../src/storage/byte-range.ts';
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
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  StorageError,
  type WriteOptions,
  type WriteResult,
} from '../../src/storage/driver.ts';
import {
  compareNames,
  driverPath,
  isSameOrInside,
  joinPath,
  nameOf,
  pathSegments,
} from '../../src/storage/driver-path.ts';
import { checkCompleteParts, checkPartNumber, checkPartSize } from '../../src/storage/multipart-rules.ts';

/** The most bytes one read hands out at a time (a stored chunk may be larger). */
const READ_CHUNK = 256 * 1024;

interface FileNode {
  readonly type: 'file';
  readonly chunks: readonly Uint8Array[];
  readonly size: number;
  readonly etag: string;
  readonly modified: Date;
  readonly contentType?: string;
}

interface DirNode {
  readonly type: 'dir';
  readonly children: Map<string, Node>;
  modified: Date;
}

type Node = FileNode | DirNode;

/** A body taken in whole: its chunks, byte count and MD5. */
interface Collected {
  chunks: Uint8Array[];
  size: number;
  md5: Buffer;
}

interface Upload {
  path: string;
  contentType?: string;
  initiated: Date;
  parts: Map<number, MultipartPartInfo & { chunks: Uint8Array[]; md5: Buffer }>;
}

export interface MemoryDriverConfig {
  clock?: Clock;
}

/**
 * Reads `body` through `limit` (ByteLimit's TOO_LARGE and PRECONDITION_FAILED) into copied chunks.
 * A body that fails rejects with its own error; nothing is kept.
 */
async function collect(body: ReadableStream<Uint8Array>, limit: ByteLimit): Promise<Collected> {
  const chunks: Uint8Array[] = [];
  const hash = createHash('md5');
  let size = 0;
  try {
    await pipeline(
      Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>),
      limit,
      async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) {
          chunks.push(new Uint8Array(chunk));
          hash.update(chunk);
          size += chunk.length;
        }
      },
    );
  } catch (error) {
    throw limit.failure ?? error;
  }
  return { chunks, size, md5: hash.digest() };
}

/** A pull-based stream over bytes `[start, end]` of a file's chunks, at most READ_CHUNK at a time. */
function chunkStream(chunks: readonly Uint8Array[], start: number, end: number): ReadableStream<Uint8Array> {
  let index = 0;
  let offset = start;
  let remaining = end - start + 1;
  while (index < chunks.length && offset >= chunks[index]!.length) offset -= chunks[index++]!.length;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index];
        if (remaining <= 0 || !chunk) {
          controller.close();
          return;
        }
        const n = Math.min(chunk.length - offset, remaining, READ_CHUNK);
        // A copy: the consumer may do what it likes with what it gets, the file stays as it was.
        controller.enqueue(chunk.slice(offset, offset + n));
        remaining -= n;
        offset += n;
        if (offset >= chunk.length) {
          index++;
          offset = 0;
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** No presigned URLs (no HTTP endpoint); a copy shares the frozen bytes; a move re-links the node. */
export const MEMORY_CAPABILITIES: DriverCapabilities = {
  multipart: true,
  presignGet: false,
  presignPut: false,
  presignPart: false,
  directUrls: false,
  serverSideCopy: true,
  rename: true,
  rangeReads: true,
  etag: 'md5',
  contentType: true,
};

export class MemoryDriver implements StorageDriver {
  readonly kind = 'memory' as const;
  readonly capabilities = MEMORY_CAPABILITIES;
  readonly multipart: MultipartApi;
  private readonly clock: Clock;
  private readonly root: DirNode;
  private readonly uploads = new Map<string, Upload>();

  constructor(config: MemoryDriverConfig = {}) {
    this.clock = config.clock ?? systemClock;
    this.root = this.newDir();
    this.multipart = {
      init: async (path, options) => this.multipartInit(path, options?.contentType),
      uploadPart: (path, uploadId, partNumber, body, options) =>
        this.multipartUploadPart(path, uploadId, partNumber, body, options.size),
      complete: async (path, uploadId, parts) => this.multipartComplete(path, uploadId, parts),
      abort: async (path, uploadId) => {
        this.upload(path, uploadId);
        this.uploads.delete(uploadId);
      },
      listParts: async (path, uploadId) =>
        [...this.upload(path, uploadId).parts.values()]
          .sort((a, b) => a.partNumber - b.partNumber)
          .map(({ partNumber, etag, size }) => ({ partNumber, etag, size })),
      listUploads: async (limit) =>
        [...this.uploads]
          .slice(0, Math.max(0, limit))
          .map(([uploadId, u]): PendingUpload => ({ path: u.path, uploadId, initiated: u.initiated })),
    };
  }

  // ---- the tree -------------------------------------------------------------------------------

  private newDir(): DirNode {
    return { type: 'dir', children: new Map(), modified: this.clock.now() };
  }

  /**
   * The folder `segments` name: NOT_FOUND when one is missing (with `create`, the missing ones are
   * made), NOT_A_DIRECTORY when one is a file. Nothing is made when it fails.
   */
  private dirAt(segments: readonly string[], path: string, create = false): DirNode {
    let dir = this.root;
    for (const segment of segments) {
      let next = dir.children.get(segment);
      if (!next) {
        // Below a missing folder nothing exists, so from here on every folder is new.
        if (!create) throw new StorageError('NOT_FOUND', `${path} not found`);
        next = this.newDir();
        dir.children.set(segment, next);
        dir.modified = next.modified;
      }
      if (next.type !== 'dir') throw new StorageError('NOT_A_DIRECTORY', `a parent of ${path} is a file`);
      dir = next;
    }
    return dir;
  }

  /** What is at a path (the root included); NOT_FOUND when nothing is. */
  private nodeAt(segments: readonly string[], path: string): Node {
    if (segments.length === 0) return this.root;
    const node = this.dirAt(segments.slice(0, -1), path).children.get(segments.at(-1)!);
    if (!node) throw new StorageError('NOT_FOUND', `${path} not found`);
    return node;
  }

  private toEntry(path: string, node: Node): Entry {
    if (node.type === 'dir') {
      return { path, name: nameOf(path), isDirectory: true, size: 0, modified: node.modified };
    }
    const entry: Entry = {
      path,
      name: nameOf(path),
      isDirectory: false,
      size: node.size,
      modified: node.modified,
      etag: node.etag,
    };
    if (node.contentType !== undefined) entry.contentType = node.contentType;
    return entry;
  }

  /** Puts a finished file in place, making missing folders; IS_A_DIRECTORY when a folder is there. */
  private place(segments: readonly string[], path: string, file: FileNode): WriteResult {
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const dir = this.dirAt(segments.slice(0, -1), path, true);
    const name = segments.at(-1)!;
    if (dir.children.get(name)?.type === 'dir') {
      throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    }
    dir.children.set(name, file);
    dir.modified = file.modified;
    return { etag: file.etag, size: file.size };
  }

  /** Refuses a write to the root or to a folder before its body is read (checked again when placed). */
  private checkWritable(segments: readonly string[], path: string): void {
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    try {
      if (this.nodeAt(segments, path).type === 'dir') {
        throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      }
    } catch (error) {
      if (!(error instanceof StorageError && error.code === 'NOT_FOUND')) throw error;
    }
  }

  private resolve(raw: string): { path: string; segments: string[] } {
    const path = driverPath(raw);
    return { path, segments: pathSegments(path) };
  }

  // ---- files and directories -----------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const { path, segments } = this.resolve(raw);
    return this.toEntry(path, this.nodeAt(segments, path));
  }

  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const { path, segments } = this.resolve(raw);
    const node = this.nodeAt(segments, path);
    if (node.type !== 'dir') throw new StorageError('NOT_A_DIRECTORY', `${path} is a file`);
    const limit = listLimit(options.limit);
    const after =
      options.cursor === undefined ? undefined : Buffer.from(options.cursor, 'base64url').toString();
    const names = [...node.children.keys()]
      .filter((name) => after === undefined || compareNames(name, after) > 0)
      .sort(compareNames);
    const entries = names
      .slice(0, limit)
      .map((name) => this.toEntry(joinPath(path, name), node.children.get(name)!));
    const page: ListPage = { entries };
    if (names.length > limit) page.cursor = Buffer.from(names[limit - 1]!).toString('base64url');
    return page;
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const { path, segments } = this.resolve(raw);
    const node = this.nodeAt(segments, path);
    if (node.type === 'dir') throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    const range = options.range ? satisfyRange(options.range, node.size) : undefined;
    const start = range?.start ?? 0;
    const end = range?.end ?? node.size - 1;
    const result: ReadResult = {
      body: chunkStream(node.chunks, start, end),
      size: node.size,
      contentLength: end - start + 1,
      etag: node.etag,
      lastModified: node.modified,
    };
    if (range) result.range = range;
    if (node.contentType !== undefined) result.contentType = node.contentType;
    return result;
  }

  async write(
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const { path, segments } = this.resolve(raw);
    this.checkWritable(segments, path);
    const limit =
      options.size === undefined
        ? new ByteLimit(Number.MAX_SAFE_INTEGER, false)
        : new ByteLimit(options.size, true);
    const { chunks, size, md5 } = await collect(body, limit);
    return this.place(segments, path, {
      type: 'file',
      chunks,
      size,
      etag: `"${md5.toString('hex')}"`,
      modified: this.clock.now(),
      ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
    });
  }

  async mkdir(raw: string): Promise<void> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    const dir = this.dirAt(segments.slice(0, -1), path, true);
    const name = segments.at(-1)!;
    if (dir.children.has(name)) throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    const made = this.newDir();
    dir.children.set(name, made);
    dir.modified = made.modified;
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    const dir = this.dirAt(segments.slice(0, -1), path);
    const name = segments.at(-1)!;
    const node = dir.children.get(name);
    if (!node) throw new StorageError('NOT_FOUND', `${path} not found`);
    if (node.type === 'dir' && node.children.size > 0 && !options.recursive) {
      throw new StorageError('PRECONDITION_FAILED', `${path} is not empty`);
    }
    dir.children.delete(name);
    dir.modified = this.clock.now();
  }

  async copy(rawFrom: string, rawTo: string): Promise<void> {
    this.transfer(rawFrom, rawTo, (node) => this.clone(node));
  }

  async move(rawFrom: string, rawTo: string): Promise<void> {
    this.transfer(rawFrom, rawTo, (node, fromDir, fromName) => {
      fromDir.children.delete(fromName);
      fromDir.modified = this.clock.now();
      return node;
    });
  }

  /**
   * Copy and move: both sides checked as local disk checks them, then `take` gives the node that goes
   * to the target (the target's missing folders are made).
   */
  private transfer(
    rawFrom: string,
    rawTo: string,
    take: (node: Node, fromDir: DirNode, fromName: string) => Node,
  ): void {
    const from = this.resolve(rawFrom);
    const to = this.resolve(rawTo);
    if (from.segments.length === 0 || to.segments.length === 0 || isSameOrInside(from.path, to.path)) {
      throw new StorageError('INVALID_PATH', `cannot copy or move ${from.path} onto or into itself`);
    }
    const fromDir = this.dirAt(from.segments.slice(0, -1), from.path);
    const fromName = from.segments.at(-1)!;
    const source = fromDir.children.get(fromName);
    if (!source) throw new StorageError('NOT_FOUND', `${from.path} not found`);
    // Checked before any folder is made for the target.
    let target: Node | undefined;
    try {
      target = this.nodeAt(to.segments, to.path);
    } catch (error) {
      if (!(error instanceof StorageError && error.code === 'NOT_FOUND')) throw error;
    }
    if (target && (source.type === 'dir' || target.type === 'dir')) {
      throw new StorageError('ALREADY_EXISTS', `${to.path} already exists`);
    }
    const toDir = this.dirAt(to.segments.slice(0, -1), to.path, true);
    toDir.children.set(to.segments.at(-1)!, take(source, fromDir, fromName));
    toDir.modified = this.clock.now();
  }

  /** A copy made now: new folders and file records, the same (frozen) bytes. */
  private clone(node: Node): Node {
    const modified = this.clock.now();
    if (node.type === 'file') return { ...node, modified };
    const children = new Map<string, Node>();
    for (const [name, child] of node.children) children.set(name, this.clone(child));
    return { type: 'dir', children, modified };
  }

  // ---- multipart ------------------------------------------------------------------------------

  /** An upload begun for this path; NOT_FOUND for an unknown id or one begun for another path. */
  private upload(raw: string, uploadId: string): Upload {
    const { path } = this.resolve(raw);
    const upload = typeof uploadId === 'string' ? this.uploads.get(uploadId) : undefined;
    if (!upload || upload.path !== path) throw new StorageError('NOT_FOUND', 'unknown upload');
    return upload;
  }

  private multipartInit(raw: string, contentType?: string): { uploadId: string } {
    const { path, segments } = this.resolve(raw);
    this.checkWritable(segments, path);
    const uploadId = randomBytes(16).toString('hex');
    const upload: Upload = { path, initiated: this.clock.now(), parts: new Map() };
    if (contentType !== undefined) upload.contentType = contentType;
    this.uploads.set(uploadId, upload);
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
    this.upload(raw, uploadId);
    const part = await collect(body, new ByteLimit(size, true));
    // Aborted or completed while the part was on its way.
    const upload = this.upload(raw, uploadId);
    const etag = `"${part.md5.toString('hex')}"`;
    upload.parts.set(partNumber, { partNumber, etag, size: part.size, chunks: part.chunks, md5: part.md5 });
    return { etag };
  }

  private multipartComplete(raw: string, uploadId: string, parts: MultipartPart[]): WriteResult {
    const { path, segments } = this.resolve(raw);
    if (segments.length === 0) throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const upload = this.upload(raw, uploadId);
    const chosen = checkCompleteParts(parts, upload.parts);
    const digest = createHash('md5');
    for (const part of chosen) digest.update(part.md5);
    const written = this.place(segments, path, {
      type: 'file',
      chunks: chosen.flatMap((part) => part.chunks),
      size: chosen.reduce((sum, part) => sum + part.size, 0),
      etag: `"${digest.digest('hex')}-${chosen.length}"`,
      modified: this.clock.now(),
      ...(upload.contentType === undefined ? {} : { contentType: upload.contentType }),
    });
    this.uploads.delete(uploadId);
    return written;
  }
}

export function createMemoryDriver(config: MemoryDriverConfig = {}): MemoryDriver {
  return new MemoryDriver(config);
}
