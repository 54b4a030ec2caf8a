/**
 * Interrupted multipart uploads, remembered in localStorage so a reload does not lose them: for
 * each, the server's ids and what identifies the file on disk (name, size, last modified). When the
 * user picks the same file again the upload is offered for resumption and only the parts the server
 * has not confirmed are sent. Records older than the server keeps a session (24 h) are dropped.
 */

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

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

export const RESUME_STORAGE_KEY = 'cubby.upload.resumable';
/** The server aborts sessions without activity for 24 hours. */
export const RESUME_MAX_AGE_MS = 24 * 3_600_000;
/** Records kept at most (the oldest go first). */
const MAX_RECORDS = 20;

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

export function isSameFile(record: FileIdentity, file: FileIdentity): boolean {
  return record.name === file.name && record.size === file.size && record.lastModified === file.lastModified;
}

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

/** What a kind of kept upload record is: where it is stored, how it is recognised and named. */
export interface KeptRecordsKind<R> {
  storageKey: string;
  isRecord(value: unknown): value is R;
  idOf(record: R): string;
}

/** Upload records kept in localStorage for a day: a list per kind, at most {@link MAX_RECORDS}. */
export class KeptRecords<R extends FileIdentity & { startedAt: number }> {
  constructor(
    private readonly kind: KeptRecordsKind<R>,
    private readonly storage: StorageLike | undefined = globalThis.localStorage,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every usable record (well-formed, not too old). */
  list(): R[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.storage?.getItem(this.kind.storageKey) ?? '[]');
    } catch {
      return [];
    }
    const cutoff = this.now() - RESUME_MAX_AGE_MS;
    return Array.isArray(parsed)
      ? parsed.filter((r) => this.kind.isRecord(r)).filter((r) => r.startedAt > cutoff)
      : [];
  }

  /** The record of an interrupted upload of this very file, if any. */
  find(file: FileIdentity, where: (record: R) => boolean = () => true): R | null {
    return this.list().find((record) => isSameFile(record, file) && where(record)) ?? null;
  }

  /** Remembers an upload (replacing an older record with the same id). */
  save(record: R): void {
    const id = this.kind.idOf(record);
    const others = this.list().filter((r) => this.kind.idOf(r) !== id);
    this.write([...others, record].slice(-MAX_RECORDS));
  }

  /** Forgets an upload (finished, aborted, or gone on the server). */
  forget(id: string): void {
    this.write(this.list().filter((r) => this.kind.idOf(r) !== id));
  }

  private write(records: R[]): void {
    try {
      this.storage?.setItem(this.kind.storageKey, JSON.stringify(records));
    } catch {
      // Storage full or unavailable: the upload still works, it just cannot be resumed.
    }
  }
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
