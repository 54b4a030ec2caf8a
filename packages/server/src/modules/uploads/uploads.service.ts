/**
 * File-share uploads, every way they reach storage:
 *
 * - form upload (`POST /api/upload`): the file part is streamed to the driver while it arrives;
 *   upload-direct (`PUT /api/upload-direct/:filename`) streams its raw body the same way;
 * - presign + commit: the browser PUTs the whole file to a presigned URL bound to the declared size
 *   and type; commit checks what storage really holds;
 * - multipart: parts go straight to storage through presigned part URLs; the ledger
 *   (`upload_sessions`, `upload_parts`), reconciled with the storage's own list of parts, lets an
 *   interrupted upload resume and an abandoned one be aborted by `purgeAbandonedUploads`;
 * - URL upload: the same flows, described by the source URL's metadata.
 *
 * A streamed upload (form, upload-direct) can only finish in the process it streams through, so it
 * is on a ledger with that process's tag and a heartbeat: after a crash, `freeOrphanedStreams` frees
 * its pending file and slug at once (the process is gone) or once the heartbeat is stale, and
 * `removeLeftoverTemps` removes the partial temp files of local storage.
 *
 * Until its bytes are confirmed a file row is 'pending', which public routes never serve. The server
 * builds every storage key. Sizes are held to the largest upload size (413) and to the config's
 * quota and free space (507, with the numbers). The quota is one rule for every door
 * (vfs/quota.ts): a pending row counts towards it with its declared size, and it is checked
 * again after the row is in, so concurrent uploads can never take more than the quota together
 * (each may be refused instead).
 */
import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { formatBytes, isCreator, type Principal, sameDigest } from '@cubby/shared';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../../db/errors.ts';
import type { FilesTable, UploadSessionsTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors/app-error.ts';
import { asStorageAnswer } from '../../vfs/storage-answers.ts';
import { validate } from '../../http/validate.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatTag, parseTag, processState, THIS_PROCESS } from '../../lib/process-tag.ts';
import { hashPassword } from '../../lib/crypto.ts';
import type { StorageChange } from '../../vfs/changes.ts';
import { StorageFullError } from '../../vfs/quota.ts';
import { webBody } from '../../lib/node-body.ts';
import {
  ByteLimit,
  isStorageError,
  MULTIPART_LIMITS,
  type MultipartPartInfo,
  type StoredObjects,
} from '../../vfs/objects.ts';
import { type FilesRepository, newFileRow } from '../files/files.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { probeUrl, urlFetchAppError } from '../url-upload/url-probe.ts';
import { randomSlug } from '../shares/share-rules.ts';
import type {
  StorageConfigRecord,
  StorageConfigsService,
} from '../storage-configs/storage-configs.service.ts';
import { buildStorageKey, displayName } from './storage-key.ts';
import { FORM_OVERHEAD_BYTES, readUploadForm } from './upload-form.ts';
import type { UploadsRepository } from './uploads.repository.ts';
import {
  type CommitInput,
  type CompleteInput,
  type DirectUploadInput,
  formFieldsSchema,
  type MultipartInitInput,
  PLACEMENT_FIELDS,
  type PresignInput,
  type ShareFields,
  type UrlMultipartInitInput,
  type UrlPresignInput,
} from './uploads.schemas.ts';

const HOUR_MS = 3600_000;
/** Multipart sessions idle this long, and pending presigned uploads this old, are abandoned. */
export const ABANDONED_AFTER_MS = 24 * HOUR_MS;
/** Presigned URLs never outlive the abandonment window, whatever the config says. */
const MAX_SIGNATURE_SECONDS = ABANDONED_AFTER_MS / 1000;
const DEFAULT_PART_SIZE = MULTIPART_LIMITS.minPartSize;
/** Rows the orphan job handles per run; the rest wait for the next run. */
const PURGE_BATCH = 500;

/** What a URL source is, as far as an upload needs to know. */
export interface ProbedSource {
  filename: string;
  size: number | null;
}

/** Looks at a URL server-side (SSRF-guarded); throws AppErrors. */
export type UrlProbe = (url: string) => Promise<ProbedSource>;

/** The probe of URL uploads: modules/url-upload's `probeUrl` under the URL allowlist and upload limit. */
export function settingsUrlProbe(settings: SettingsService): UrlProbe {
  return async (url) => {
    const [allowlist, maxBytes] = await Promise.all([settings.urlAllowlist(), settings.maxUploadBytes()]);
    try {
      return await probeUrl(url, { allowlist, maxBytes });
    } catch (error) {
      throw urlFetchAppError(error, maxBytes);
    }
  };
}

/** How uploads streamed through this process are kept alive, and when their leftovers are freed. */
export interface StreamTiming {
  /** How often this process marks its streamed uploads as alive. */
  heartbeatMs: number;
  /** A streamed upload silent this long is freed (another machine's, or a pid that may be reused). */
  staleAfterMs: number;
  /** A temp file whose writer cannot be judged is removed once untouched this long. */
  tempMaxAgeMs: number;
}

export const DEFAULT_STREAM_TIMING: StreamTiming = {
  heartbeatMs: 30_000,
  staleAfterMs: 2 * 60_000,
  tempMaxAgeMs: 6 * HOUR_MS,
};

export interface UploadsDeps {
  files: FilesRepository;
  uploads: UploadsRepository;
  storageConfigs: StorageConfigsService;
  /** The uploads' objects in storage (vfs/objects.ts). */
  objects: StoredObjects;
  settings: SettingsService;
  clock: Clock;
  logger: Logger;
  probe?: UrlProbe;
  streamTiming?: Partial<StreamTiming>;
  /**
   * Told of every object a share upload stored or removed (the vfs forgets the folders' listings);
   * awaited, so the answer to the upload is sent once they are forgotten. Never rejects.
   */
  storageChanged?: (change: StorageChange) => Promise<void>;
  /**
   * The storage folder an upload into a config goes to, for the folder the client named: checked
   * for the caller on the virtual path (Vfs.shareUploadFolder, where the rule lives).
   */
  place: (principal: Principal, storageConfigId: string, path: string | undefined) => Promise<string>;
}

const tooLarge = (limit: number, size?: number): AppError =>
  size === undefined
    ? new AppError(413, 'PAYLOAD_TOO_LARGE', 'uploads.too_large_stream', { limit: formatBytes(limit) })
    : new AppError(413, 'PAYLOAD_TOO_LARGE', 'uploads.too_large', {
        limit: formatBytes(limit),
        size: formatBytes(size),
      });

/** A driver failure as the answer it deserves (vfs/storage-answers.ts), in the uploads' words. */
function storageFailure(error: unknown): unknown {
  return asStorageAnswer(error, {
    INVALID_PATH: 'uploads.path_invalid',
    NOT_FOUND: 'uploads.session_not_found',
    PRECONDITION_FAILED: 'uploads.parts_rejected',
    ALREADY_EXISTS: 'uploads.storage_conflict',
    NOT_A_DIRECTORY: 'uploads.storage_conflict',
    IS_A_DIRECTORY: 'uploads.storage_conflict',
  });
}

/** Part sizes of an upload: every part `part_size` bytes except the last, which takes the rest. */
function partSizeOf(
  session: Pick<UploadSessionsTable, 'part_size' | 'part_count' | 'total_size'>,
  n: number,
) {
  return n < session.part_count
    ? session.part_size
    : session.total_size - (session.part_count - 1) * session.part_size;
}

/**
 * The part size and count of a multipart upload: the requested size (5 MiB by default) within S3's
 * limits, raised so that the file needs no more than 10,000 parts.
 */
export function planParts(size: number, requested?: number): { partSize: number; partCount: number } {
  const wanted = requested && requested > 0 ? requested : DEFAULT_PART_SIZE;
  let partSize = Math.min(Math.max(wanted, MULTIPART_LIMITS.minPartSize), MULTIPART_LIMITS.maxPartSize);
  partSize = Math.max(partSize, Math.ceil(size / MULTIPART_LIMITS.maxParts));
  return { partSize, partCount: Math.max(1, Math.ceil(size / partSize)) };
}

/** "1, 2, 3, … (+n)" for messages listing part numbers. */
function listNumbers(numbers: number[]): string {
  const shown = numbers.slice(0, 20).join(', ');
  return numbers.length > 20 ? `${shown}, … (+${numbers.length - 20})` : shown;
}

/** Checks a URL names an http(s) resource; the server does not fetch it here. */
function checkSourceUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url.invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('url.protocol');
  return url;
}

/** The decoded last segment of a URL's path ("" when there is none). */
function lastSegment(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

interface NewUpload {
  config: StorageConfigRecord;
  row: FilesTable;
}

interface OpenSession extends NewUpload {
  session: UploadSessionsTable;
}

interface Placement extends ShareFields {
  s3_config_id?: string | undefined;
  path?: string | undefined;
  filename: string;
  size: number;
  /** The key ends in `<id>/<name>` instead of `<id>-<name>` (storage-key.ts). */
  ownFolder?: boolean;
}

export class UploadsService {
  /** The last reservation queued per storage config (see `reserve`). */
  private readonly reservations = new Map<string, Promise<void>>();
  /** The uploads streaming through this process now (file ids), kept alive by `heartbeat`. */
  private readonly streaming = new Set<string>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly timing: StreamTiming;

  constructor(private readonly deps: UploadsDeps) {
    this.timing = { ...DEFAULT_STREAM_TIMING, ...deps.streamTiming };
  }

  private get objects() {
    return this.deps.objects;
  }

  /** Aborts a session's multipart upload in storage. */
  private abortUpload(session: UploadSessionsTable): Promise<void> {
    return this.objects.abortMultipart(session.storage_config_id, session.storage_path, session.upload_id);
  }

  private get files() {
    return this.deps.files;
  }

  private get ledger() {
    return this.deps.uploads;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  // ---- form upload and upload-direct -----------------------------------------------------------

  /**
   * Streams a multipart/form-data upload to storage. Fields sent before the file decide where it
   * goes (`s3_config_id`, `path`; sending them after the file is refused with 400 and nothing is
   * kept) and may name its slug; every share field may also come after the file, and is applied when
   * the body ends (a slug sent late replaces the random one, 409 when taken).
   */
  async formUpload(
    principal: Principal,
    request: { body: ReadableStream<Uint8Array> | null; contentType: string; contentLength?: number },
  ): Promise<FilesTable> {
    const max = await this.deps.settings.maxUploadBytes();
    const declared = request.contentLength;
    if (declared !== undefined && declared > max + FORM_OVERHEAD_BYTES) throw tooLarge(max, declared);
    if (!request.body) throw badRequest('uploads.file_required');
    const body = request.body;
    let received: NewUpload | undefined;
    try {
      const form = await readUploadForm(body, request.contentType, async (file, before) => {
        const fields = validate(formFieldsSchema, Object.fromEntries(before));
        const placement = { ...fields, filename: file.filename, size: 0 };
        received = await this.receiveFile(principal, file.stream, placement, {
          max,
          declared,
          overhead: FORM_OVERHEAD_BYTES,
        });
        return received;
      });
      const { row, config } = form.file;
      const late = form.fieldsAfterFile.find((name) =>
        (PLACEMENT_FIELDS as readonly string[]).includes(name),
      );
      if (late) throw new AppError(400, 'VALIDATION_FAILED', 'uploads.field_after_file', { field: late });
      const fields = validate(formFieldsSchema, Object.fromEntries(form.fields));
      await this.checkQuota(config, row);
      return await this.finish(row, fields, { size: row.size, etag: row.etag });
    } catch (error) {
      // The file may be stored and the form still fail after it (a field after it, a broken end).
      if (received) await this.discard(received.row);
      throw error;
    } finally {
      if (received) await this.endStream(received.row.id);
    }
  }

  /**
   * `PUT /api/upload-direct/:filename` (CloudPaste's one-shot upload): the raw body, streamed to
   * storage as a form upload's file is, with the share fields in `query`. With `override` and a
   * slug, the share holding that slug is replaced once the new file is complete — only one the
   * caller created (an admin: any), 403 otherwise, checked before a byte is read.
   */
  async directUpload(
    principal: Principal,
    request: {
      filename: string;
      body: ReadableStream<Uint8Array> | null;
      contentLength?: number;
      fields: DirectUploadInput;
    },
  ): Promise<{ row: FilesTable; ownFolder: boolean }> {
    const { fields } = request;
    const max = await this.deps.settings.maxUploadBytes();
    const declared = request.contentLength;
    if (declared !== undefined && declared > max) throw tooLarge(max, declared);
    const replacing =
      fields.override && fields.slug ? await this.replaceable(principal, fields.slug) : undefined;
    const body = request.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    const ownFolder = fields.original_filename === 1;
    const { row, config } = await this.receiveFile(
      principal,
      Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>),
      {
        ...fields,
        // The replaced share keeps its slug until the new file is complete.
        slug: replacing ? undefined : fields.slug,
        filename: request.filename,
        size: 0,
        ownFolder,
      },
      { max, declared, overhead: 0 },
    );
    try {
      await this.checkQuota(config, row);
      const done = await this.finish(
        row,
        { ...fields, slug: replacing?.slug ?? fields.slug },
        row,
        replacing,
      );
      if (replacing) await this.removeBytes(replacing, replacing.size);
      return { row: done, ownFolder };
    } catch (error) {
      await this.discard(row);
      throw error;
    } finally {
      await this.endStream(row.id);
    }
  }

  /** The share an override may replace: 403 when someone else created it. */
  private async replaceable(principal: Principal, slug: string): Promise<FilesTable | undefined> {
    const existing = await this.files.findBySlug(slug);
    if (existing && !isCreator(principal, existing.created_by)) throw forbidden('uploads.override_forbidden');
    return existing;
  }

  /**
   * A new upload's body: a pending row, then the bytes streamed to storage under the size limits
   * (`declared`: the request's Content-Length; `overhead`: what the request adds to the file's bytes).
   */
  private async receiveFile(
    principal: Principal,
    stream: Readable,
    placement: Placement,
    limits: { max: number; declared: number | undefined; overhead: number },
  ): Promise<NewUpload> {
    const { max, declared, overhead } = limits;
    const upload = await this.newUpload(principal, placement);
    const { config, row } = upload;
    const capacity = await this.objects.capacity(config);
    if (capacity && declared !== undefined && declared > capacity.freeBytes + overhead) {
      throw new StorageFullError(declared, capacity);
    }
    await this.startStream(row);
    const free = capacity?.freeBytes ?? Number.MAX_SAFE_INTEGER;
    const limiter = new ByteLimit(Math.min(max, free), false);
    try {
      // webBody, not Readable.toWeb: that one copies every chunk, and a large upload's RSS grows with the garbage.
      const body = webBody(pipeline(stream, limiter, () => undefined));
      // Its pending row holds its bytes in the quota; `finish` reports it written.
      const written = await this.objects.write(config, row.storage_path, body, {
        contentType: row.mimetype,
        pendingShare: true,
      });
      const stored = { size: written.size, etag: written.etag ?? null };
      await this.ledger.updatePending(row.id, stored);
      return { ...upload, row: { ...row, ...stored } };
    } catch (error) {
      // A failed write leaves nothing in storage; only the row has to go.
      await this.ledger.deletePending(row.id);
      await this.endStream(row.id);
      if (limiter.failure?.code === 'TOO_LARGE') {
        throw max <= free ? tooLarge(max) : new StorageFullError(declared ?? limiter.bytes, capacity!);
      }
      throw await this.writeFailure(error, config, declared ?? limiter.bytes);
    }
  }

  /**
   * Inserts a streamed upload's pending file with its ledger row (lib/process-tag.ts names this
   * process), and keeps it alive with a heartbeat until `endStream`.
   */
  private async startStream(row: FilesTable): Promise<void> {
    try {
      await this.ledger.insertStreamed(row, formatTag(THIS_PROCESS));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('uploads.slug_taken');
      throw error;
    }
    this.streaming.add(row.id);
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => {
        this.ledger.heartbeat([...this.streaming], this.now().toISOString()).catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'could not mark streamed uploads alive');
        });
      }, this.timing.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  /** A streamed upload is over (finished, or its file dropped): off the ledger, no more heartbeat. */
  private async endStream(fileId: string): Promise<void> {
    if (!this.streaming.delete(fileId)) return;
    if (this.streaming.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
    await this.ledger.endStreamed(fileId);
  }

  // ---- presign + commit -----------------------------------------------------------------------

  /**
   * A pending file and a URL the client PUTs exactly `size` bytes to. The URL is that of part 1 of
   * a one-part multipart upload, not of the object itself: the bytes become the object only when
   * commit completes the upload, and a completed or aborted upload takes no more parts (the storage
   * answers 404), so the URL cannot replace the file once it is shared.
   */
  async presign(principal: Principal, input: PresignInput) {
    if (input.size > MULTIPART_LIMITS.maxPartSize) {
      throw new AppError(400, 'VALIDATION_FAILED', 'uploads.too_large_for_presign', {
        limit: formatBytes(MULTIPART_LIMITS.maxPartSize),
      });
    }
    const started = await this.startSession(principal, input, { partSize: input.size, partCount: 1 });
    const [part] = await this.signParts(started, [1]);
    return { ...started, url: part!.url };
  }

  /**
   * Confirms a presigned upload: what storage holds decides. No part → 400 and the upload and its
   * record go; otherwise it completes as a multipart upload does (size and ETag checked against
   * storage, never taken from the client). The share fields given here replace those given at
   * presign.
   */
  async commit(principal: Principal, input: CommitInput): Promise<FilesTable> {
    const row = await this.ownPending(principal, input.file_id);
    const [session] = await this.ledger.sessionsOfFile(row.id);
    if (!session) throw notFound('uploads.session_not_found');
    const open = await this.openSession(principal, row.id, session.upload_id);
    const parts = await this.reconcile(open);
    if (parts.length === 0) {
      await this.dropSession(open, { abort: true });
      throw badRequest('uploads.object_missing');
    }
    const given = input.etag ? [{ partNumber: 1, etag: input.etag }] : undefined;
    return this.completeSession(open, parts, given, input);
  }

  // ---- multipart ------------------------------------------------------------------------------

  /** Starts a multipart upload: a pending file (with its share fields) and a ledger session. */
  async initMultipart(principal: Principal, input: MultipartInitInput) {
    return this.startSession(principal, input, planParts(input.size, input.part_size));
  }

  /** A pending file (quota reserved), its multipart upload in storage and its ledger session. */
  private async startSession(
    principal: Principal,
    input: Placement,
    plan: { partSize: number; partCount: number },
  ): Promise<OpenSession> {
    await this.checkSize(input.size);
    const upload = await this.newUpload(principal, input);
    const { config, row } = upload;
    await this.reserve(config, row);
    let uploadId: string;
    try {
      uploadId = await this.objects.initMultipart(config, row.storage_path, row.mimetype);
    } catch (error) {
      await this.ledger.deletePending(row.id);
      throw storageFailure(error);
    }
    const now = this.now();
    const session: UploadSessionsTable = {
      id: randomUUID(),
      file_id: row.id,
      storage_config_id: config.id,
      storage_path: row.storage_path,
      upload_id: uploadId,
      content_type: row.mimetype,
      part_size: plan.partSize,
      total_size: row.size,
      part_count: plan.partCount,
      created_by: row.created_by,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ABANDONED_AFTER_MS).toISOString(),
    };
    try {
      await this.ledger.insertSession(session);
    } catch (error) {
      await this.objects.abortMultipart(config, row.storage_path, uploadId).catch(() => undefined);
      await this.ledger.deletePending(row.id);
      throw error;
    }
    return { ...upload, session };
  }

  /** Fresh presigned URLs for some parts, each bound to its exact size. */
  async partUrls(
    principal: Principal,
    input: { file_id: string; upload_id: string; part_numbers: number[] },
  ): Promise<Array<{ partNumber: number; url: URL }>> {
    const open = await this.openSession(principal, input.file_id, input.upload_id);
    const numbers = [...new Set(input.part_numbers)].sort((a, b) => a - b);
    for (const n of numbers) this.checkPartNumber(open.session, n);
    await this.touch(open.session);
    return this.signParts(open, numbers);
  }

  private async signParts(open: OpenSession, numbers: number[]) {
    const { session, config } = open;
    const expiresIn = this.signatureSeconds(config);
    const urls: Array<{ partNumber: number; url: URL }> = [];
    try {
      // One at a time: the local driver reads the upload's folder for each.
      for (const partNumber of numbers) {
        const url = await this.objects.presignPart(
          config,
          session.storage_path,
          session.upload_id,
          partNumber,
          {
            expiresIn,
            size: partSizeOf(session, partNumber),
          },
        );
        urls.push({ partNumber, url });
      }
    } catch (error) {
      throw await this.sessionFailure(error, open);
    }
    return urls;
  }

  /** The parts confirmed so far (the ledger, reconciled with storage), so a client resumes with the rest. */
  async status(principal: Principal, fileId: string, uploadId: string) {
    const open = await this.openSession(principal, fileId, uploadId);
    const parts = await this.reconcile(open);
    await this.touch(open.session);
    return { open, parts };
  }

  /** Records a part the client finished, after checking storage holds it with that ETag. */
  async recordPart(
    principal: Principal,
    input: { file_id: string; upload_id: string; partNumber: number; etag: string },
  ): Promise<MultipartPartInfo> {
    const open = await this.openSession(principal, input.file_id, input.upload_id);
    this.checkPartNumber(open.session, input.partNumber);
    const parts = await this.reconcile(open);
    const found = parts.find((p) => p.partNumber === input.partNumber && sameDigest(p.etag, input.etag));
    if (!found) {
      throw new AppError(400, 'VALIDATION_FAILED', 'uploads.part_not_found', { part: input.partNumber });
    }
    await this.touch(open.session);
    return found;
  }

  /**
   * Completes a multipart upload from the reconciled ledger: every part present with its expected
   * size (so the total is the declared size), any `parts` the client lists matching storage's ETags,
   * the total within the upload limit. The file becomes ready and the session goes.
   */
  async complete(principal: Principal, input: CompleteInput): Promise<FilesTable> {
    const open = await this.openSession(principal, input.file_id, input.upload_id);
    return this.completeSession(open, await this.reconcile(open), input.parts, {});
  }

  private async completeSession(
    open: OpenSession,
    reconciled: MultipartPartInfo[],
    given: Array<{ partNumber: number; etag: string }> | undefined,
    fields: ShareFields,
  ): Promise<FilesTable> {
    const { session, config, row } = open;
    const parts = new Map(reconciled.map((p) => [p.partNumber, p]));
    for (const part of given ?? []) {
      const stored = parts.get(part.partNumber);
      if (!stored || !sameDigest(stored.etag, part.etag)) {
        throw new AppError(400, 'VALIDATION_FAILED', 'uploads.part_not_found', { part: part.partNumber });
      }
    }
    const missing: number[] = [];
    for (let n = 1; n <= session.part_count; n++) if (!parts.has(n)) missing.push(n);
    if (missing.length > 0) {
      throw new AppError(400, 'VALIDATION_FAILED', 'uploads.parts_missing', { parts: listNumbers(missing) });
    }
    const max = await this.deps.settings.maxUploadBytes();
    if (session.total_size > max) {
      await this.dropSession(open, { abort: true });
      throw tooLarge(max, session.total_size);
    }
    const ordered = [...parts.values()].sort((a, b) => a.partNumber - b.partNumber);
    let written;
    try {
      written = await this.objects.completeMultipart(
        config,
        session.storage_path,
        session.upload_id,
        ordered,
      );
    } catch (error) {
      throw await this.sessionFailure(error, open);
    }
    if (written.size !== session.total_size) {
      await this.dropSession(open, { abort: false });
      await this.discard(row);
      throw new AppError(400, 'VALIDATION_FAILED', 'uploads.size_mismatch', {
        actual: written.size,
        declared: session.total_size,
      });
    }
    const file = await this.finish(row, fields, { size: written.size, etag: written.etag ?? null });
    await this.ledger.deleteSession(session.id);
    return file;
  }

  /** Aborts a multipart upload and deletes its pending file. */
  async abort(principal: Principal, fileId: string, uploadId: string): Promise<void> {
    const open = await this.openSession(principal, fileId, uploadId);
    await this.dropSession(open, { abort: true, strict: true });
  }

  // ---- URL uploads ----------------------------------------------------------------------------

  /** `presign` for a file the browser fetches from `url`; name and size from `metadata` or a probe. */
  async urlPresign(principal: Principal, input: UrlPresignInput) {
    const source = await this.describeSource(input);
    const presigned = await this.presign(principal, { ...input, ...source });
    return { ...presigned, source };
  }

  /** `initMultipart` for a URL source, with presigned URLs for every part. */
  async urlMultipartInit(principal: Principal, input: UrlMultipartInitInput) {
    const source = await this.describeSource(input);
    const started = await this.initMultipart(principal, { ...input, ...source });
    const numbers = Array.from({ length: started.session.part_count }, (_, i) => i + 1);
    const urls = await this.signParts(started, numbers);
    return { ...started, urls, source };
  }

  /** Cancels an unfinished upload of any kind: aborts its sessions, removes its bytes and record. */
  async cancel(principal: Principal, fileId: string): Promise<void> {
    const row = await this.ownPending(principal, fileId);
    await this.abortSessionsOf(row.id);
    await this.discard(row);
  }

  /** Aborts a file's multipart uploads in storage and forgets them (one storage already forgot is fine). */
  async abortSessionsOf(fileId: string): Promise<void> {
    for (const session of await this.ledger.sessionsOfFile(fileId)) {
      await this.abortUpload(session).catch((error: unknown) => {
        if (!isStorageError(error, 'NOT_FOUND')) throw storageFailure(error);
      });
      await this.ledger.deleteSession(session.id);
    }
  }

  private async describeSource(input: UrlPresignInput & { total_size?: number | undefined }) {
    const url = checkSourceUrl(input.url);
    let filename = input.filename ?? input.metadata?.filename;
    let size = input.metadata?.size ?? input.size ?? input.total_size;
    if ((filename === undefined || size === undefined) && this.deps.probe) {
      const probed = await this.deps.probe(url.toString());
      filename ??= probed.filename;
      size ??= probed.size ?? undefined;
    }
    if (size === undefined) throw badRequest('uploads.size_unknown');
    if (!filename) filename = lastSegment(url) || 'file';
    return { filename, size };
  }

  // ---- the orphan job -------------------------------------------------------------------------

  /**
   * Aborts multipart uploads idle for 24 hours and deletes their pending files, deletes pending
   * presigned uploads older than 24 hours with whatever bytes reached storage, and aborts the uploads
   * a storage holds that no session knows once they are 24 hours old (`abortStrayUploads`). A storage
   * that cannot be reached keeps its leftovers for the next run. Returns how many uploads were
   * cleaned up.
   */
  async purgeAbandonedUploads(): Promise<number> {
    const now = this.now();
    let count = 0;
    for (const session of await this.ledger.expiredSessions(now.toISOString(), PURGE_BATCH)) {
      try {
        await this.abortUpload(session).catch((error: unknown) => {
          if (!isStorageError(error, 'NOT_FOUND')) throw error;
        });
        await this.ledger.deleteSession(session.id);
        if (session.file_id) await this.ledger.deletePending(session.file_id);
        count++;
      } catch (error) {
        this.deps.logger.warn({ err: error, session: session.id }, 'could not abort an abandoned upload');
      }
    }
    const before = new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString();
    for (const row of await this.ledger.stalePending(before, PURGE_BATCH)) {
      try {
        await this.objects
          .remove(row.storage_config_id, row.storage_path, { ownShare: true })
          .catch((error: unknown) => {
            if (!isStorageError(error, 'NOT_FOUND')) throw error;
          });
        if (await this.ledger.deletePending(row.id)) count++;
      } catch (error) {
        this.deps.logger.warn({ err: error, file: row.id }, 'could not remove an abandoned upload');
      }
    }
    return count + (await this.abortStrayUploads(before));
  }

  /**
   * Aborts the multipart uploads in storage that began before `before` and that no ledger session
   * knows: relay uploads (fs multipart) a client never finished, and the uploads of writes in parts
   * (an S3 write of a stream) whose process died. Their parts would otherwise stay in the bucket,
   * invisible and billed, for ever.
   */
  private async abortStrayUploads(before: string): Promise<number> {
    const cutoff = Date.parse(before);
    let count = 0;
    for (const config of await this.deps.storageConfigs.repo.list()) {
      try {
        const uploads = await this.objects.listUploads(config.id, PURGE_BATCH);
        if (uploads.length === 0) continue;
        const known = await this.ledger.uploadIdsOf(config.id);
        for (const upload of uploads) {
          if (known.has(upload.uploadId) || upload.initiated.getTime() >= cutoff) continue;
          await this.objects
            .abortMultipart(config.id, upload.path, upload.uploadId)
            .catch((error: unknown) => {
              if (!isStorageError(error, 'NOT_FOUND')) throw error;
            });
          count++;
        }
      } catch (error) {
        this.deps.logger.warn({ err: error, config: config.id }, 'could not abort stray uploads');
      }
    }
    return count;
  }

  /**
   * Frees the uploads that were streaming through a process that is gone, which can never finish:
   * their pending file (and with it the slug it holds) and whatever reached storage. Gone means a
   * dead process of this machine (at once, so a restart frees its predecessor's), or no heartbeat
   * for `staleAfterMs` (another machine's). Returns how many were freed.
   */
  async freeOrphanedStreams(): Promise<number> {
    const silentSince = this.now().getTime() - this.timing.staleAfterMs;
    let count = 0;
    for (const upload of await this.ledger.streamedPending(PURGE_BATCH)) {
      if (this.streaming.has(upload.file_id)) continue;
      const dead = processState(parseTag(upload.owner)) === 'dead';
      if (!dead && Date.parse(upload.heartbeat_at) > silentSince) continue;
      try {
        await this.removeBytes({ ...upload, id: upload.file_id });
        if (await this.ledger.deletePending(upload.file_id)) count++;
      } catch (error) {
        this.deps.logger.warn({ err: error, file: upload.file_id }, 'could not free an orphaned upload');
      }
    }
    return count;
  }

  /**
   * Removes the temp files crashed writes left in local storage folders (LocalDriver.sweepTemp).
   * Returns how many went.
   */
  async removeLeftoverTemps(): Promise<number> {
    let count = 0;
    for (const config of await this.deps.storageConfigs.repo.list()) {
      if (config.driver !== 'local') continue;
      try {
        count += await this.objects.sweepTemp(config.id, this.timing.tempMaxAgeMs);
      } catch (error) {
        this.deps.logger.warn({ err: error, config: config.id }, 'could not sweep a storage folder');
      }
    }
    return count;
  }

  // ---- shared steps ---------------------------------------------------------------------------

  private async checkSize(size: number): Promise<void> {
    const max = await this.deps.settings.maxUploadBytes();
    if (size > max) throw tooLarge(max, size);
  }

  /** The pending row of a new upload (not yet inserted, share fields applied) and its config. */
  private async newUpload(principal: Principal, input: Placement): Promise<NewUpload> {
    const filename = displayName(input.filename);
    if (!filename) throw badRequest('uploads.filename_invalid');
    const config = await this.deps.storageConfigs.resolveForUpload(principal, input.s3_config_id);
    const folder = await this.deps.place(principal, config.id, input.path);
    if (input.slug && (await this.files.slugExists(input.slug))) throw conflict('uploads.slug_taken');
    const slug = input.slug ?? (await randomSlug((s) => this.files.slugExists(s), 'uploads.slug_exhausted'));
    const now = this.now();
    const row = newFileRow(
      principal,
      {
        slug,
        filename,
        storage_config_id: config.id,
        storage_path: buildStorageKey(folder, filename, now, { ownFolder: input.ownFolder ?? false }),
        size: input.size,
        etag: null,
        status: 'pending',
      },
      now,
    );
    Object.assign(row, await this.shareColumns(input, now));
    return { config, row };
  }

  /** The columns the given share fields set; absent fields are left out (kept as they are). */
  private async shareColumns(fields: ShareFields, now: Date): Promise<Partial<FilesTable>> {
    const out: Partial<FilesTable> = {};
    if (fields.slug !== undefined) out.slug = fields.slug;
    if (fields.remark !== undefined) out.remark = fields.remark || null;
    if (fields.password !== undefined) out.password_hash = await hashPassword(fields.password);
    if (fields.expires_in !== undefined) {
      out.expires_at =
        fields.expires_in > 0 ? new Date(now.getTime() + fields.expires_in * HOUR_MS).toISOString() : null;
    }
    if (fields.max_views !== undefined) out.max_views = fields.max_views;
    if (fields.use_proxy !== undefined) out.use_proxy = fields.use_proxy;
    return out;
  }

  private async insert(row: FilesTable): Promise<void> {
    try {
      await this.files.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('uploads.slug_taken');
      throw error;
    }
  }

  /**
   * Inserts a pending row whose declared size must fit the config's free space and quota. One
   * reservation per config at a time in this process, so parallel uploads are judged one after the
   * other; the quota check after the insert covers other instances sharing the database.
   */
  private reserve(config: StorageConfigRecord, row: FilesTable): Promise<void> {
    const previous = this.reservations.get(config.id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const capacity = await this.objects.capacity(config);
      if (capacity && row.size > capacity.freeBytes) throw new StorageFullError(row.size, capacity);
      await this.insert(row);
      try {
        await this.checkQuota(config, row);
      } catch (error) {
        await this.ledger.deletePending(row.id);
        throw error;
      }
    });
    const settled = run.catch(() => undefined);
    this.reservations.set(config.id, settled);
    void settled.then(() => {
      if (this.reservations.get(config.id) === settled) this.reservations.delete(config.id);
    });
    return run;
  }

  /**
   * 507 when the config holds more than its quota with `row` (pending, so reserved) included: the
   * quota's one rule (vfs/quota.ts), which counts every door's bytes in the config.
   */
  private async checkQuota(config: StorageConfigRecord, row: FilesTable): Promise<void> {
    await this.objects.checkQuota(config, row.size);
  }

  /**
   * Makes a pending file ready with its stored size and ETag and the given share fields; with
   * `replacing`, in the same transaction the share it replaces goes (its bytes are the caller's).
   */
  private async finish(
    row: FilesTable,
    fields: ShareFields,
    stored: { size: number; etag: string | null },
    replacing?: FilesTable,
  ): Promise<FilesTable> {
    const now = this.now();
    const changes: Partial<FilesTable> = {
      ...(await this.shareColumns(fields, now)),
      size: stored.size,
      etag: stored.etag,
      status: 'ready',
      updated_at: now.toISOString(),
    };
    let updated: boolean;
    try {
      updated = await this.ledger.updatePending(row.id, changes, replacing?.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('uploads.slug_taken');
      throw error;
    }
    if (!updated) throw conflict('uploads.not_pending');
    await this.deps.storageChanged?.({
      kind: 'written',
      at: { configId: row.storage_config_id, path: row.storage_path },
      size: stored.size,
      etag: stored.etag ?? undefined,
      // A share upload's key is its own (storage-key.ts puts the file's id in it): nothing replaced.
      previousSize: 0,
    });
    return { ...row, ...changes };
  }

  /** Removes a pending upload's bytes (if any) and its record. */
  private async discard(row: FilesTable): Promise<void> {
    await this.removeBytes(row);
    await this.ledger.deletePending(row.id);
  }

  /** Removes a file's bytes; a failure is logged (the bytes are orphaned), a missing file is fine. */
  private async removeBytes(
    row: Pick<FilesTable, 'id' | 'storage_config_id' | 'storage_path'>,
    /** The bytes it held, when known (a finished file's); the quota's count follows. */
    size?: number,
  ): Promise<void> {
    try {
      await this.objects.remove(row.storage_config_id, row.storage_path, {
        ownShare: true,
        ...(size === undefined ? {} : { size }),
      });
    } catch (error) {
      if (!isStorageError(error, 'NOT_FOUND')) {
        this.deps.logger.warn({ err: error, file: row.id }, 'could not remove the bytes of a file');
      }
    }
  }

  /** A pending file the principal created: 404 unknown, 403 someone else's, 409 no longer pending. */
  private async ownPending(principal: Principal, fileId: string): Promise<FilesTable> {
    const row = await this.files.findById(fileId);
    if (!row) throw notFound('uploads.file_not_found');
    if (!isCreator(principal, row.created_by)) throw forbidden('uploads.not_yours');
    if (row.status !== 'pending') throw conflict('uploads.not_pending');
    return row;
  }

  private async openSession(principal: Principal, fileId: string, uploadId: string): Promise<OpenSession> {
    const row = await this.ownPending(principal, fileId);
    const session = await this.ledger.findSession(fileId, uploadId);
    if (!session) throw notFound('uploads.session_not_found');
    const config = await this.deps.storageConfigs.find(session.storage_config_id);
    if (!config) throw notFound('storage.not_found');
    return { row, session, config };
  }

  private checkPartNumber(session: UploadSessionsTable, partNumber: number): void {
    if (partNumber < 1 || partNumber > session.part_count) {
      throw new AppError(400, 'VALIDATION_FAILED', 'uploads.part_number_invalid', {
        part: partNumber,
        count: session.part_count,
      });
    }
  }

  /** Activity keeps a session from being abandoned for another 24 hours. */
  private async touch(session: UploadSessionsTable): Promise<void> {
    const now = this.now();
    await this.ledger.updateSession(session.id, {
      updated_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ABANDONED_AFTER_MS).toISOString(),
    });
  }

  /**
   * The parts storage holds with the size their number calls for — the truth the ledger is brought
   * in line with (parts recorded but gone are dropped, parts present but unrecorded are added).
   */
  private async reconcile(open: OpenSession): Promise<MultipartPartInfo[]> {
    const { session, config } = open;
    let stored: MultipartPartInfo[];
    try {
      stored = await this.objects.listParts(config, session.storage_path, session.upload_id);
    } catch (error) {
      throw await this.sessionFailure(error, open);
    }
    const good = stored
      .filter((p) => p.partNumber >= 1 && p.partNumber <= session.part_count)
      .filter((p) => p.size === partSizeOf(session, p.partNumber))
      .sort((a, b) => a.partNumber - b.partNumber);
    const recorded = new Map((await this.ledger.parts(session.id)).map((p) => [p.part_number, p]));
    const now = this.now().toISOString();
    for (const part of good) {
      const known = recorded.get(part.partNumber);
      recorded.delete(part.partNumber);
      if (known && sameDigest(known.etag, part.etag)) continue;
      await this.ledger.upsertPart({
        session_id: session.id,
        part_number: part.partNumber,
        etag: part.etag,
        size: part.size,
        created_at: now,
      });
    }
    await this.ledger.deleteParts(session.id, [...recorded.keys()]);
    return good;
  }

  /** A storage failure during a session; an upload storage no longer knows is cleaned up (404). */
  private async sessionFailure(error: unknown, open: OpenSession): Promise<unknown> {
    if (isStorageError(error, 'NOT_FOUND')) {
      await this.dropSession(open, { abort: false });
      return notFound('uploads.session_not_found');
    }
    if (isStorageError(error, 'NO_SPACE')) {
      return this.writeFailure(error, open.config, open.session.total_size);
    }
    return storageFailure(error);
  }

  /** Ends a session: optionally aborts it in storage, then deletes it and its pending file. */
  private async dropSession(open: OpenSession, options: { abort: boolean; strict?: boolean }): Promise<void> {
    const { session, row } = open;
    if (options.abort) {
      try {
        await this.abortUpload(session);
      } catch (error) {
        if (!isStorageError(error, 'NOT_FOUND')) {
          if (options.strict) throw storageFailure(error);
          this.deps.logger.warn({ err: error, session: session.id }, 'could not abort a multipart upload');
        }
      }
    }
    await this.ledger.deleteSession(session.id);
    await this.ledger.deletePending(row.id);
  }

  /** A write the storage refused: 507 with the numbers when it ran out of space. */
  private async writeFailure(error: unknown, config: StorageConfigRecord, size: number): Promise<unknown> {
    if (!isStorageError(error, 'NO_SPACE')) return storageFailure(error);
    const capacity = await this.objects.capacity(config).catch(() => null);
    return new StorageFullError(size, capacity ?? { totalBytes: 0, freeBytes: 0 });
  }

  /** Presigned URLs live as long as the config says, but never past the abandonment window. */
  private signatureSeconds(config: StorageConfigRecord): number {
    return Math.max(60, Math.min(config.signature_expires_in || 3600, MAX_SIGNATURE_SECONDS));
  }
}
