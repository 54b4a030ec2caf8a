/**
 * The storage driver contract (docs/architecture.md, "Drivers"): what every backend (local disk,
 * S3-compatible, and in memory for tests) offers to the vfs, the shared types, and the one error type
 * drivers throw. A driver works on normalised sub-paths inside its storage config ("/photos/a.jpg";
 * "/" is the config's root) and knows nothing of HTTP, users or mounts. Bytes always travel as web
 * streams, never whole buffers.
 *
 * The behaviour every driver must show is pinned down by the contract suite in
 * test/storage/contract.ts; the notes below say what the types cannot.
 */
import type { StorageConfigView, StorageField, StorageType } from '@cubby/shared';
import type { Clock } from '../lib/clock.ts';

export const STORAGE_ERROR_CODES = [
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'NOT_A_DIRECTORY',
  'IS_A_DIRECTORY',
  'INVALID_PATH',
  'PRECONDITION_FAILED',
  /** A body larger than allowed: its declared size, a part's limit, the file system's largest file. */
  'TOO_LARGE',
  /** The storage has no room left (a full disk, a bucket's own quota). */
  'NO_SPACE',
  /** The backend cannot be reached or refuses our configuration (connection, DNS, timeout, missing bucket). */
  'UNAVAILABLE',
  /** The backend refused the credentials or the operation (403, bad signature, unknown access key). */
  'FORBIDDEN',
  'INVALID_RANGE',
] as const;

export type StorageErrorCode = (typeof STORAGE_ERROR_CODES)[number];

/**
 * The only error a driver throws on purpose. The message is for logs: it names the operation and
 * the path but never a credential; the backend's own error stays in `cause`.
 */
export class StorageError extends Error {
  /** Why, when a driver can tell more than the code (the storage test words each reason). */
  readonly reason?: StorageErrorReason;

  constructor(
    readonly code: StorageErrorCode,
    message: string = code,
    options?: { cause?: unknown; reason?: StorageErrorReason },
  ) {
    super(message, options);
    this.name = 'StorageError';
    if (options?.reason) this.reason = options.reason;
  }
}

/**
 * What went wrong, finer than the code, where the backend says (the storage test's messages):
 * - `unreachable`: no connection (refused, DNS, timeout);
 * - `auth`: the username, password or key was refused;
 * - `host_key`: the server's host key is not the pinned one (SFTP);
 * - `tls`: the TLS handshake failed (a bad or self-signed certificate, no TLS on the server);
 * - `permission`: signed in, but the operation was refused;
 * - `folder_missing`: the configured root folder does not exist.
 */
export const STORAGE_ERROR_REASONS = [
  'unreachable',
  'auth',
  'host_key',
  'tls',
  'permission',
  'folder_missing',
] as const;
export type StorageErrorReason = (typeof STORAGE_ERROR_REASONS)[number];

export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof StorageError && (code === undefined || error.code === code);
}

export interface Entry {
  /** Normalised driver path, e.g. "/docs/a.txt"; the root is "/". */
  path: string;
  /** Last path segment ("" for the root). */
  name: string;
  isDirectory: boolean;
  /** Bytes; 0 for directories. */
  size: number;
  /** Null when the backend does not know (an S3 prefix without a directory marker). */
  modified: Date | null;
  /** Quoted strong entity tag, ready for an HTTP `ETag` header; files only. */
  etag?: string;
  /** Only where the backend stores one (S3 `stat`/`read`); never guessed from the name here. */
  contentType?: string;
}

export interface ListOptions {
  /** Opaque cursor from the previous page. */
  cursor?: string;
  /** Entries per page, 1–1000 (default 1000). */
  limit?: number;
}

export interface ListPage {
  /** Directories and files in byte order of their UTF-8 names; hidden driver internals never appear. */
  entries: Entry[];
  /** Present when more entries remain. */
  cursor?: string;
}

/** A byte range as in HTTP: `end` is inclusive and defaults to the last byte; an end past the object is clamped. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ReadOptions {
  range?: ByteRange;
}

export interface ReadResult {
  body: ReadableStream<Uint8Array>;
  /** Size of the whole object, whatever range was read. */
  size: number;
  /** Bytes in `body`. */
  contentLength: number;
  /** The satisfied range (inclusive), present when a range was asked for. */
  range?: { start: number; end: number };
  etag?: string;
  contentType?: string;
  lastModified?: Date;
}

export interface WriteOptions {
  /**
   * Exact byte count the body will deliver, when known. A body that delivers more fails with
   * TOO_LARGE, one that delivers less with PRECONDITION_FAILED; nothing is stored in either case.
   */
  size?: number;
  contentType?: string;
}

export interface WriteResult {
  etag?: string;
  size: number;
}

export interface MultipartPart {
  partNumber: number;
  etag: string;
}

export interface MultipartPartInfo extends MultipartPart {
  size: number;
}

/**
 * S3-style multipart uploads, with S3's rules on every driver: part numbers 1–10000, every part but
 * the last at least 5 MiB (checked on `complete`, PRECONDITION_FAILED), parts listed in ascending order
 * with the ETags `uploadPart` returned. An unknown, aborted or completed upload id is NOT_FOUND,
 * and so is an upload id used with another path.
 */
export interface MultipartApi {
  init(path: string, options?: { contentType?: string }): Promise<{ uploadId: string }>;
  uploadPart(
    path: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    options: { size: number },
  ): Promise<{ etag: string }>;
  /** The returned etag is the one `stat` reports afterwards. */
  complete(path: string, uploadId: string, parts: MultipartPart[]): Promise<WriteResult>;
  abort(path: string, uploadId: string): Promise<void>;
  listParts(path: string, uploadId: string): Promise<MultipartPartInfo[]>;
  /**
   * Every upload begun and neither completed nor aborted (at most `limit`), with when it began: what
   * the orphan job checks against the ledger, since a crashed process leaves its uploads behind.
   */
  listUploads(limit: number): Promise<PendingUpload[]>;
}

/** An unfinished multipart upload, as `listUploads` reports it. */
export interface PendingUpload {
  path: string;
  uploadId: string;
  initiated: Date;
}

export interface PresignGetOptions {
  /** Seconds the URL stays valid. */
  expiresIn: number;
  /** Name offered to the browser (defaults to the path's last segment). */
  filename?: string;
  /** Default "attachment". */
  disposition?: 'inline' | 'attachment';
  /** Content-Type the answer carries. */
  contentType?: string;
}

export interface PresignPutOptions {
  expiresIn: number;
  /** The uploader must send exactly this Content-Type. */
  contentType: string;
  /** The uploader must send exactly this many bytes; more is refused and nothing is stored. */
  size: number;
}

export interface PresignPartOptions {
  expiresIn: number;
  /** When given, the part must be exactly this many bytes. */
  size?: number;
}

/**
 * What a driver can do beyond the calls every driver has: callers ask these, never which backend it
 * is. The contract suite (test/storage/contract.ts) checks every declaration against what the
 * driver really does.
 */
export interface DriverCapabilities {
  /** `multipart` works, with S3's rules (see MultipartApi). */
  readonly multipart: boolean;
  /** `presignGet` exists: a plain GET downloads the file, Range included. */
  readonly presignGet: boolean;
  /** `presignPut` exists: a browser can PUT a whole file. */
  readonly presignPut: boolean;
  /** `presignPart` exists: a browser can PUT the parts of a multipart upload. */
  readonly presignPart: boolean;
  /**
   * Presigned URLs lead to the storage itself, so their bytes never pass through this server (S3);
   * false when they come back to it (local disk's signed routes).
   */
  readonly directUrls: boolean;
  /** `copy` happens inside the storage: the bytes do not stream through this process. */
  readonly serverSideCopy: boolean;
  /** `move` is one rename: atomic, instant whatever the size, the file's modification time kept. */
  readonly rename: boolean;
  /** `read` serves a byte range without reading what comes before it. */
  readonly rangeReads: boolean;
  /**
   * What a file's ETag is: `md5` is S3's (the MD5 of the bytes; after a multipart upload the MD5
   * of the parts' MD5s and `-<parts>`), so equal bytes written alone have equal ETags; `version`
   * changes with every write, even of the same bytes.
   */
  readonly etag: 'md5' | 'version';
  /** The content type given to `write` or `multipart.init` is stored and reported back. */
  readonly contentType: boolean;
}

export interface StorageDriver {
  /** `memory` is the in-process driver the fast tests run on (docs/testing.md). */
  readonly kind: 'local' | 's3' | 'webdav' | 'sftp' | 'ftp' | 'memory';

  /** What this driver can do; the same for every instance of its kind. */
  readonly capabilities: DriverCapabilities;

  /** NOT_FOUND when nothing is there. The root always exists. */
  stat(path: string): Promise<Entry>;

  /** NOT_FOUND for a missing directory, NOT_A_DIRECTORY for a file. */
  list(dir: string, options?: ListOptions): Promise<ListPage>;

  /** IS_A_DIRECTORY for a directory; INVALID_RANGE for a range that cannot be satisfied. */
  read(path: string, options?: ReadOptions): Promise<ReadResult>;

  /**
   * Streams `body` into `path`, replacing a file that is there and creating missing parent
   * directories. Readers see the old content or the new, never a partial file.
   * IS_A_DIRECTORY when `path` is a directory (on S3: one made by `mkdir`, i.e. with a marker; a
   * prefix that only exists through the keys below it is not checked, to keep uploads at one request).
   */
  write(path: string, body: ReadableStream<Uint8Array>, options?: WriteOptions): Promise<WriteResult>;

  /** Creates the directory and missing parents; ALREADY_EXISTS when anything is at `path`. */
  mkdir(path: string): Promise<void>;

  /**
   * Removes a file, or a directory with everything below it when `recursive`. Without it, only an
   * empty directory goes (PRECONDITION_FAILED otherwise). The parent directory stays. The root
   * cannot be removed (INVALID_PATH).
   */
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;

  /**
   * Copies a file or a whole directory to `to` (the new full path). A file replaces a file at `to`;
   * ALREADY_EXISTS when a directory is involved on either side and `to` exists; INVALID_PATH when `to`
   * is `from` or lies inside it.
   */
  copy(from: string, to: string): Promise<void>;

  /** As `copy`, then the source is gone. Not atomic for directories on S3. */
  move(from: string, to: string): Promise<void>;

  readonly multipart: MultipartApi;

  /** A URL that downloads the file with a plain GET until it expires (Range works). */
  presignGet?(path: string, options: PresignGetOptions): Promise<URL>;
  /** A URL a browser can PUT the whole file to (CORS allowed, ETag readable). */
  presignPut?(path: string, options: PresignPutOptions): Promise<URL>;
  /** A URL a browser can PUT one part of a multipart upload to; the answer's ETag goes to `complete`. */
  presignPart?(path: string, uploadId: string, partNumber: number, options: PresignPartOptions): Promise<URL>;

  /**
   * The room the storage itself has left (a disk's free blocks), beside any quota the app keeps;
   * absent where the storage does not say (a bucket).
   */
  space?(): Promise<{ totalBytes: number; freeBytes: number }>;

  /** Removes what crashed writes left behind (temp files) older than `maxAgeMs`; returns how many. */
  sweepTemp?(maxAgeMs: number): Promise<number>;

  /**
   * The server's host key as last seen (`SHA256:<base64>`, as OpenSSH prints it), for drivers that
   * pin one (SFTP): the storage test pins it on the config when none is pinned yet.
   */
  hostKey?(): string | undefined;

  /** Releases sockets and other resources. */
  close?(): Promise<void>;
}

/** S3's multipart limits, which every driver applies so that the app behaves the same on each. */
export const MULTIPART_LIMITS = {
  minPartSize: 5 * 1024 * 1024,
  maxPartSize: 5 * 1024 * 1024 * 1024,
  maxParts: 10_000,
} as const;

/** Default and maximum page size of `list` (S3's own maximum). */
export const MAX_LIST_LIMIT = 1000;

/** The page size a `list` call gets: its `limit` within 1–1000, 1000 when absent or not a number. */
export function listLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return MAX_LIST_LIMIT;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_LIST_LIMIT);
}

/** What the registry hands every driver it builds, besides the config's own settings. */
export interface DriverDeps {
  /** The storage config's id (local disk's presigned URLs name it). */
  configId: string;
  /** This server's public origin with any path prefix, for URLs that come back to it. */
  publicBaseUrl: string;
  /** The server secret URLs that come back to it are signed with. */
  signingSecret: string;
  clock?: Clock;
}

/**
 * One kind of storage as the registry (storage/registry.ts) knows it: its storage type as
 * CloudPaste 1.9 spells it, the `driver` its configs store, the fields its settings form shows
 * (packages/shared/src/storage-fields.ts), what it can do, and how to build it.
 */
export interface DriverType<Settings, Secrets> {
  readonly type: StorageType;
  readonly driver: StorageConfigView['driver'];
  readonly fields: readonly StorageField[];
  readonly capabilities: DriverCapabilities;
  /** A ready driver for a config's stored settings and its opened secrets (undefined for none). */
  create(settings: Settings, secrets: Secrets, deps: DriverDeps): StorageDriver;
}
