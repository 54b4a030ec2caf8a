/**
 * The session ledger (docs/architecture.md, "Uploads"): what the database knows of uploads
 * under way.
 *
 * - Multipart sessions (`upload_sessions`, `upload_parts`): parts go straight to storage through
 *   presigned part URLs; the ledger, reconciled with the storage's own list of parts, lets an
 *   interrupted upload resume and an abandoned one be aborted (upload-janitor.ts).
 * - Streamed uploads (form, upload-direct) can only finish in the process they stream through, so
 *   each is on the ledger with that process's tag and a heartbeat: after a crash the janitor frees
 *   its pending file and slug at once (the process is gone) or once the heartbeat is stale.
 */
import { type Principal, sameDigest } from '@cubby/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import type { FilesTable, UploadSessionsTable } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../errors/app-error.ts';
import { formatTag, THIS_PROCESS } from '../../lib/process-tag.ts';
import { isStorageError, type MultipartPartInfo } from '../../vfs/objects.ts';
import type { UploadQuota } from './upload-quota.ts';
import {
  HOUR_MS,
  type OpenSession,
  storageFailure,
  type StreamTiming,
  type UploadSteps,
} from './upload-steps.ts';

/** Multipart sessions idle this long, and pending presigned uploads this old, are abandoned. */
export const ABANDONED_AFTER_MS = 24 * HOUR_MS;

export /** Part sizes of an upload: every part `part_size` bytes except the last, which takes the rest. */
function partSizeOf(
  session: Pick<UploadSessionsTable, 'part_size' | 'part_count' | 'total_size'>,
  n: number,
) {
  return n < session.part_count
    ? session.part_size
    : session.total_size - (session.part_count - 1) * session.part_size;
}

export class SessionLedger {
  /** The uploads streaming through this process now (file ids), kept alive by `heartbeat`. */
  readonly streaming = new Set<string>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly steps: UploadSteps,
    private readonly quota: UploadQuota,
    private readonly timing: StreamTiming,
  ) {}

  /**
   * Inserts a streamed upload's pending file with its ledger row (lib/process-tag.ts names this
   * process), and keeps it alive with a heartbeat until `endStream`.
   */
  async startStream(row: FilesTable): Promise<void> {
    try {
      await this.steps.ledger.insertStreamed(row, formatTag(THIS_PROCESS));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('uploads.slug_taken');
      throw error;
    }
    this.streaming.add(row.id);
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => {
        this.steps.ledger
          .heartbeat([...this.streaming], this.steps.now().toISOString())
          .catch((error: unknown) => {
            this.steps.deps.logger.warn({ err: error }, 'could not mark streamed uploads alive');
          });
      }, this.timing.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  /** A streamed upload is over (finished, or its file dropped): off the ledger, no more heartbeat. */
  async endStream(fileId: string): Promise<void> {
    if (!this.streaming.delete(fileId)) return;
    if (this.streaming.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
    await this.steps.ledger.endStreamed(fileId);
  }

  async openSession(principal: Principal, fileId: string, uploadId: string): Promise<OpenSession> {
    const row = await this.steps.ownPending(principal, fileId);
    const session = await this.steps.ledger.findSession(fileId, uploadId);
    if (!session) throw notFound('uploads.session_not_found');
    const config = await this.steps.deps.storageConfigs.find(session.storage_config_id);
    if (!config) throw notFound('storage.not_found');
    return { row, session, config };
  }

  checkPartNumber(session: UploadSessionsTable, partNumber: number): void {
    if (partNumber < 1 || partNumber > session.part_count) {
      throw badRequest('uploads.part_number_invalid', {
        part: partNumber,
        count: session.part_count,
      });
    }
  }

  /** Activity keeps a session from being abandoned for another 24 hours. */
  async touch(session: UploadSessionsTable): Promise<void> {
    const now = this.steps.now();
    await this.steps.ledger.updateSession(session.id, {
      updated_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ABANDONED_AFTER_MS).toISOString(),
    });
  }

  /**
   * The parts storage holds with the size their number calls for — the truth the ledger is brought
   * in line with (parts recorded but gone are dropped, parts present but unrecorded are added).
   */
  async reconcile(open: OpenSession): Promise<MultipartPartInfo[]> {
    const { session, config } = open;
    let stored: MultipartPartInfo[];
    try {
      stored = await this.steps.objects.listParts(config, session.storage_path, session.upload_id);
    } catch (error) {
      throw await this.sessionFailure(error, open);
    }
    const good = stored
      .filter((p) => p.partNumber >= 1 && p.partNumber <= session.part_count)
      .filter((p) => p.size === partSizeOf(session, p.partNumber))
      .sort((a, b) => a.partNumber - b.partNumber);
    const recorded = new Map((await this.steps.ledger.parts(session.id)).map((p) => [p.part_number, p]));
    const now = this.steps.now().toISOString();
    for (const part of good) {
      const known = recorded.get(part.partNumber);
      recorded.delete(part.partNumber);
      if (known && sameDigest(known.etag, part.etag)) continue;
      await this.steps.ledger.upsertPart({
        session_id: session.id,
        part_number: part.partNumber,
        etag: part.etag,
        size: part.size,
        created_at: now,
      });
    }
    await this.steps.ledger.deleteParts(session.id, [...recorded.keys()]);
    return good;
  }

  /** A storage failure during a session; an upload storage no longer knows is cleaned up (404). */
  async sessionFailure(error: unknown, open: OpenSession): Promise<unknown> {
    if (isStorageError(error, 'NOT_FOUND')) {
      await this.dropSession(open, { abort: false });
      return notFound('uploads.session_not_found');
    }
    if (isStorageError(error, 'NO_SPACE')) {
      return this.quota.writeFailure(error, open.config, open.session.total_size);
    }
    return storageFailure(error);
  }

  /** Ends a session: optionally aborts it in storage, then deletes it and its pending file. */
  async dropSession(open: OpenSession, options: { abort: boolean; strict?: boolean }): Promise<void> {
    const { session, row } = open;
    if (options.abort) {
      try {
        await this.abortUpload(session);
      } catch (error) {
        if (!isStorageError(error, 'NOT_FOUND')) {
          if (options.strict) throw storageFailure(error);
          this.steps.deps.logger.warn(
            { err: error, session: session.id },
            'could not abort a multipart upload',
          );
        }
      }
    }
    await this.steps.ledger.deleteSession(session.id);
    await this.steps.ledger.deletePending(row.id);
  }

  /** Aborts a session's multipart upload in storage. */
  abortUpload(session: UploadSessionsTable): Promise<void> {
    return this.steps.objects.abortMultipart(
      session.storage_config_id,
      session.storage_path,
      session.upload_id,
    );
  }
}
