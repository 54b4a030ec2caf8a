/**
 * The tus 1.0 protocol's state (docs/api.md, "Resumable uploads (tus)"; docs/architecture.md,
 * "Uploads"): creation, the offset, the bytes of each PATCH, termination and expiry. Where the
 * upload goes is its target's business (tus-targets.ts).
 *
 * Bytes are never held whole. They go into the storage multipart upload the target began, in parts
 * of the size planParts chose for the length (S3 takes no part under 5 MiB but the last): a PATCH
 * appends to the temp file of the part under way (in the data folder; bounded by the part size),
 * and each time that part is whole it is sent to storage and recorded in the database with the new
 * offset. The database row is the truth an instance resumes from after a restart; the bytes of the
 * unfinished part count only where their temp file is (the instance that received them) — another
 * instance answers HEAD with the whole parts alone, and the client sends the rest again. A PATCH
 * with `Upload-Checksum` is first received into a temp file and checked, so a mismatch (460) leaves
 * nothing behind. The last byte completes the storage upload and the target makes the file; only
 * then is the upload counted complete.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { creatorId, isCreator, type Principal, userIdOf } from '@cubby/shared';
import type { Logger } from 'pino';
import type { TusUploadsTable } from '../../db/schema.ts';
import {
  badRequest,
  checksumMismatch,
  conflict,
  forbidden,
  gone,
  locked,
  notFound,
  tooLarge,
  uploadTooLarge,
} from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { webBody } from '../../lib/node-body.ts';
import { asStorageAnswer } from '../../vfs/storage-answers.ts';
import type { MultipartPart, StoredObjects } from '../../vfs/objects.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { planParts } from '../uploads/uploads.service.ts';
import type { TusRepository } from './tus.repository.ts';
import type { TusFinished, TusTarget } from './tus-targets.ts';

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,creation-with-upload,termination,expiration,checksum';
export const CHECKSUM_ALGORITHMS = ['sha1', 'md5', 'sha256'] as const;
/** An upload not complete this long after its creation expires (its storage upload is aborted). */
export const TUS_EXPIRES_AFTER_MS = 24 * 3600_000;
/** How long a request waits for another one on the same upload (a dropped PATCH still ending). */
const BUSY_WAIT_MS = 5_000;
/** Expired uploads the janitor ends per run; the rest wait for the next. */
const PURGE_BATCH = 200;

interface StoredPart extends MultipartPart {
  size: number;
}

/** Where an upload stands: its whole parts and the bytes of the part under way held here. */
interface Standing {
  parts: StoredPart[];
  partsBytes: number;
  tail: number;
  offset: number;
}

export interface TusDeps {
  repo: TusRepository;
  objects: StoredObjects;
  settings: SettingsService;
  clock: Clock;
  logger: Logger;
  /** Where the bytes of parts under way wait (inside the data folder). */
  tailDir: string;
  targets: TusTarget[];
}

/** Upload-Metadata: comma-separated `key base64value` (the value optional), decoded as UTF-8. */
export function parseMetadata(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header?.trim()) return out;
  for (const pair of header.split(',')) {
    const [key, value, extra] = pair.trim().split(' ');
    if (!key || extra !== undefined || out.has(key) || !/^[\x21-\x7e]+$/.test(key)) {
      throw badRequest('tus.metadata_invalid');
    }
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
      throw badRequest('tus.metadata_invalid');
    out.set(key, value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8'));
  }
  return out;
}

/** A non-negative integer header (Upload-Length, Upload-Offset, Content-Length), or undefined. */
export function byteHeader(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,16}$/.test(value.trim())) return Number.NaN;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : Number.NaN;
}

/** A request body as a Node stream (none: no bytes). */
function readable(body: ReadableStream<Uint8Array> | null): Readable {
  return body ? Readable.fromWeb(body as NodeReadableStream<Uint8Array>) : Readable.from([]);
}

export interface TusPatch {
  offset: number | undefined;
  contentLength: number | undefined;
  checksum: string | undefined;
  body: ReadableStream<Uint8Array> | null;
}

export class TusService {
  /** The uploads a request is working on in this process, and how that ends. */
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: TusDeps) {}

  maxSize(): Promise<number> {
    return this.deps.settings.maxUploadBytes();
  }

  /** The target Upload-Metadata names: exactly one of the known keys. */
  targetOf(metadata: ReadonlyMap<string, string>): TusTarget {
    const named = this.deps.targets.filter((t) => metadata.has(t.kind));
    if (named.length !== 1) {
      throw badRequest('tus.target_required', { targets: this.deps.targets.map((t) => t.kind).join(', ') });
    }
    return named[0]!;
  }

  private target(upload: TusUploadsTable): TusTarget {
    const target = this.deps.targets.find((t) => t.kind === upload.target_kind);
    if (!target) throw notFound('tus.not_found');
    return target;
  }

  /**
   * POST: a new upload of `length` bytes into the target the metadata names (`authorize` checks the
   * caller against the target's rule first). The quota is reserved for the whole length now.
   */
  async create(
    principal: Principal | null,
    input: { length: number | undefined; metadata: string | undefined },
    authorize: (target: TusTarget) => void,
  ): Promise<TusUploadsTable> {
    const { length } = input;
    if (length === undefined || Number.isNaN(length)) throw badRequest('tus.length_required');
    const max = await this.maxSize();
    if (length > max) throw uploadTooLarge(max, length);
    const metadata = parseMetadata(input.metadata);
    const filename = metadata.get('filename');
    if (!filename) throw badRequest('tus.filename_required');
    const target = this.targetOf(metadata);
    authorize(target);
    const plan = planParts(length);
    const started = await target.start(principal, { filename, length, metadata, plan });
    const now = this.deps.clock.now();
    const row: TusUploadsTable = {
      id: randomUUID().replaceAll('-', ''),
      created_by: principal ? creatorId(principal) : null,
      owner_id: principal ? userIdOf(principal) : null,
      target_kind: target.kind,
      target: JSON.stringify(started.state),
      filename,
      upload_length: length,
      upload_offset: 0,
      metadata: input.metadata ?? '',
      storage_config_id: started.configId,
      storage_path: started.storagePath,
      upload_id: started.uploadId,
      part_size: plan.partSize,
      parts: '[]',
      completed_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TUS_EXPIRES_AFTER_MS).toISOString(),
    };
    try {
      await this.deps.repo.insert(row);
    } catch (error) {
      await target.abandon(row).catch(() => undefined);
      throw error;
    }
    return row;
  }

  /**
   * The upload `id` for a request by `principal`: 404 unknown, 410 expired, 401/403 (`authorize`,
   * then the creator rule: an admin reaches every upload, anyone else only their own).
   */
  async find(
    principal: Principal | null,
    id: string,
    authorize: (target: TusTarget) => void,
  ): Promise<TusUploadsTable> {
    const upload = await this.deps.repo.find(id);
    if (!upload) throw notFound('tus.not_found');
    authorize(this.target(upload));
    if (upload.created_by !== null && (!principal || !isCreator(principal, upload.created_by))) {
      throw forbidden('tus.not_yours');
    }
    if (Date.parse(upload.expires_at) <= this.deps.clock.now().getTime()) throw gone('tus.expired');
    return upload;
  }

  /** HEAD: the bytes received (what this instance holds of the part under way included). */
  async offsetOf(upload: TusUploadsTable): Promise<number> {
    if (upload.completed_at) return upload.upload_length;
    return this.exclusive(
      upload.id,
      async () => {
        const fresh = (await this.deps.repo.find(upload.id)) ?? upload;
        return fresh.completed_at ? fresh.upload_length : (await this.standing(fresh)).offset;
      },
      // Another request is sending bytes: what the database knows, a lower bound, is safe to answer.
      () => upload.upload_offset,
    );
  }

  /**
   * PATCH (and creation-with-upload): appends the body at `offset`, sending each whole part to
   * storage; the last byte completes the upload. Answers the new offset, and where the file is once
   * it is complete.
   */
  async patch(
    principal: Principal | null,
    upload: TusUploadsTable,
    input: TusPatch,
  ): Promise<{ offset: number; finished?: TusFinished }> {
    return this.exclusive(
      upload.id,
      async () => {
        const fresh = await this.deps.repo.find(upload.id);
        if (!fresh) throw notFound('tus.not_found');
        const length = fresh.upload_length;
        if (fresh.completed_at) {
          if (input.offset !== length) throw conflict('tus.offset_mismatch', { offset: length });
          return { offset: length };
        }
        const standing = await this.standing(fresh);
        if (input.offset !== standing.offset) {
          throw conflict('tus.offset_mismatch', { offset: standing.offset });
        }
        if (input.contentLength !== undefined && standing.offset + input.contentLength > length) {
          throw tooLarge('tus.beyond_length', { length });
        }
        const checked = input.checksum
          ? await this.received(fresh, standing, input.body, input.checksum)
          : undefined;
        try {
          const source = checked ? createReadStream(checked) : readable(input.body);
          return await this.append(principal, fresh, standing, source);
        } finally {
          if (checked) await rm(checked, { force: true });
        }
      },
      () => {
        throw locked('tus.busy');
      },
    );
  }

  /** DELETE (termination): an unfinished upload's bytes go; a finished one's record only. */
  async terminate(upload: TusUploadsTable): Promise<void> {
    await this.exclusive(
      upload.id,
      () => this.end(upload),
      () => {
        throw locked('tus.busy');
      },
    );
  }

  /** Ends expired uploads (the janitor; `jobs.ts`) and old leftovers of parts under way; how many. */
  async purgeExpired(): Promise<number> {
    let count = 0;
    const now = this.deps.clock.now();
    for (const upload of await this.deps.repo.expired(now.toISOString(), PURGE_BATCH)) {
      if (this.busy.has(upload.id)) continue;
      try {
        await this.end(upload);
        count++;
      } catch (error) {
        this.deps.logger.warn({ err: error, upload: upload.id }, 'could not end an expired tus upload');
      }
    }
    // Temp files of an upload another instance finished or ended: untouched past any expiry.
    const names = await readdir(this.deps.tailDir).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(this.deps.tailDir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs < now.getTime() - TUS_EXPIRES_AFTER_MS) await rm(file, { force: true });
    }
    return count;
  }

  // ---- the bytes ------------------------------------------------------------------------------

  private tailFile(id: string, partNumber: number): string {
    return path.join(this.deps.tailDir, `${id}.${partNumber}.part`);
  }

  /**
   * Where an upload stands: its recorded parts, and of the bytes recorded after them those this
   * instance's temp file holds (longer than recorded: the rest of a request that was cut off, let go).
   */
  private async standing(upload: TusUploadsTable): Promise<Standing> {
    const parts = JSON.parse(upload.parts) as StoredPart[];
    const partsBytes = parts.reduce((sum, p) => sum + p.size, 0);
    const recorded = upload.upload_offset - partsBytes;
    const file = this.tailFile(upload.id, parts.length + 1);
    const held = (await stat(file).catch(() => undefined))?.size ?? 0;
    if (held > recorded) await truncate(file, recorded);
    const tail = Math.min(held, recorded);
    return { parts, partsBytes, tail, offset: partsBytes + tail };
  }

  /**
   * A PATCH body with a checksum, received whole into a temp file (no more than the upload still
   * lacks) and checked; the file's path, or 460 with nothing kept.
   */
  private async received(
    upload: TusUploadsTable,
    standing: Standing,
    body: ReadableStream<Uint8Array> | null,
    header: string,
  ): Promise<string> {
    const [name, expected] = header.trim().split(/\s+/);
    const algorithm = CHECKSUM_ALGORITHMS.find((a) => a === name?.toLowerCase());
    if (!algorithm || !expected) {
      throw badRequest('tus.checksum_unsupported', { algorithms: CHECKSUM_ALGORITHMS.join(', ') });
    }
    await mkdir(this.deps.tailDir, { recursive: true });
    const file = path.join(this.deps.tailDir, `${upload.id}.${randomUUID()}.check`);
    const hash = createHash(algorithm);
    const room = upload.upload_length - standing.offset;
    let bytes = 0;
    try {
      const source = readable(body);
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            bytes += chunk.length;
            if (bytes > room) throw tooLarge('tus.beyond_length', { length: upload.upload_length });
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(file),
      );
      if (hash.digest('base64') !== expected) throw checksumMismatch('tus.checksum_mismatch');
      return file;
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }

  /**
   * Appends `source` to the part under way, sending each whole part to storage and recording it;
   * the offset reached is recorded however the body ends. The last byte finishes the upload.
   */
  private async append(
    principal: Principal | null,
    upload: TusUploadsTable,
    standing: Standing,
    source: Readable,
  ): Promise<{ offset: number; finished?: TusFinished }> {
    const { upload_length: length, part_size: partSize } = upload;
    let { parts, tail, offset } = standing;
    let recordedOffset = upload.upload_offset;
    await mkdir(this.deps.tailDir, { recursive: true });
    let partNumber = parts.length + 1;
    let handle = await open(this.tailFile(upload.id, partNumber), 'a');
    const record = async (changes: { upload_offset: number; parts?: string; completed_at?: string }) => {
      const now = this.deps.clock.now().toISOString();
      if (!(await this.deps.repo.update(upload.id, recordedOffset, { ...changes, updated_at: now }))) {
        throw conflict('tus.offset_mismatch', { offset: recordedOffset });
      }
      recordedOffset = changes.upload_offset;
    };
    /** Sends the part under way to storage; recorded as stored unless it is the last. */
    const sendPart = async (last: boolean) => {
      await handle.close();
      const file = this.tailFile(upload.id, partNumber);
      const { etag } = await this.storageOp(() =>
        this.deps.objects.uploadPart(
          upload.storage_config_id,
          upload.storage_path,
          upload.upload_id,
          partNumber,
          webBody(createReadStream(file)),
          tail,
        ),
      );
      parts = [...parts, { partNumber, etag, size: tail }];
      if (last) return;
      await record({ upload_offset: offset, parts: JSON.stringify(parts) });
      await rm(file, { force: true });
      partNumber++;
      tail = 0;
      handle = await open(this.tailFile(upload.id, partNumber), 'a');
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        if (offset + chunk.length > length) throw tooLarge('tus.beyond_length', { length });
        let rest = chunk;
        while (rest.length > 0) {
          const piece = rest.subarray(0, partSize - tail);
          await handle.appendFile(piece);
          tail += piece.length;
          offset += piece.length;
          rest = rest.subarray(piece.length);
          if (tail === partSize && offset < length) await sendPart(false);
        }
      }
    } catch (error) {
      // Cut off (or refused past the length): what arrived is kept for the next PATCH.
      await handle.close().catch(() => undefined);
      if (offset < length && offset !== recordedOffset) {
        await record({ upload_offset: offset }).catch(() => undefined);
      }
      throw error;
    }
    await handle.close();
    if (offset < length) {
      if (offset !== recordedOffset) await record({ upload_offset: offset });
      return { offset };
    }
    // The last byte: the last part (the only one, however small, of an empty file) and the file.
    try {
      if (tail > 0 || parts.length === 0) await sendPart(true);
      const finished = await this.target(upload).finish(principal, upload, parts);
      await record({
        upload_offset: length,
        parts: JSON.stringify(parts),
        completed_at: this.deps.clock.now().toISOString(),
      });
      await this.removeTemps(upload.id);
      return { offset, finished };
    } catch (error) {
      // Not complete: the last part is sent again (its bytes here are let go with the record).
      const before = parts.filter((p) => p.partNumber < partNumber);
      await truncate(this.tailFile(upload.id, partNumber), 0).catch(() => undefined);
      const whole = before.reduce((sum, p) => sum + p.size, 0);
      if (whole !== recordedOffset) await record({ upload_offset: whole }).catch(() => undefined);
      throw error;
    }
  }

  /** Ends an upload: an unfinished one's storage upload and reservations go, then its record. */
  private async end(upload: TusUploadsTable): Promise<void> {
    const fresh = await this.deps.repo.find(upload.id);
    if (!fresh) return;
    if (!fresh.completed_at) await this.target(fresh).abandon(fresh);
    await this.deps.repo.delete(fresh.id);
    await this.removeTemps(fresh.id);
  }

  private async removeTemps(id: string): Promise<void> {
    const names = await readdir(this.deps.tailDir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(`${id}.`)) await rm(path.join(this.deps.tailDir, name), { force: true });
    }
  }

  private async storageOp<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw asStorageAnswer(error, { NOT_FOUND: 'tus.not_found', PRECONDITION_FAILED: 'tus.not_found' });
    }
  }

  /**
   * Runs `work` alone on upload `id` in this process. Another request on it (a PATCH the client gave
   * up, still ending) is waited for up to a few seconds; after that `busy` answers instead.
   */
  private async exclusive<T>(id: string, work: () => Promise<T>, busy: () => T): Promise<T> {
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (let running = this.busy.get(id); running; running = this.busy.get(id)) {
      const left = deadline - Date.now();
      if (left <= 0) return busy();
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        running.then(
          () => true,
          () => true,
        ),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), left))),
      ]);
      clearTimeout(timer);
      if (!ended) return busy();
    }
    const run = work();
    this.busy.set(id, run);
    try {
      return await run;
    } finally {
      if (this.busy.get(id) === run) this.busy.delete(id);
    }
  }
}
