/**
 * Streamed share uploads (docs/architecture.md, "Uploads"): the form upload
 * (`POST /api/upload`), whose file part is streamed to storage while it arrives, and upload-direct
 * (`PUT /api/upload-direct/:filename`), whose raw body is streamed the same way. Sizes are held to
 * the largest upload size (413) and to the room the config has (upload-quota.ts, 507).
 */
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { isCreator, type Principal } from '@cubby/shared';
import type { FilesTable } from '../../db/schema.ts';
import { badRequest, forbidden } from '../../errors/app-error.ts';
import { validate } from '../../http/validate.ts';
import { webBody } from '../../lib/node-body.ts';
import { ByteLimit } from '../../vfs/objects.ts';
import { StorageFullError } from '../../vfs/quota.ts';
import { FORM_OVERHEAD_BYTES, readUploadForm } from './upload-form.ts';
import type { SessionLedger } from './upload-ledger.ts';
import type { UploadQuota } from './upload-quota.ts';
import { uploadTooLarge } from '../../errors/app-error.ts';
import { shareTooLarge } from '../shares/share-policy.ts';
import { type NewUpload, type Placement, type UploadSteps } from './upload-steps.ts';
import { type DirectUploadInput, formFieldsSchema, PLACEMENT_FIELDS } from './uploads.schemas.ts';

export class StreamUploads {
  constructor(
    private readonly steps: UploadSteps,
    private readonly quota: UploadQuota,
    private readonly sessions: SessionLedger,
  ) {}

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
    const max = await this.steps.deps.settings.maxUploadBytes();
    const declared = request.contentLength;
    if (declared !== undefined && declared > max + FORM_OVERHEAD_BYTES) throw uploadTooLarge(max, declared);
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
      if (late) throw badRequest('uploads.field_after_file', { field: late });
      const fields = validate(formFieldsSchema, Object.fromEntries(form.fields));
      await this.quota.checkQuota(config, row);
      return await this.steps.finish(row, fields, { size: row.size, etag: row.etag });
    } catch (error) {
      // The file may be stored and the form still fail after it (a field after it, a broken end).
      if (received) await this.steps.discard(received.row);
      throw error;
    } finally {
      if (received) await this.sessions.endStream(received.row.id);
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
    const max = await this.steps.deps.settings.maxUploadBytes();
    const declared = request.contentLength;
    if (declared !== undefined && declared > max) throw uploadTooLarge(max, declared);
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
      await this.quota.checkQuota(config, row);
      const done = await this.steps.finish(
        row,
        { ...fields, slug: replacing?.slug ?? fields.slug },
        row,
        replacing,
      );
      if (replacing) await this.steps.removeBytes(replacing, replacing.size);
      return { row: done, ownFolder };
    } catch (error) {
      await this.steps.discard(row);
      throw error;
    } finally {
      await this.sessions.endStream(row.id);
    }
  }

  /**
   * A new file share of `principal` from a stream another door received (an upload request into a
   * bundle): no share fields of its own, the upload limits of every upload. `attach` runs while the
   * file is still pending (no public route serves it); a failure there or after leaves no file.
   */
  async streamShare(
    principal: Principal,
    stream: Readable,
    file: { filename: string; size?: number | undefined },
    attach: (row: FilesTable) => Promise<void>,
  ): Promise<FilesTable> {
    const max = await this.steps.deps.settings.maxUploadBytes();
    const { row, config } = await this.receiveFile(
      principal,
      stream,
      { filename: file.filename, size: 0 },
      { max, declared: file.size, overhead: 0 },
    );
    try {
      await this.quota.checkQuota(config, row);
      await attach(row);
      return await this.steps.finish(row, {}, row);
    } catch (error) {
      await this.steps.discard(row);
      throw error;
    } finally {
      await this.sessions.endStream(row.id);
    }
  }

  /** The share an override may replace: 403 when someone else created it. */
  async replaceable(principal: Principal, slug: string): Promise<FilesTable | undefined> {
    const existing = await this.steps.files.findBySlug(slug);
    if (existing && !isCreator(principal, existing.created_by)) throw forbidden('uploads.override_forbidden');
    return existing;
  }

  /**
   * A new upload's body: a pending row, then the bytes streamed to storage under the size limits
   * (`declared`: the request's Content-Length; `overhead`: what the request adds to the file's bytes).
   */
  async receiveFile(
    principal: Principal,
    stream: Readable,
    placement: Placement,
    limits: { max: number; declared: number | undefined; overhead: number },
  ): Promise<NewUpload> {
    const { max, declared, overhead } = limits;
    const upload = await this.steps.newUpload(principal, placement);
    const { config, row } = upload;
    const capacity = await this.steps.objects.capacity(config);
    if (capacity && declared !== undefined && declared > capacity.freeBytes + overhead) {
      throw new StorageFullError(declared, capacity);
    }
    await this.sessions.startStream(row);
    const free = capacity?.freeBytes ?? Number.MAX_SAFE_INTEGER;
    // The share policy's largest share cuts the body too (upload-steps.ts, newUpload).
    const shareMax = upload.shareMaxBytes ?? Number.MAX_SAFE_INTEGER;
    const limiter = new ByteLimit(Math.min(max, free, shareMax), false);
    try {
      // webBody, not Readable.toWeb: that one copies every chunk, and a large upload's RSS grows with the garbage.
      const body = webBody(pipeline(stream, limiter, () => undefined));
      // Its pending row holds its bytes in the quota; `finish` reports it written.
      const written = await this.steps.objects.write(config, row.storage_path, body, {
        contentType: row.mimetype,
        pendingShare: true,
      });
      const stored = { size: written.size, etag: written.etag ?? null };
      await this.steps.ledger.updatePending(row.id, stored);
      return { ...upload, row: { ...row, ...stored } };
    } catch (error) {
      // A failed write leaves nothing in storage; only the row has to go.
      await this.steps.ledger.deletePending(row.id);
      await this.sessions.endStream(row.id);
      if (limiter.failure?.code === 'TOO_LARGE') {
        if (shareMax < Math.min(max, free)) throw shareTooLarge(shareMax, limiter.bytes);
        throw max <= free ? uploadTooLarge(max) : new StorageFullError(declared ?? limiter.bytes, capacity!);
      }
      throw await this.quota.writeFailure(error, config, declared ?? limiter.bytes);
    }
  }
}
