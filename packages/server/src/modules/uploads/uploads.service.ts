/**
 * File-share uploads, every way they reach storage, put together from their pieces
 * (docs/architecture.md, "Uploads"):
 *
 * - upload-stream.ts: form upload (`POST /api/upload`) and upload-direct
 *   (`PUT /api/upload-direct/:filename`), streamed to storage while they arrive;
 * - upload-parts.ts: presign + commit, multipart through presigned part URLs, URL uploads;
 * - upload-ledger.ts: the sessions and streamed uploads in the database;
 * - upload-quota.ts: the room an upload needs (the quota's one rule, vfs/quota.ts);
 * - upload-janitor.ts: what abandoned and orphaned uploads left;
 * - upload-steps.ts: the steps they share (the pending row, finishing, removing).
 *
 * Every piece reaches storage through vfs/objects.ts.
 */
import type { Principal } from '@cubby/shared';
import type { SettingsService } from '../settings/settings.service.ts';
import { probeUrl, urlFetchAppError } from '../url-upload/url-probe.ts';
import { UploadJanitor } from './upload-janitor.ts';
import { SessionLedger } from './upload-ledger.ts';
import { PartUploads } from './upload-parts.ts';
import { UploadQuota } from './upload-quota.ts';
import { DEFAULT_STREAM_TIMING, UploadSteps, type UploadsDeps, type UrlProbe } from './upload-steps.ts';
import { StreamUploads } from './upload-stream.ts';

export { ABANDONED_AFTER_MS } from './upload-ledger.ts';
export { planParts } from './upload-parts.ts';
export {
  DEFAULT_STREAM_TIMING,
  type ProbedSource,
  type StreamTiming,
  type UploadsDeps,
  type UrlProbe,
} from './upload-steps.ts';

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

export class UploadsService {
  private readonly stream: StreamUploads;
  private readonly parts: PartUploads;
  private readonly sessions: SessionLedger;
  private readonly janitor: UploadJanitor;
  private readonly steps: UploadSteps;

  constructor(deps: UploadsDeps) {
    const timing = { ...DEFAULT_STREAM_TIMING, ...deps.streamTiming };
    const steps = new UploadSteps(deps);
    this.steps = steps;
    const quota = new UploadQuota(steps);
    this.sessions = new SessionLedger(steps, quota, timing);
    this.stream = new StreamUploads(steps, quota, this.sessions);
    this.parts = new PartUploads(steps, quota, this.sessions);
    this.janitor = new UploadJanitor(steps, this.sessions, timing);
  }

  // ---- streamed (upload-stream.ts) -------------------------------------------------------------

  formUpload(...args: Parameters<StreamUploads['formUpload']>) {
    return this.stream.formUpload(...args);
  }

  directUpload(...args: Parameters<StreamUploads['directUpload']>) {
    return this.stream.directUpload(...args);
  }

  streamShare(...args: Parameters<StreamUploads['streamShare']>) {
    return this.stream.streamShare(...args);
  }

  // ---- presigned (upload-parts.ts) -------------------------------------------------------------

  presign(...args: Parameters<PartUploads['presign']>) {
    return this.parts.presign(...args);
  }

  commit(...args: Parameters<PartUploads['commit']>) {
    return this.parts.commit(...args);
  }

  initMultipart(...args: Parameters<PartUploads['initMultipart']>) {
    return this.parts.initMultipart(...args);
  }

  partUrls(...args: Parameters<PartUploads['partUrls']>) {
    return this.parts.partUrls(...args);
  }

  status(...args: Parameters<PartUploads['status']>) {
    return this.parts.status(...args);
  }

  recordPart(...args: Parameters<PartUploads['recordPart']>) {
    return this.parts.recordPart(...args);
  }

  complete(...args: Parameters<PartUploads['complete']>) {
    return this.parts.complete(...args);
  }

  abort(...args: Parameters<PartUploads['abort']>) {
    return this.parts.abort(...args);
  }

  urlPresign(...args: Parameters<PartUploads['urlPresign']>) {
    return this.parts.urlPresign(...args);
  }

  urlMultipartInit(...args: Parameters<PartUploads['urlMultipartInit']>) {
    return this.parts.urlMultipartInit(...args);
  }

  cancel(...args: Parameters<PartUploads['cancel']>) {
    return this.parts.cancel(...args);
  }

  abortSessionsOf(...args: Parameters<PartUploads['abortSessionsOf']>) {
    return this.parts.abortSessionsOf(...args);
  }

  // ---- share uploads of other doors (modules/tus) ----------------------------------------------

  /**
   * Starts a share upload whose parts another door sends to storage itself, in the `plan`'s part
   * sizes: the pending file (quota reserved), the storage's multipart upload and its ledger session
   * — the same steps as `initMultipart`.
   */
  startShareSession(...args: Parameters<PartUploads['startSession']>) {
    return this.parts.startSession(...args);
  }

  /** Completes such an upload from what storage holds (every part at its planned size), as `complete`. */
  async finishShareSession(principal: Principal, fileId: string, uploadId: string) {
    const open = await this.sessions.openSession(principal, fileId, uploadId);
    return this.parts.completeSession(open, await this.sessions.reconcile(open), undefined, {});
  }

  /** Gives such an upload up (no caller: a janitor's too): its storage upload, session and pending file. */
  async dropShareSession(fileId: string): Promise<void> {
    await this.parts.abortSessionsOf(fileId);
    await this.steps.ledger.deletePending(fileId);
  }

  // ---- leftovers (upload-janitor.ts) -----------------------------------------------------------

  purgeAbandonedUploads(...args: Parameters<UploadJanitor['purgeAbandonedUploads']>) {
    return this.janitor.purgeAbandonedUploads(...args);
  }

  freeOrphanedStreams(...args: Parameters<UploadJanitor['freeOrphanedStreams']>) {
    return this.janitor.freeOrphanedStreams(...args);
  }

  removeLeftoverTemps(...args: Parameters<UploadJanitor['removeLeftoverTemps']>) {
    return this.janitor.removeLeftoverTemps(...args);
  }
}
