/**
 * Interrupted multipart uploads, remembered in localStorage so a reload does not lose them: for
 * each, the server's ids and what identifies the file on disk (name, size, last modified). When the
 * user picks the same file again the upload is offered for resumption and only the parts the server
 * has not confirmed are sent. Records older than the server keeps a session (24 h) are dropped.
 * How the records are kept is lib/transfer/kept-records.ts; this is the share upload's kind.
 */
import { KEPT_MAX_AGE_MS, KeptRecords, isSameFile, type StorageLike } from '../../lib/transfer/index.ts';

export interface ResumeRecord {
  file_id: string;
  upload_id: string;
  name: string;
  size: number;
  lastModified: number;
  part_size: number;
  part_count: number;
  /** Milliseconds since the epoch when the upload started. */
  startedAt: number;
}

export const RESUME_STORAGE_KEY = 'cubby.upload.resumable';
/** The server aborts sessions without activity for 24 hours. */
export const RESUME_MAX_AGE_MS = KEPT_MAX_AGE_MS;

function isRecord(value: unknown): value is ResumeRecord {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.file_id === 'string' &&
    typeof r.upload_id === 'string' &&
    typeof r.name === 'string' &&
    typeof r.size === 'number' &&
    typeof r.lastModified === 'number' &&
    typeof r.part_size === 'number' &&
    r.part_size > 0 &&
    typeof r.part_count === 'number' &&
    typeof r.startedAt === 'number'
  );
}

/** The share upload page's multipart sessions (one record per file: a newer one replaces it). */
export class ResumeStore extends KeptRecords<ResumeRecord> {
  constructor(storage?: StorageLike, now?: () => number) {
    super({ storageKey: RESUME_STORAGE_KEY, isRecord, idOf: (r) => r.file_id }, storage, now);
  }

  override save(record: ResumeRecord): void {
    for (const old of this.list())
      if (isSameFile(old, record) && old.file_id !== record.file_id) this.forget(old.file_id);
    super.save(record);
  }
}
