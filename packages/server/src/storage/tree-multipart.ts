/**
 * Multipart uploads for drivers whose storage is a plain file tree on another server (WebDAV, SFTP,
 * FTP): S3's rules (storage/multipart-rules.ts) kept with files in the storage itself, so an upload
 * begun through one instance can go on through another, and survives a restart of this server
 * (docs/architecture.md, "Drivers").
 *
 * An upload is a folder `/.cubby.multipart/<uploadId>/` (the driver hides such names, and a Cubby
 * behind /dav takes them: storage/driver-names.ts) with
 * `meta.json` (the target path, when it began, its content type) and its parts. A part's bytes go
 * to `p<nnnnn>-<random>.bin`; once they are all there, an empty marker `p<nnnnn>-<random>.<md5>`
 * says the part is whole and carries its ETag, and older copies of that part number go. So a part
 * cut off halfway is never listed, and a part sent again replaces the first. Completing streams the
 * parts in order into one write of the driver's (the bytes pass through this server: the storage has
 * no way to join files), then removes the folder.
 *
 * Older versions kept uploads in `/.cubby-multipart`; an upload not found in the new folder is
 * looked for there, so one begun before an upgrade can still be finished, listed and expired.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../lib/clock.ts';
import {
  type MultipartApi,
  type MultipartPart,
  type MultipartPartInfo,
  type PendingUpload,
  StorageError,
  type WriteResult,
  isStorageError,
} from './driver.ts';
import { checkCompleteParts, checkPartNumber, checkPartSize } from './multipart-rules.ts';
import { RESERVED_PREFIX, TREE_PREFIX } from './driver-names.ts';

/**
 * The raw file operations a driver lends its multipart uploads: paths relative to the driver's
 * root, all below {@link MULTIPART_FOLDER}, never checked against the rules of user paths.
 */
export interface PartFiles {
  /** Streams exactly `size` bytes into `path`, replacing what is there. */
  writeFile(path: string, body: ReadableStream<Uint8Array>, size: number): Promise<void>;
  readFile(path: string): Promise<ReadableStream<Uint8Array>>;
  /** The entries of a folder; NOT_FOUND when it is missing. */
  listFiles(dir: string): Promise<Array<{ name: string; size: number; isDirectory: boolean }>>;
  /** Creates the folder and its missing parents; nothing happens when it exists. */
  mkdirs(path: string): Promise<void>;
  /** Removes a file or a folder with everything in it; nothing happens when it is missing. */
  removeTree(path: string): Promise<void>;
}

export interface TreeMultipartDeps {
  files: PartFiles;
  clock: Clock;
  /** The driver's own write, for a completed upload: `body` delivers exactly `size` bytes. */
  write(
    path: string,
    body: ReadableStream<Uint8Array>,
    options: { size: number; contentType?: string },
  ): Promise<WriteResult>;
  /**
   * Checks a user path as every call of the driver does (INVALID_PATH, hidden names) and that it is
   * not a directory (IS_A_DIRECTORY); returns it normalised.
   */
  checkTarget(path: string): Promise<string>;
}

export const MULTIPART_FOLDER = `/${TREE_PREFIX}multipart`;
/** Where older versions kept uploads (a Cubby behind /dav refuses it: any failure there is "not there"). */
export const LEGACY_MULTIPART_FOLDER = `/${RESERVED_PREFIX}multipart`;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const PART_FILE = /^p(\d{5})-([0-9a-f]{16})\.(bin|[0-9a-f]{32})$/;
const META_MAX = 64 * 1024;

interface UploadMeta {
  path: string;
  created: string;
  contentType?: string;
}

interface StoredPart extends MultipartPartInfo {
  /** The part's bytes, below the upload's folder. */
  file: string;
}

const unknownUpload = (cause?: unknown) => new StorageError('NOT_FOUND', 'unknown upload', { cause });

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function readSmall(body: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > META_MAX) throw new StorageError('PRECONDITION_FAILED', 'upload metadata too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The parts' files one after another, as one stream read as it is consumed. */
function concatenated(files: PartFiles, paths: string[]): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          const path = paths[index++];
          if (path === undefined) return controller.close();
          reader = (await files.readFile(path)).getReader();
        }
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        reader = undefined;
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

export function treeMultipart(deps: TreeMultipartDeps): MultipartApi {
  const { files } = deps;
  async function readMeta(folder: string): Promise<UploadMeta> {
    try {
      return JSON.parse(await readSmall(await files.readFile(`${folder}/meta.json`))) as UploadMeta;
    } catch (error) {
      if (isStorageError(error, 'NOT_FOUND') || error instanceof SyntaxError) throw unknownUpload(error);
      throw error;
    }
  }

  /** An upload's folder and metadata: in the folder of today, else in the one of older versions. */
  async function located(uploadId: string): Promise<{ folder: string; meta: UploadMeta }> {
    const folder = `${MULTIPART_FOLDER}/${uploadId}`;
    try {
      return { folder, meta: await readMeta(folder) };
    } catch (error) {
      if (!isStorageError(error, 'NOT_FOUND')) throw error;
      const legacy = `${LEGACY_MULTIPART_FOLDER}/${uploadId}`;
      const meta = await readMeta(legacy).catch(() => {
        throw error;
      });
      return { folder: legacy, meta };
    }
  }

  /** The upload's folder and metadata, when `uploadId` is one of ours and was begun for `path`. */
  async function upload(
    path: string,
    uploadId: string,
    target?: string,
  ): Promise<{ folder: string; meta: UploadMeta }> {
    if (typeof uploadId !== 'string' || !UPLOAD_ID.test(uploadId)) throw unknownUpload();
    const normalised = target ?? (await deps.checkTarget(path).catch(() => null));
    const found = await located(uploadId);
    if (normalised === null || found.meta.path !== normalised) throw unknownUpload();
    return found;
  }

  /** The whole parts of the upload in `folder` by number, the newest copy of each. */
  async function storedParts(folder: string): Promise<Map<number, StoredPart>> {
    let entries;
    try {
      entries = await files.listFiles(folder);
    } catch (error) {
      if (isStorageError(error, 'NOT_FOUND')) throw unknownUpload(error);
      throw error;
    }
    const sizes = new Map<string, number>();
    const markers: Array<{ number: number; stem: string; md5: string }> = [];
    for (const entry of entries) {
      const match = PART_FILE.exec(entry.name);
      if (!match || entry.isDirectory) continue;
      const stem = `p${match[1]}-${match[2]}`;
      if (match[3] === 'bin') sizes.set(stem, entry.size);
      else markers.push({ number: Number(match[1]), stem, md5: match[3]! });
    }
    const parts = new Map<number, StoredPart>();
    for (const { number, stem, md5 } of markers.sort((a, b) => (a.stem < b.stem ? -1 : 1))) {
      const size = sizes.get(stem);
      if (size === undefined) continue;
      parts.set(number, { partNumber: number, etag: `"${md5}"`, size, file: `${stem}.bin` });
    }
    return parts;
  }

  return {
    async init(path, options) {
      const target = await deps.checkTarget(path);
      const uploadId = randomBytes(16).toString('hex');
      const meta: UploadMeta = { path: target, created: deps.clock.now().toISOString() };
      if (options?.contentType !== undefined) meta.contentType = options.contentType;
      const bytes = Buffer.from(JSON.stringify(meta));
      const folder = `${MULTIPART_FOLDER}/${uploadId}`;
      await files.mkdirs(folder);
      await files.writeFile(`${folder}/meta.json`, streamOf(bytes), bytes.length);
      return { uploadId };
    },

    async uploadPart(path, uploadId, partNumber, body, options) {
      checkPartNumber(partNumber);
      checkPartSize(options.size);
      const { folder } = await upload(path, uploadId);
      // The stem sorts by time, so the newest copy of a part number wins in storedParts.
      const stem = `p${String(partNumber).padStart(5, '0')}-${Date.now().toString(16).padStart(11, '0')}${randomBytes(3).toString('hex').slice(0, 5)}`;
      const hash = createHash('md5');
      const hashed = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            hash.update(chunk);
            controller.enqueue(chunk);
          },
        }),
      );
      try {
        await files.writeFile(`${folder}/${stem}.bin`, hashed, options.size);
      } catch (error) {
        await files.removeTree(`${folder}/${stem}.bin`).catch(() => undefined);
        throw error;
      }
      const md5 = hash.digest('hex');
      // Aborted meanwhile: the marker would bring the folder back.
      await readMeta(folder);
      await files.writeFile(`${folder}/${stem}.${md5}`, streamOf(new Uint8Array(0)), 0);
      const prefix = `p${String(partNumber).padStart(5, '0')}-`;
      for (const entry of await files.listFiles(folder).catch(() => [])) {
        if (entry.name.startsWith(prefix) && !entry.name.startsWith(stem)) {
          await files.removeTree(`${folder}/${entry.name}`).catch(() => undefined);
        }
      }
      return { etag: `"${md5}"` };
    },

    async listParts(path, uploadId) {
      const { folder } = await upload(path, uploadId);
      return [...(await storedParts(folder)).values()]
        .sort((a, b) => a.partNumber - b.partNumber)
        .map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
    },

    async complete(path: string, uploadId: string, parts: MultipartPart[]) {
      const target = await deps.checkTarget(path);
      const { folder, meta } = await upload(path, uploadId, target);
      const chosen = checkCompleteParts(parts, await storedParts(folder));
      const size = chosen.reduce((sum, part) => sum + part.size, 0);
      const body = concatenated(
        files,
        chosen.map((part) => `${folder}/${part.file}`),
      );
      const written = await deps.write(target, body, {
        size,
        ...(meta.contentType === undefined ? {} : { contentType: meta.contentType }),
      });
      await files.removeTree(folder);
      return written;
    },

    async abort(path, uploadId) {
      const { folder } = await upload(path, uploadId);
      await files.removeTree(folder);
    },

    async listUploads(limit): Promise<PendingUpload[]> {
      const found: PendingUpload[] = [];
      for (const base of [MULTIPART_FOLDER, LEGACY_MULTIPART_FOLDER]) {
        let entries;
        try {
          entries = await files.listFiles(base);
        } catch (error) {
          if (base === LEGACY_MULTIPART_FOLDER || isStorageError(error, 'NOT_FOUND')) continue;
          throw error;
        }
        for (const entry of entries) {
          if (found.length >= limit) return found;
          if (!entry.isDirectory || !UPLOAD_ID.test(entry.name)) continue;
          try {
            const meta = await readMeta(`${base}/${entry.name}`);
            found.push({ path: meta.path, uploadId: entry.name, initiated: new Date(meta.created) });
          } catch {
            // Completed or aborted meanwhile, or its init never finished writing.
          }
        }
      }
      return found;
    },
  };
}
