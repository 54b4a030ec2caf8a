/**
 * Share uploads through presigned URLs (docs/architecture.md, "Uploads"):
 *
 * - presign + commit: the browser PUTs the whole file to a presigned URL bound to the declared size
 *   and type (part 1 of a one-part multipart upload); commit checks what storage really holds;
 * - multipart: parts go straight to storage through presigned part URLs, on the session ledger
 *   (upload-ledger.ts), and complete once storage holds every part with its size;
 * - URL upload: the same flows, described by the source URL's metadata.
 */
import { randomUUID } from 'node:crypto';
import { formatBytes, type Principal, sameDigest } from '@cubby/shared';
import type { FilesTable, UploadSessionsTable } from '../../db/schema.ts';
import { badRequest, notFound, uploadTooLarge } from '../../errors/app-error.ts';
import { isStorageError, MULTIPART_LIMITS, type MultipartPartInfo } from '../../vfs/objects.ts';
import { ABANDONED_AFTER_MS, partSizeOf, type SessionLedger } from './upload-ledger.ts';
import type { UploadQuota } from './upload-quota.ts';
import { type OpenSession, type Placement, storageFailure, type UploadSteps } from './upload-steps.ts';
import type {
  CommitInput,
  CompleteInput,
  MultipartInitInput,
  PresignInput,
  ShareFields,
  UrlMultipartInitInput,
  UrlPresignInput,
} from './uploads.schemas.ts';
import type { StorageConfigRecord } from '../storage-configs/storage-configs.service.ts';

/** Presigned URLs never outlive the abandonment window, whatever the config says. */
const MAX_SIGNATURE_SECONDS = ABANDONED_AFTER_MS / 1000;
const DEFAULT_PART_SIZE = MULTIPART_LIMITS.minPartSize;

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

export class PartUploads {
  constructor(
    private readonly steps: UploadSteps,
    private readonly quota: UploadQuota,
    private readonly sessions: SessionLedger,
  ) {}

  /**
   * A pending file and a URL the client PUTs exactly `size` bytes to. The URL is that of part 1 of
   * a one-part multipart upload, not of the object itself: the bytes become the object only when
   * commit completes the upload, and a completed or aborted upload takes no more parts (the storage
   * answers 404), so the URL cannot replace the file once it is shared.
   */
  async presign(principal: Principal, input: PresignInput) {
    if (input.size > MULTIPART_LIMITS.maxPartSize) {
      throw badRequest('uploads.too_large_for_presign', {
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
    const row = await this.steps.ownPending(principal, input.file_id);
    const [session] = await this.steps.ledger.sessionsOfFile(row.id);
    if (!session) throw notFound('uploads.session_not_found');
    const open = await this.sessions.openSession(principal, row.id, session.upload_id);
    const parts = await this.sessions.reconcile(open);
    if (parts.length === 0) {
      await this.sessions.dropSession(open, { abort: true });
      throw badRequest('uploads.object_missing');
    }
    const given = input.etag ? [{ partNumber: 1, etag: input.etag }] : undefined;
    return this.completeSession(open, parts, given, input);
  }

  /** Starts a multipart upload: a pending file (with its share fields) and a ledger session. */
  async initMultipart(principal: Principal, input: MultipartInitInput) {
    return this.startSession(principal, input, planParts(input.size, input.part_size));
  }

  /** A pending file (quota reserved), its multipart upload in storage and its ledger session. */
  async startSession(
    principal: Principal,
    input: Placement,
    plan: { partSize: number; partCount: number },
  ): Promise<OpenSession> {
    await this.steps.checkSize(input.size);
    const upload = await this.steps.newUpload(principal, input);
    const { config, row } = upload;
    await this.quota.reserve(config, row);
    let uploadId: string;
    try {
      uploadId = await this.steps.objects.initMultipart(config, row.storage_path, row.mimetype);
    } catch (error) {
      await this.steps.ledger.deletePending(row.id);
      throw storageFailure(error);
    }
    const now = this.steps.now();
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
      await this.steps.ledger.insertSession(session);
    } catch (error) {
      await this.steps.objects.abortMultipart(config, row.storage_path, uploadId).catch(() => undefined);
      await this.steps.ledger.deletePending(row.id);
      throw error;
    }
    return { ...upload, session };
  }

  /** Fresh presigned URLs for some parts, each bound to its exact size. */
  async partUrls(
    principal: Principal,
    input: { file_id: string; upload_id: string; part_numbers: number[] },
  ): Promise<Array<{ partNumber: number; url: URL }>> {
    const open = await this.sessions.openSession(principal, input.file_id, input.upload_id);
    const numbers = [...new Set(input.part_numbers)].sort((a, b) => a - b);
    for (const n of numbers) this.sessions.checkPartNumber(open.session, n);
    await this.sessions.touch(open.session);
    return this.signParts(open, numbers);
  }

  async signParts(open: OpenSession, numbers: number[]) {
    const { session, config } = open;
    const expiresIn = this.signatureSeconds(config);
    const urls: Array<{ partNumber: number; url: URL }> = [];
    try {
      // One at a time: the local driver reads the upload's folder for each.
      for (const partNumber of numbers) {
        const url = await this.steps.objects.presignPart(
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
      throw await this.sessions.sessionFailure(error, open);
    }
    return urls;
  }

  /** The parts confirmed so far (the ledger, reconciled with storage), so a client resumes with the rest. */
  async status(principal: Principal, fileId: string, uploadId: string) {
    const open = await this.sessions.openSession(principal, fileId, uploadId);
    const parts = await this.sessions.reconcile(open);
    await this.sessions.touch(open.session);
    return { open, parts };
  }

  /** Records a part the client finished, after checking storage holds it with that ETag. */
  async recordPart(
    principal: Principal,
    input: { file_id: string; upload_id: string; partNumber: number; etag: string },
  ): Promise<MultipartPartInfo> {
    const open = await this.sessions.openSession(principal, input.file_id, input.upload_id);
    this.sessions.checkPartNumber(open.session, input.partNumber);
    const parts = await this.sessions.reconcile(open);
    const found = parts.find((p) => p.partNumber === input.partNumber && sameDigest(p.etag, input.etag));
    if (!found) {
      throw badRequest('uploads.part_not_found', { part: input.partNumber });
    }
    await this.sessions.touch(open.session);
    return found;
  }

  /**
   * Completes a multipart upload from the reconciled ledger: every part present with its expected
   * size (so the total is the declared size), any `parts` the client lists matching storage's ETags,
   * the total within the upload limit. The file becomes ready and the session goes.
   */
  async complete(principal: Principal, input: CompleteInput): Promise<FilesTable> {
    const open = await this.sessions.openSession(principal, input.file_id, input.upload_id);
    return this.completeSession(open, await this.sessions.reconcile(open), input.parts, {});
  }

  async completeSession(
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
        throw badRequest('uploads.part_not_found', { part: part.partNumber });
      }
    }
    const missing: number[] = [];
    for (let n = 1; n <= session.part_count; n++) if (!parts.has(n)) missing.push(n);
    if (missing.length > 0) {
      throw badRequest('uploads.parts_missing', { parts: listNumbers(missing) });
    }
    const max = await this.steps.deps.settings.maxUploadBytes();
    if (session.total_size > max) {
      await this.sessions.dropSession(open, { abort: true });
      throw uploadTooLarge(max, session.total_size);
    }
    // The share policy on the commit's fields before storage completes the upload: refused, the
    // parts stay, so the client may commit again with fields the policy keeps (docs/api.md, "Share policy").
    const columns = await this.steps.finishColumns(row, fields, session.total_size);
    const ordered = [...parts.values()].sort((a, b) => a.partNumber - b.partNumber);
    let written;
    try {
      written = await this.steps.objects.completeMultipart(
        config,
        session.storage_path,
        session.upload_id,
        ordered,
      );
    } catch (error) {
      throw await this.sessions.sessionFailure(error, open);
    }
    if (written.size !== session.total_size) {
      await this.sessions.dropSession(open, { abort: false });
      await this.steps.discard(row);
      throw badRequest('uploads.size_mismatch', {
        actual: written.size,
        declared: session.total_size,
      });
    }
    const file = await this.steps.finish(
      row,
      { columns },
      { size: written.size, etag: written.etag ?? null },
    );
    await this.steps.ledger.deleteSession(session.id);
    return file;
  }

  /** Aborts a multipart upload and deletes its pending file. */
  async abort(principal: Principal, fileId: string, uploadId: string): Promise<void> {
    const open = await this.sessions.openSession(principal, fileId, uploadId);
    await this.sessions.dropSession(open, { abort: true, strict: true });
  }

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
    const row = await this.steps.ownPending(principal, fileId);
    await this.abortSessionsOf(row.id);
    await this.steps.discard(row);
  }

  /** Aborts a file's multipart uploads in storage and forgets them (one storage already forgot is fine). */
  async abortSessionsOf(fileId: string): Promise<void> {
    for (const session of await this.steps.ledger.sessionsOfFile(fileId)) {
      await this.sessions.abortUpload(session).catch((error: unknown) => {
        if (!isStorageError(error, 'NOT_FOUND')) throw storageFailure(error);
      });
      await this.steps.ledger.deleteSession(session.id);
    }
  }

  async describeSource(input: UrlPresignInput & { total_size?: number | undefined }) {
    const url = checkSourceUrl(input.url);
    let filename = input.filename ?? input.metadata?.filename;
    let size = input.metadata?.size ?? input.size ?? input.total_size;
    if ((filename === undefined || size === undefined) && this.steps.deps.probe) {
      const probed = await this.steps.deps.probe(url.toString());
      filename ??= probed.filename;
      size ??= probed.size ?? undefined;
    }
    if (size === undefined) throw badRequest('uploads.size_unknown');
    if (!filename) filename = lastSegment(url) || 'file';
    return { filename, size };
  }

  /** Presigned URLs live as long as the config says, but never past the abandonment window. */
  signatureSeconds(config: StorageConfigRecord): number {
    return Math.max(60, Math.min(config.signature_expires_in || 3600, MAX_SIGNATURE_SECONDS));
  }
}
