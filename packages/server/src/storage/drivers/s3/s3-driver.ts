/**
 * S3-compatible storage driver (AWS SDK v3); the only module that imports the SDK.
 *
 * - Keys are `<rootPrefix>/<driver path without its leading slash>`. Directories are prefixes;
 *   `mkdir` writes a zero-byte `dir/` marker, and removing the last entry of a directory writes one
 *   so that the directory stays, as it would on disk.
 * - Bodies are streamed: a single PutObject when the size is known and small, else a multipart
 *   upload of 8 MiB parts with at most two parts in memory, whatever the size (`writeInParts`).
 *   Reads GET a presigned URL on a socket of their own and hand on its chunks as they arrive
 *   (s3-get.ts, node-body.ts); error answers go through the SDK.
 * - Checksums are only computed when an operation requires them: the SDK default (aws-chunked
 *   stream bodies, checksum headers in presigned URLs) breaks most non-AWS servers.
 * - SDK errors become StorageError codes; messages name the operation and path, never a credential.
 * - Known radosgw quirks handled here: CompleteMultipartUpload answers an empty ETag (a HeadObject
 *   follows) and answers 500 instead of NoSuchUpload after an abort (ListParts tells them apart).
 */
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Clock, systemClock } from '../../../lib/clock.ts';
import { ByteLimit, bodyLimit } from '../../byte-limit.ts';
import { checkRange } from '../../byte-range.ts';
import { webBody } from '../../../lib/node-body.ts';
import { toStorageError } from './s3-errors.ts';
import { plainGet } from './s3-get.ts';
import { resolveS3ClientSettings, type S3DriverConfig } from './s3-settings.ts';
import {
  CONNECT_TIMEOUT_MS,
  DEFAULT_S3_TUNING,
  MAX_PRESIGN_SECONDS,
  MiB,
  READ_URL_SECONDS,
  type S3Tuning,
} from './s3-tuning.ts';
import { contentDisposition } from '../../../lib/content-disposition.ts';
import { checkPartNumber, checkPartSize } from '../../multipart-rules.ts';
import {
  type DriverCapabilities,
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
  type WriteOptions,
  type WriteResult,
} from '../../driver.ts';
import {
  compareNames,
  driverPath,
  isAddressableName,
  isSameOrInside,
  nameOf,
  parentOf,
  pathSegments,
} from '../../driver-path.ts';

/**
 * The SDK's logger. Failed commands are reported by the driver itself (as StorageErrors, with the
 * SDK error as cause), and a failed stream upload not being retried is expected; so only other
 * warnings reach the console.
 */
const SDK_LOGGER = {
  debug: (): void => undefined,
  info: (): void => undefined,
  warn: (...args: unknown[]): void => {
    if (!String(args[0]).includes('non-retryable streaming request')) console.warn(...args);
  },
  error: (): void => undefined,
};

function checkExpiry(expiresIn: number): void {
  if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0 || expiresIn > MAX_PRESIGN_SECONDS) {
    throw new RangeError('expiresIn must be 1 to 604800 seconds');
  }
}

/** CopySource wants the key URL-encoded, slashes kept. */
const encodeKey = (key: string): string => encodeURIComponent(key).replace(/%2F/g, '/');

/** Runs `fn` over `items`, at most `limit` at once. */
async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The caller's web stream as a Node stream held to `limit`, errors flowing through. */
function limitedBody(body: ReadableStream<Uint8Array>, limit: ByteLimit): Readable {
  const source = Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);
  return pipeline(source, limit, () => undefined);
}

/**
 * Presigned URLs lead to the bucket; copies are CopyObject / UploadPartCopy, inside the storage; a
 * move is a copy and a delete. ETags are S3's (MD5s on servers that do not encrypt with KMS).
 */
export const S3_CAPABILITIES: DriverCapabilities = {
  multipart: true,
  presignGet: true,
  presignPut: true,
  presignPart: true,
  directUrls: true,
  serverSideCopy: true,
  rename: false,
  rangeReads: true,
  etag: 'md5',
  contentType: true,
};

export class S3Driver implements StorageDriver {
  readonly kind = 's3' as const;
  readonly capabilities = S3_CAPABILITIES;
  readonly multipart: MultipartApi;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly clock: Clock;
  private readonly tuning: S3Tuning;
  private readonly socketTimeoutMs: number;

  constructor(private readonly config: S3DriverConfig) {
    const settings = resolveS3ClientSettings(config);
    // The SDK never retries a request whose body is a stream (it cannot be replayed); the rest
    // are retried with backoff up to the provider's attempt count.
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: settings.maxAttempts,
      // "Expect: 100-continue" lets a server refuse a big body before it is sent; for small ones
      // the extra round trip costs more than it saves.
      expectContinueHeader: MiB,
      logger: SDK_LOGGER,
      requestHandler: {
        connectionTimeout: CONNECT_TIMEOUT_MS,
        socketTimeout: settings.socketTimeoutMs,
        httpAgent: { keepAlive: true, maxSockets: 64 },
        httpsAgent: { keepAlive: true, maxSockets: 64 },
      },
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    });
    this.socketTimeoutMs = settings.socketTimeoutMs;
    this.bucket = config.bucket;
    const root = driverPath(config.rootPrefix ?? '');
    this.prefix = root === '/' ? '' : root.slice(1) + '/';
    this.clock = config.clock ?? systemClock;
    this.tuning = { ...DEFAULT_S3_TUNING, ...config.tuning };
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

  async close(): Promise<void> {
    this.client.destroy();
  }

  /**
   * Sends a request whose body is `stream`, aborting it the moment the stream fails (a body over its
   * size, a client gone): the HTTP request would otherwise wait for bytes that never come.
   */
  private async sendStreaming<T>(stream: Readable, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    const onError = (): void => abort.abort();
    stream.once('error', onError);
    if (stream.errored) abort.abort();
    try {
      return await send(abort.signal);
    } finally {
      stream.off('error', onError);
    }
  }

  // ---- keys ----------------------------------------------------------------------------------

  /** Object key of a (non-root) normalised path. */
  private key(path: string): string {
    return this.prefix + path.slice(1);
  }

  /** Prefix under which a directory's contents live ("" for the root of an un-prefixed bucket). */
  private dirPrefix(path: string): string {
    return path === '/' ? this.prefix : this.prefix + path.slice(1) + '/';
  }

  private async run<T>(op: string, path: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toStorageError(error, op, path);
    }
  }

  private async head(path: string) {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(path) }));
    } catch (error) {
      const mapped = toStorageError(error, 'stat', path);
      if (mapped instanceof StorageError && mapped.code === 'NOT_FOUND') return null;
      throw mapped;
    }
  }

  /** The first key under a directory's prefix, or null when nothing is below it (no marker either). */
  private async firstUnder(path: string) {
    const out = await this.run('stat', path, () =>
      this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.dirPrefix(path), MaxKeys: 1 }),
      ),
    );
    return out.Contents?.[0] ?? null;
  }

  /** Whether a directory marker (`dir/`) exists for `path`; the root always counts. */
  private async hasMarker(path: string): Promise<boolean> {
    if (path === '/') return true;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.dirPrefix(path) }));
      return true;
    } catch (error) {
      const mapped = toStorageError(error, 'write', path);
      if (mapped instanceof StorageError && mapped.code === 'NOT_FOUND') return false;
      throw mapped;
    }
  }

  private async isDirectory(path: string): Promise<boolean> {
    return path === '/' || (await this.firstUnder(path)) !== null;
  }

  private async kindOf(path: string): Promise<{ file: { size: number } } | 'directory' | null> {
    if (path === '/') return 'directory';
    const head = await this.head(path);
    if (head) return { file: { size: head.ContentLength ?? 0 } };
    return (await this.isDirectory(path)) ? 'directory' : null;
  }

  // ---- files and directories -----------------------------------------------------------------

  async stat(raw: string): Promise<Entry> {
    const path = driverPath(raw);
    const name = nameOf(path);
    if (path === '/') return { path, name, isDirectory: true, size: 0, modified: null };
    const head = await this.head(path);
    if (head) {
      const entry: Entry = {
        path,
        name,
        isDirectory: false,
        size: head.ContentLength ?? 0,
        modified: head.LastModified ?? null,
      };
      if (head.ETag) entry.etag = head.ETag;
      if (head.ContentType) entry.contentType = head.ContentType;
      return entry;
    }
    const first = await this.firstUnder(path);
    if (!first) throw new StorageError('NOT_FOUND', `${path} not found`);
    const marker = first.Key === this.dirPrefix(path);
    return { path, name, isDirectory: true, size: 0, modified: marker ? (first.LastModified ?? null) : null };
  }

  async list(raw: string, options: ListOptions = {}): Promise<ListPage> {
    const path = driverPath(raw);
    const prefix = this.dirPrefix(path);
    const limit = listLimit(options.limit);
    let token = options.cursor;
    let sawAnything = false;
    for (;;) {
      const out: ListObjectsV2CommandOutput = await this.run('list', path, () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            Delimiter: '/',
            MaxKeys: limit,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      const found: Array<{ key: string; entry: Entry }> = [];
      for (const object of out.Contents ?? []) {
        sawAnything = true;
        const name = object.Key!.slice(prefix.length);
        if (!isAddressableName(name)) continue; // the directory's own marker, or a key no path can name
        const entry: Entry = {
          path: (path === '/' ? '/' : path + '/') + name,
          name,
          isDirectory: false,
          size: object.Size ?? 0,
          modified: object.LastModified ?? null,
        };
        if (object.ETag) entry.etag = object.ETag;
        found.push({ key: object.Key!, entry });
      }
      for (const common of out.CommonPrefixes ?? []) {
        sawAnything = true;
        const name = common.Prefix!.slice(prefix.length, -1);
        if (!isAddressableName(name)) continue;
        const entry: Entry = {
          path: (path === '/' ? '/' : path + '/') + name,
          name,
          isDirectory: true,
          size: 0,
          modified: null,
        };
        found.push({ key: common.Prefix!, entry });
      }
      found.sort((a, b) => compareNames(a.key, b.key));
      const more = out.IsTruncated ? out.NextContinuationToken : undefined;
      // A page holding only the directory's marker: go on rather than hand back an empty page.
      if (found.length === 0 && more) {
        token = more;
        continue;
      }
      if (!sawAnything && options.cursor === undefined && path !== '/') {
        if (await this.head(path)) throw new StorageError('NOT_A_DIRECTORY', `${path} is a file`);
        throw new StorageError('NOT_FOUND', `${path} not found`);
      }
      const page: ListPage = { entries: found.map((f) => f.entry) };
      if (more) page.cursor = more;
      return page;
    }
  }

  async read(raw: string, options: ReadOptions = {}): Promise<ReadResult> {
    const path = driverPath(raw);
    if (path === '/') throw new StorageError('IS_A_DIRECTORY', 'the root is a directory');
    const wanted = options.range;
    if (wanted) checkRange(wanted);
    // The bytes come over a socket of our own (s3-get.ts: about half the CPU of the SDK's HTTP
    // client); any answer but a plain body is asked again through the SDK, which maps errors.
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: this.key(path) }),
      { expiresIn: READ_URL_SECONDS },
    );
    let answer;
    try {
      answer = await plainGet(new URL(url), {
        ...(wanted ? { range: wanted } : {}),
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        headTimeoutMs: this.socketTimeoutMs,
      });
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new StorageError('UNAVAILABLE', `read ${path}: ${reason}`, { cause: error });
    }
    if (!answer) return this.readThroughSdk(path, wanted);
    const { headers, contentLength } = answer;
    const lastModified = headers['last-modified'] ? new Date(headers['last-modified']) : undefined;
    const body = webBody(answer.body, {
      length: contentLength,
      ...(answer.release ? { release: answer.release } : {}),
    });
    return this.readResult(body, path, wanted, {
      contentLength,
      contentRange: headers['content-range'],
      etag: headers.etag,
      contentType: headers['content-type'],
      lastModified: lastModified && !Number.isNaN(lastModified.getTime()) ? lastModified : undefined,
    });
  }

  /** A read through the SDK, for answers the plain GET does not take (errors above all). */
  private async readThroughSdk(path: string, wanted: ReadOptions['range']): Promise<ReadResult> {
    let out;
    try {
      out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          ...(wanted ? { Range: `bytes=${wanted.start}-${wanted.end ?? ''}` } : {}),
        }),
      );
    } catch (error) {
      const mapped = toStorageError(error, 'read', path);
      if (mapped instanceof StorageError && mapped.code === 'NOT_FOUND' && (await this.isDirectory(path))) {
        throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
      }
      throw mapped;
    }
    const contentLength = out.ContentLength ?? 0;
    // In Node the body is the response itself; node-body.ts hands on its chunks without copying them.
    // No `length`: this path takes answers without one (chunked), and Node's client ends the body.
    const body =
      out.Body instanceof Readable
        ? webBody(out.Body)
        : ((out.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined) ??
          new ReadableStream({ start: (controller) => controller.close() }));
    return this.readResult(body, path, wanted, {
      contentLength,
      contentRange: out.ContentRange,
      etag: out.ETag,
      contentType: out.ContentType,
      lastModified: out.LastModified,
    });
  }

  private async readResult(
    body: ReadableStream<Uint8Array>,
    path: string,
    wanted: ReadOptions['range'],
    meta: {
      contentLength: number;
      contentRange: string | undefined;
      etag: string | undefined;
      contentType: string | undefined;
      lastModified: Date | undefined;
    },
  ): Promise<ReadResult> {
    const { contentLength } = meta;
    const span = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(meta.contentRange ?? '');
    const result: ReadResult = { body, size: span ? Number(span[3]) : contentLength, contentLength };
    if (wanted) {
      if (!span) {
        // The server ignored the range; serving the whole object in its place would corrupt the answer.
        await body.cancel();
        throw new StorageError('UNAVAILABLE', `read ${path}: the backend ignored the byte range`);
      }
      result.range = { start: Number(span[1]), end: Number(span[2]) };
    }
    if (meta.etag) result.etag = meta.etag;
    if (meta.contentType) result.contentType = meta.contentType;
    if (meta.lastModified) result.lastModified = meta.lastModified;
    return result;
  }

  async write(
    raw: string,
    body: ReadableStream<Uint8Array>,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    const path = driverPath(raw);
    // Only a directory with a marker is caught here: a HEAD is cheap, while listing the prefix on
    // every upload doubles the cost of small files (and contends with writes on the bucket index).
    if (await this.hasMarker(path)) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    const { size, contentType } = options;
    const limit = bodyLimit(size);
    const stream = limitedBody(body, limit);
    const key = this.key(path);
    try {
      if (size !== undefined && size <= this.tuning.singlePutMaxBytes) {
        const command = new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: stream,
          ContentLength: size,
          ...(contentType ? { ContentType: contentType } : {}),
        });
        const out = await this.sendStreaming(stream, (abortSignal) =>
          this.client.send(command, { abortSignal }),
        );
        return { size, ...(out.ETag ? { etag: out.ETag } : {}) };
      }
      return await this.writeInParts(path, stream, size, contentType);
    } catch (error) {
      stream.destroy();
      throw limit.failure ?? toStorageError(error, 'write', path);
    }
  }

  /**
   * Streams a body of unknown or large size as a multipart upload, holding at most two parts: the
   * one on the wire and the one being filled (reading waits while both are full). A body that ends
   * within its first part goes as one PutObject. On any failure (the body's, or the backend's) the
   * part on the wire is cancelled and the upload aborted: nothing is left behind.
   */
  private async writeInParts(
    path: string,
    stream: Readable,
    size: number | undefined,
    contentType: string | undefined,
  ): Promise<WriteResult> {
    const partSize = Math.max(this.tuning.partSize, Math.ceil((size ?? 0) / MULTIPART_LIMITS.maxParts));
    const abort = new AbortController();
    const parts: MultipartPart[] = [];
    const spare: Buffer[] = [];
    let uploadId: string | undefined;
    let count = 0;
    let sending: Promise<void> = Promise.resolve();
    let buffer: Buffer = Buffer.allocUnsafe(partSize);
    let filled = 0;

    /**
     * Once the part before is through (its buffer free again), puts the filled buffer on the wire
     * as the next part and starts filling a free one.
     */
    const sendBuffer = async (): Promise<void> => {
      await sending;
      const full = buffer;
      const body = full.subarray(0, filled);
      const partNumber = ++count;
      sending = (async () => {
        uploadId ??= await this.createUpload(path, contentType);
        const etag = await this.sendPart(path, uploadId, partNumber, body, abort.signal);
        parts.push({ partNumber, etag });
        spare.push(full);
      })();
      // Stop reading the body at once rather than at the next part boundary.
      sending.catch((error: unknown) => stream.destroy(error as Error));
      buffer = spare.pop() ?? Buffer.allocUnsafe(partSize);
      filled = 0;
    };

    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        for (let offset = 0; offset < chunk.length;) {
          const copied = chunk.copy(buffer, filled, offset);
          filled += copied;
          offset += copied;
          if (filled === partSize) await sendBuffer();
        }
      }
      if (count === 0) {
        const out = await this.run('write', path, () =>
          this.client.send(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: this.key(path),
              Body: buffer.subarray(0, filled),
              ContentLength: filled,
              ...(contentType ? { ContentType: contentType } : {}),
            }),
          ),
        );
        return { size: filled, ...(out.ETag ? { etag: out.ETag } : {}) };
      }
      if (filled > 0) await sendBuffer();
      await sending;
      return await this.multipartComplete(path, uploadId!, parts);
    } catch (error) {
      abort.abort();
      await sending.catch(() => undefined);
      if (uploadId) await this.multipartAbort(path, uploadId).catch(() => undefined);
      throw error;
    }
  }

  private async putMarker(path: string): Promise<void> {
    await this.run('mkdir', path, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.dirPrefix(path),
          Body: new Uint8Array(0),
          ContentLength: 0,
          ContentType: 'application/x-directory',
        }),
      ),
    );
  }

  async mkdir(raw: string): Promise<void> {
    const path = driverPath(raw);
    if ((await this.kindOf(path)) !== null) {
      throw new StorageError('ALREADY_EXISTS', `${path} already exists`);
    }
    // A file where a parent directory should be: refuse, as a file system would.
    const segments = pathSegments(path);
    const ancestors = segments.slice(0, -1).map((_, i) => '/' + segments.slice(0, i + 1).join('/'));
    const heads = await Promise.all(ancestors.map((ancestor) => this.head(ancestor)));
    if (heads.some(Boolean)) throw new StorageError('NOT_A_DIRECTORY', `a parent of ${path} is a file`);
    await this.putMarker(path);
  }

  /** Keeps a directory that just lost its last entry, as a file system would. */
  private async keepDirectory(path: string): Promise<void> {
    if (path === '/' || (await this.firstUnder(path))) return;
    await this.putMarker(path);
  }

  /** Deletes every key under a prefix, a thousand per request. */
  private async removePrefix(path: string): Promise<void> {
    const prefix = this.dirPrefix(path);
    for (;;) {
      // Always list from the start: what was deleted is gone, so each round sees the next keys.
      const out = await this.run('remove', path, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1000 })),
      );
      const keys = (out.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (keys.length === 0) return;
      const result = await this.run('remove', path, () =>
        this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        ),
      );
      const failed = result.Errors?.[0];
      if (failed) {
        throw toStorageError(
          { name: failed.Code, $metadata: { httpStatusCode: failed.Code === 'AccessDenied' ? 403 : 500 } },
          'remove',
          path,
        );
      }
      if (!out.IsTruncated) return;
    }
  }

  async remove(raw: string, options: { recursive?: boolean } = {}): Promise<void> {
    const path = driverPath(raw);
    if (path === '/') throw new StorageError('INVALID_PATH', 'the root cannot be removed');
    if (await this.head(path)) {
      await this.run('remove', path, () =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(path) })),
      );
    } else {
      const prefix = this.dirPrefix(path);
      const out = await this.run('remove', path, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 2 })),
      );
      const keys = out.Contents ?? [];
      if (keys.length === 0) throw new StorageError('NOT_FOUND', `${path} not found`);
      if (!options.recursive && keys.some((object) => object.Key !== prefix)) {
        throw new StorageError('PRECONDITION_FAILED', `${path} is not empty`);
      }
      await this.removePrefix(path);
    }
    await this.keepDirectory(parentOf(path));
  }

  /** Shared checks of copy and move; returns the source's kind. */
  private async transferPlan(rawFrom: string, rawTo: string) {
    const from = driverPath(rawFrom);
    const to = driverPath(rawTo);
    if (isSameOrInside(from, to)) {
      throw new StorageError('INVALID_PATH', `cannot copy or move ${from} onto or into itself`);
    }
    const [source, target] = await Promise.all([this.kindOf(from), this.kindOf(to)]);
    if (!source) throw new StorageError('NOT_FOUND', `${from} not found`);
    if (target && (source === 'directory' || target === 'directory')) {
      throw new StorageError('ALREADY_EXISTS', `${to} already exists`);
    }
    return { from, to, source };
  }

  async copy(rawFrom: string, rawTo: string): Promise<void> {
    const { from, to, source } = await this.transferPlan(rawFrom, rawTo);
    if (source === 'directory') await this.copyTree(from, to);
    else await this.copyObject(this.key(from), this.key(to), source.file.size, from);
  }

  async move(rawFrom: string, rawTo: string): Promise<void> {
    const { from, to, source } = await this.transferPlan(rawFrom, rawTo);
    if (source === 'directory') {
      await this.copyTree(from, to);
      await this.removePrefix(from);
    } else {
      await this.copyObject(this.key(from), this.key(to), source.file.size, from);
      await this.run('move', from, () =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(from) })),
      );
    }
    await this.keepDirectory(parentOf(from));
  }

  /** Copies every key under `from/` (its marker included) to the same place under `to/`, page by page. */
  private async copyTree(from: string, to: string): Promise<void> {
    const source = this.dirPrefix(from);
    const target = this.dirPrefix(to);
    let token: string | undefined;
    do {
      const out: ListObjectsV2CommandOutput = await this.run('copy', from, () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: source,
            MaxKeys: 1000,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      await forEachLimit(out.Contents ?? [], this.tuning.concurrency, (object) =>
        this.copyObject(object.Key!, target + object.Key!.slice(source.length), object.Size ?? 0, from),
      );
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  /** One object; above `copyMaxBytes` (S3's 5 GiB CopyObject limit) as a multipart copy. */
  private async copyObject(sourceKey: string, targetKey: string, size: number, path: string): Promise<void> {
    const copySource = `${this.bucket}/${encodeKey(sourceKey)}`;
    if (size <= this.tuning.copyMaxBytes) {
      await this.run('copy', path, () =>
        this.client.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: targetKey,
            CopySource: copySource,
            MetadataDirective: 'COPY',
          }),
        ),
      );
      return;
    }
    const head = await this.run('copy', path, () =>
      this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: sourceKey })),
    );
    const { UploadId } = await this.run('copy', path, () =>
      this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: targetKey,
          ...(head.ContentType ? { ContentType: head.ContentType } : {}),
        }),
      ),
    );
    const partSize = Math.max(this.tuning.copyPartSize, Math.ceil(size / MULTIPART_LIMITS.maxParts));
    const ranges = Array.from({ length: Math.ceil(size / partSize) }, (_, i) => ({
      partNumber: i + 1,
      start: i * partSize,
      end: Math.min((i + 1) * partSize, size) - 1,
    }));
    const parts: MultipartPart[] = [];
    try {
      await forEachLimit(ranges, 4, async ({ partNumber, start, end }) => {
        const out = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: targetKey,
            UploadId,
            PartNumber: partNumber,
            CopySource: copySource,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ partNumber, etag: out.CopyPartResult?.ETag ?? '' });
      });
      parts.sort((a, b) => a.partNumber - b.partNumber);
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: targetKey,
          UploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: targetKey, UploadId }))
        .catch(() => undefined);
      throw toStorageError(error, 'copy', path);
    }
  }

  // ---- multipart ------------------------------------------------------------------------------

  /** The bucket's unfinished uploads below the root prefix (a page of ListMultipartUploads at a time). */
  private async multipartListUploads(limit: number): Promise<PendingUpload[]> {
    const found: PendingUpload[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.run('list uploads', '/', () =>
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.prefix,
            MaxUploads: Math.min(1000, limit - found.length),
            ...(keyMarker ? { KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker } : {}),
          }),
        ),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key?.startsWith(this.prefix) || !upload.UploadId) continue;
        const path = `/${upload.Key.slice(this.prefix.length)}`;
        found.push({ path, uploadId: upload.UploadId, initiated: upload.Initiated ?? new Date(0) });
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.NextUploadIdMarker;
    } while (keyMarker && found.length < limit);
    return found;
  }

  private async multipartInit(raw: string, contentType?: string): Promise<{ uploadId: string }> {
    const path = driverPath(raw);
    if (await this.isDirectory(path)) throw new StorageError('IS_A_DIRECTORY', `${path} is a directory`);
    return { uploadId: await this.createUpload(path, contentType) };
  }

  private async createUpload(path: string, contentType: string | undefined): Promise<string> {
    const out = await this.run('multipart init', path, () =>
      this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          ...(contentType ? { ContentType: contentType } : {}),
        }),
      ),
    );
    if (!out.UploadId) throw new StorageError('UNAVAILABLE', `multipart init ${path}: no upload id`);
    return out.UploadId;
  }

  /** One part; its ETag. A stream body needs its exact length; a buffer is sent (and retried) whole. */
  private async sendPart(
    path: string,
    uploadId: string,
    partNumber: number,
    body: Readable | Uint8Array,
    abortSignal: AbortSignal,
    size: number = (body as Uint8Array).byteLength,
  ): Promise<string> {
    const out = await this.run('upload part', path, () =>
      this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: body,
          ContentLength: size,
        }),
        { abortSignal },
      ),
    );
    return out.ETag ?? '';
  }

  private async multipartUploadPart(
    raw: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    size: number,
  ): Promise<{ etag: string }> {
    const path = driverPath(raw);
    checkPartNumber(partNumber);
    checkPartSize(size);
    const limit = new ByteLimit(size, true);
    const stream = limitedBody(body, limit);
    try {
      const etag = await this.sendStreaming(stream, (abortSignal) =>
        this.sendPart(path, uploadId, partNumber, stream, abortSignal, size),
      );
      return { etag };
    } catch (error) {
      stream.destroy();
      throw limit.failure ?? toStorageError(error, 'upload part', path);
    }
  }

  private async multipartComplete(
    raw: string,
    uploadId: string,
    parts: MultipartPart[],
  ): Promise<WriteResult> {
    const path = driverPath(raw);
    if (!Array.isArray(parts) || parts.length === 0) {
      throw new StorageError('PRECONDITION_FAILED', 'no parts given');
    }
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (error) {
      const mapped = toStorageError(error, 'complete', path);
      // rgw answers 500 for an aborted upload; ListParts tells that apart from a real outage.
      if (mapped instanceof StorageError && mapped.code === 'UNAVAILABLE') {
        await this.multipartListParts(path, uploadId);
      }
      throw mapped;
    }
    const head = await this.head(path);
    if (!head) throw new StorageError('NOT_FOUND', `${path} vanished after completing its upload`);
    return { size: head.ContentLength ?? 0, ...(head.ETag ? { etag: head.ETag } : {}) };
  }

  private async multipartAbort(raw: string, uploadId: string): Promise<void> {
    const path = driverPath(raw);
    await this.run('abort', path, () =>
      this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key(path), UploadId: uploadId }),
      ),
    );
  }

  private async multipartListParts(raw: string, uploadId: string): Promise<MultipartPartInfo[]> {
    const path = driverPath(raw);
    const parts: MultipartPartInfo[] = [];
    let marker: string | undefined;
    for (;;) {
      const out = await this.run('list parts', path, () =>
        this.client.send(
          new ListPartsCommand({
            Bucket: this.bucket,
            Key: this.key(path),
            UploadId: uploadId,
            ...(marker ? { PartNumberMarker: marker } : {}),
          }),
        ),
      );
      for (const part of out.Parts ?? []) {
        parts.push({ partNumber: part.PartNumber ?? 0, etag: part.ETag ?? '', size: part.Size ?? 0 });
      }
      if (!out.IsTruncated || !out.NextPartNumberMarker) return parts;
      marker = out.NextPartNumberMarker;
    }
  }

  // ---- URLs -----------------------------------------------------------------------------------

  async presignGet(raw: string, options: PresignGetOptions): Promise<URL> {
    const path = driverPath(raw);
    checkExpiry(options.expiresIn);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.key(path),
      ResponseContentDisposition: contentDisposition(
        options.disposition ?? 'attachment',
        options.filename ?? nameOf(path),
      ),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
    });
    return new URL(
      await getSignedUrl(this.client, command, {
        expiresIn: options.expiresIn,
        signingDate: this.clock.now(),
      }),
    );
  }

  async presignPut(raw: string, options: PresignPutOptions): Promise<URL> {
    const path = driverPath(raw);
    checkExpiry(options.expiresIn);
    if (!Number.isSafeInteger(options.size) || options.size < 0) {
      throw new RangeError('size must be a byte count');
    }
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.key(path),
      ContentType: options.contentType,
      ContentLength: options.size,
    });
    // Content-Length is signed by default; Content-Type only when asked, and we want both enforced.
    const url = await getSignedUrl(this.client, command, {
      expiresIn: options.expiresIn,
      signingDate: this.clock.now(),
      signableHeaders: new Set(['content-type']),
    });
    return new URL(url);
  }

  async presignPart(
    raw: string,
    uploadId: string,
    partNumber: number,
    options: PresignPartOptions,
  ): Promise<URL> {
    const path = driverPath(raw);
    checkExpiry(options.expiresIn);
    checkPartNumber(partNumber);
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: this.key(path),
      UploadId: uploadId,
      PartNumber: partNumber,
      ...(options.size === undefined ? {} : { ContentLength: options.size }),
    });
    return new URL(
      await getSignedUrl(this.client, command, {
        expiresIn: options.expiresIn,
        signingDate: this.clock.now(),
      }),
    );
  }

  /**
   * The unsigned URL of an object under the config's custom host (a public bucket or CDN), or
   * undefined without one. It never expires and cannot force a download name, so it suits only
   * public content; presignGet stays the way to hand out private files.
   */
  publicUrl(raw: string): URL | undefined {
    if (!this.config.customHost) return undefined;
    const path = driverPath(raw);
    return new URL(`${this.config.customHost.replace(/\/+$/, '')}/${encodeKey(this.key(path))}`);
  }
}

export function createS3Driver(config: S3DriverConfig): S3Driver {
  return new S3Driver(config);
}
