/**
 * Unfinished uploads kept in localStorage so a reload does not lose them: for each, what
 * identifies the file on disk (name, size, last modified) and whatever the sender needs to continue
 * (its session ids). When the user picks the same file again the upload can continue with only the
 * parts the storage lacks. Records older than a day (the server keeps a session 24 h) are dropped.
 * Each kind of upload (a share's multipart session, an explorer relay upload) has its own list.
 */

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

/** The server aborts sessions without activity for 24 hours. */
export const KEPT_MAX_AGE_MS = 24 * 3_600_000;
/** Records kept at most per kind (the oldest go first). */
const MAX_RECORDS = 20;

export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

export function isSameFile(record: FileIdentity, file: FileIdentity): boolean {
  return record.name === file.name && record.size === file.size && record.lastModified === file.lastModified;
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
    const cutoff = this.now() - KEPT_MAX_AGE_MS;
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
