/**
 * Sending one file into a mount folder through this server, so no bucket needs to allow the browser
 * (CORS): a file up to 5 MiB in one form POST; a larger one as a relay upload in 5 MiB parts
 * (docs/product.md §9), three in flight, each retried with backoff and given 5 minutes. A relay upload is
 * remembered in localStorage until it completes, so after a reload the same file dropped or picked
 * again sends only the parts the storage lacks. Files are cut with `File.slice()`, never read whole.
 */
import { ApiError, isApiError, requestHeaders } from '../../../lib/api/index.ts';
import { confirmedBytes, missingParts, partSizeFor, planParts } from '../../upload/part-plan.ts';
import { KeptRecords, type FileIdentity } from '../../upload/resume-store.ts';
import { runPool, withRetry } from '../../upload/task-runner.ts';
import { TransferError, isCancellation, isRetryableTransfer } from '../../upload/transfer/transfer-error.ts';
import { childController } from '../../upload/transfer/upload-run.ts';
import { putBlob } from '../../upload/transfer/xhr-put.ts';
import { MiB } from '../../upload/upload-tuning.ts';
import { abortRelay, finishRelay, fsUrl, relayParts, startRelay, type FsTree } from '../api/fs-api.ts';

/** docs/product.md §9: 5 MB parts, three at once, five minutes each. */
export const PART_SIZE = 5 * MiB;
export const PART_CONCURRENCY = 3;
export const PART_TRIES = 3;
export const PART_TIMEOUT_MS = 300_000;

/** An unfinished relay upload: which file, where to, and the server's names for it. */
export interface RelayRecord extends FileIdentity {
  tree: FsTree;
  folder: string;
  /** The name it gets in the folder (may differ from the file's: "keep both"). */
  target: string;
  key: string;
  uploadId: string;
  partSize: number;
  startedAt: number;
}

function isRelayRecord(value: unknown): value is RelayRecord {
  if (!value || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (
    (r.tree === 'admin' || r.tree === 'user') &&
    ['folder', 'target', 'key', 'uploadId', 'name'].every((field) => typeof r[field] === 'string') &&
    ['size', 'lastModified', 'startedAt', 'partSize'].every((field) => typeof r[field] === 'number') &&
    (r.partSize as number) > 0
  );
}

export const relayRecords = new KeptRecords<RelayRecord>({
  storageKey: 'cubby.explorer.uploads',
  isRecord: isRelayRecord,
  idOf: (record) => record.uploadId,
});

export interface SendOptions {
  tree: FsTree;
  folder: string;
  /** The name in the folder. */
  name: string;
  signal: AbortSignal;
  /** Bytes of the file in storage or on their way (for progress, speed and time left). */
  onProgress(loaded: number): void;
}

/** The unfinished relay upload of this very file to this very place, if one is remembered. */
export function findRelay(file: File, where: Pick<SendOptions, 'tree' | 'folder' | 'name'>) {
  return relayRecords.find(
    file,
    (r) => r.tree === where.tree && r.folder === where.folder && r.target === where.name,
  );
}

const sendOptions = (options: SendOptions) => ({
  method: 'POST' as const,
  headers: requestHeaders(),
  signal: options.signal,
  timeoutMs: PART_TIMEOUT_MS,
});

/** Sends `file` (relay parts when it is large or an unfinished relay upload of it is remembered). */
export async function sendFile(file: File, options: SendOptions): Promise<void> {
  if (file.size > PART_SIZE || findRelay(file, options)) await sendInParts(file, options);
  else await sendWhole(file, options);
}

async function sendWhole(file: File, options: SendOptions): Promise<void> {
  await withRetry(
    async () => {
      const form = new FormData();
      form.append('path', options.folder);
      form.append('file', file, options.name);
      options.onProgress(0);
      await putBlob(fsUrl(options.tree, 'upload'), form, {
        ...sendOptions(options),
        onProgress: (loaded) => options.onProgress(Math.min(loaded, file.size)),
      });
    },
    { tries: PART_TRIES, shouldRetry: isRetryableTransfer, signal: options.signal },
  );
}

/** The relay upload to continue (with the parts the storage holds), or a new one. */
async function openRelay(file: File, options: SendOptions) {
  const kept = findRelay(file, options);
  if (kept) {
    try {
      const { parts } = await relayParts(options.tree, kept.key, kept.uploadId);
      return { record: kept, held: new Map(parts.map((part) => [part.partNumber, part.etag])) };
    } catch (error) {
      if (!(isApiError(error) && [400, 403, 404, 410].includes(error.status))) throw error;
      relayRecords.forget(kept.uploadId);
    }
  }
  const started = await startRelay(options.tree, options.folder, options.name, file.size);
  const record: RelayRecord = {
    tree: options.tree,
    folder: options.folder,
    target: options.name,
    key: started.key,
    uploadId: started.uploadId,
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
    partSize: partSizeFor(file.size, PART_SIZE),
    startedAt: Date.now(),
  };
  relayRecords.save(record);
  return { record, held: new Map<number, string>() };
}

async function sendInParts(file: File, options: SendOptions): Promise<void> {
  const { record, held } = await openRelay(file, options);
  try {
    const plan = planParts(file.size, record.partSize);
    const done = [...held.keys()].map((partNumber) => ({ partNumber }));
    let confirmed = confirmedBytes(plan, done);
    const sending = new Map<number, number>();
    const report = () => {
      let loaded = confirmed;
      for (const bytes of sending.values()) loaded += bytes;
      options.onProgress(loaded);
    };
    report();
    const abort = childController(options.signal);
    await runPool(
      missingParts(plan, done),
      async (part) => {
        const url = fsUrl(options.tree, 'multipart/part', {
          key: record.key,
          uploadId: record.uploadId,
          partNumber: part.partNumber,
        });
        const etag = await withRetry(
          async () => {
            sending.set(part.partNumber, 0);
            const { text } = await putBlob(url, file.slice(part.start, part.end), {
              ...sendOptions({ ...options, signal: abort.signal }),
              onProgress: (loaded) => {
                sending.set(part.partNumber, loaded);
                report();
              },
            });
            const answer = JSON.parse(text) as { data?: { etag?: unknown } };
            if (typeof answer.data?.etag !== 'string') throw new TransferError('no-etag');
            return answer.data.etag;
          },
          { tries: PART_TRIES, shouldRetry: isRetryableTransfer, signal: abort.signal },
        ).catch((error: unknown) => {
          throw error instanceof TransferError && error.partNumber === undefined
            ? error.forPart(part.partNumber)
            : error;
        });
        sending.delete(part.partNumber);
        held.set(part.partNumber, etag);
        confirmed += part.end - part.start;
        report();
      },
      { limit: PART_CONCURRENCY, abort },
    );
    if (options.signal.aborted) throw new TransferError('cancelled');
    const parts = [...held.entries()]
      .filter(([partNumber]) => partNumber <= plan.length)
      .sort(([a], [b]) => a - b)
      .map(([partNumber, etag]) => ({ partNumber, etag }));
    await finishRelay(options.tree, record.key, record.uploadId, parts);
    relayRecords.forget(record.uploadId);
  } catch (error) {
    // Cancelled: nothing is kept. Failed: the record stays, so a retry sends only what is missing.
    if (isCancellation(error) || options.signal.aborted) {
      relayRecords.forget(record.uploadId);
      await abortRelay(options.tree, record.key, record.uploadId).catch(() => undefined);
    } else if (isApiError(error) && error.status === 404) {
      relayRecords.forget(record.uploadId);
    }
    throw error;
  }
}

/** Drops a remembered relay upload the user does not want to continue. */
export async function discardRelay(record: RelayRecord): Promise<void> {
  relayRecords.forget(record.uploadId);
  await abortRelay(record.tree, record.key, record.uploadId).catch((error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
  });
}
