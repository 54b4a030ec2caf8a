/** What every uploader is given: where to, with which share settings, how to report, when to stop. */
import type { FileScope } from '../api/upload-api.ts';
import type { ResumeStore } from '../resume-store.ts';
import type { ShareInput } from '../upload-form.ts';
import { cancelledError, type UploadTuning } from '../../../lib/transfer/index.ts';

/** docs/product.md §4 upload stages (plus downloading, for URL uploads). */
export type UploadStage =
  'starting' | 'initializing' | 'downloading' | 'uploading' | 'processing' | 'completing' | 'completed';

export interface UploadTarget {
  /** Storage config; absent = the server's default. */
  configId?: string;
  share: ShareInput;
}

export interface ProgressReport {
  /** 0–100 for the whole item. */
  percent: number;
  /** Bytes done and expected in the current phase (for speed and time left); total 0 = unknown. */
  loaded: number;
  total: number;
}

export interface UploadRun {
  target: UploadTarget;
  signal: AbortSignal;
  tuning: UploadTuning;
  /** Where a failed upload's record is deleted. */
  scope: FileScope;
  resumeStore: ResumeStore;
  stage(stage: UploadStage): void;
  progress(report: ProgressReport): void;
}

/** Throws the "cancelled" failure when the run was cancelled (checked between steps). */
export function checkCancelled(run: Pick<UploadRun, 'signal'>): void {
  if (run.signal.aborted) throw cancelledError();
}
