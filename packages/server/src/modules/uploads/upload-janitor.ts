/**
 * The upload janitor (docs/architecture.md, "Uploads"): clears what unfinished uploads left —
 * multipart sessions idle for 24 hours and presigned uploads never committed, the multipart uploads
 * a storage holds that no session knows, the streamed uploads of a process that is gone (their
 * pending file and slug), and the partial temp files of local storage. A storage that cannot be
 * reached keeps its leftovers for the next run.
 */
import { parseTag, processState } from '../../lib/process-tag.ts';
import { isStorageError } from '../../vfs/objects.ts';
import { ABANDONED_AFTER_MS, type SessionLedger } from './upload-ledger.ts';
import type { StreamTiming, UploadSteps } from './upload-steps.ts';

/** Rows the orphan job handles per run; the rest wait for the next run. */
const PURGE_BATCH = 500;

export class UploadJanitor {
  constructor(
    private readonly steps: UploadSteps,
    private readonly sessions: SessionLedger,
    private readonly timing: StreamTiming,
  ) {}

  /**
   * Aborts multipart uploads idle for 24 hours and deletes their pending files, deletes pending
   * presigned uploads older than 24 hours with whatever bytes reached storage, and aborts the uploads
   * a storage holds that no session knows once they are 24 hours old (`abortStrayUploads`). A storage
   * that cannot be reached keeps its leftovers for the next run. Returns how many uploads were
   * cleaned up.
   */
  async purgeAbandonedUploads(): Promise<number> {
    const now = this.steps.now();
    let count = 0;
    for (const session of await this.steps.ledger.expiredSessions(now.toISOString(), PURGE_BATCH)) {
      try {
        await this.sessions.abortUpload(session).catch((error: unknown) => {
          if (!isStorageError(error, 'NOT_FOUND')) throw error;
        });
        await this.steps.ledger.deleteSession(session.id);
        if (session.file_id) await this.steps.ledger.deletePending(session.file_id);
        count++;
      } catch (error) {
        this.steps.deps.logger.warn(
          { err: error, session: session.id },
          'could not abort an abandoned upload',
        );
      }
    }
    const before = new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString();
    for (const row of await this.steps.ledger.stalePending(before, PURGE_BATCH)) {
      try {
        await this.steps.objects
          .remove(row.storage_config_id, row.storage_path, { ownShare: true })
          .catch((error: unknown) => {
            if (!isStorageError(error, 'NOT_FOUND')) throw error;
          });
        if (await this.steps.ledger.deletePending(row.id)) count++;
      } catch (error) {
        this.steps.deps.logger.warn({ err: error, file: row.id }, 'could not remove an abandoned upload');
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
  async abortStrayUploads(before: string): Promise<number> {
    const cutoff = Date.parse(before);
    let count = 0;
    for (const config of await this.steps.deps.storageConfigs.repo.list()) {
      try {
        const uploads = await this.steps.objects.listUploads(config.id, PURGE_BATCH);
        if (uploads.length === 0) continue;
        const known = await this.steps.ledger.uploadIdsOf(config.id);
        for (const upload of uploads) {
          if (known.has(upload.uploadId) || upload.initiated.getTime() >= cutoff) continue;
          await this.steps.objects
            .abortMultipart(config.id, upload.path, upload.uploadId)
            .catch((error: unknown) => {
              if (!isStorageError(error, 'NOT_FOUND')) throw error;
            });
          count++;
        }
      } catch (error) {
        this.steps.deps.logger.warn({ err: error, config: config.id }, 'could not abort stray uploads');
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
    const silentSince = this.steps.now().getTime() - this.timing.staleAfterMs;
    let count = 0;
    for (const upload of await this.steps.ledger.streamedPending(PURGE_BATCH)) {
      if (this.sessions.streaming.has(upload.file_id)) continue;
      const dead = processState(parseTag(upload.owner)) === 'dead';
      if (!dead && Date.parse(upload.heartbeat_at) > silentSince) continue;
      try {
        await this.steps.removeBytes({ ...upload, id: upload.file_id });
        if (await this.steps.ledger.deletePending(upload.file_id)) count++;
      } catch (error) {
        this.steps.deps.logger.warn(
          { err: error, file: upload.file_id },
          'could not free an orphaned upload',
        );
      }
    }
    return count;
  }

  /**
   * Removes the temp files crashed writes left in storage (a driver's `sweepTemp`: local disk's).
   * Returns how many went.
   */
  async removeLeftoverTemps(): Promise<number> {
    let count = 0;
    for (const config of await this.steps.deps.storageConfigs.repo.list()) {
      try {
        count += await this.steps.objects.sweepTemp(config.id, this.timing.tempMaxAgeMs);
      } catch (error) {
        this.steps.deps.logger.warn({ err: error, config: config.id }, 'could not sweep a storage folder');
      }
    }
    return count;
  }
}
