/**
 * Sending one file into a mount folder through this server, so no bucket needs to allow the browser
 * (CORS): a file up to 5 MiB in one form POST; a larger one as a relay upload in 5 MiB parts
 * (docs/product.md §9), three in flight, each retried with backoff and given 5 minutes. A relay upload is
 * remembered in localStorage until it completes, so after a reload the same file dropped or picked
 * again sends only the parts the storage lacks. Files are cut with `File.slice()`, never read whole.
 * The engine (part plan, pool, retries, kept records) is lib/transfer's, shared with the share upload;
 * what is the explorer's own is here: the fs endpoints and the relay record.
 */
import { ApiError, isApiError, requestHeaders } from '../../../lib/api/index.ts';
import {
  KeptRecords,
  type FileIdentity,
  confirmedBytes,
  missingParts,
  partSizeFor,
  planParts,
  slicesOf,
  sendParts,
  type SendAttempt,
  withRetry,
  TransferError,
  isRetryableTransfer,
  DEFAULT_TUNING,
  MiB,
  type UploadTuning,
  putBlob,
} from '../../../lib/transfer/index.ts';
import { abortRelay, finishRelay, fsUrl, relayParts, startRelay, type FsTree } from '../api/fs-api.ts';

/** docs/product.md §9: 5 MB parts; three at once, three tries, five minutes each (the default tuning). */
export const PART_SIZE = 5 * MiB;
const TUNING: Pick<UploadTuning, 'partConcurrency' | 'partTries' | 'transferTimeoutMs'> = DEFAULT_TUNING;

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

/** A POST to this server, with the caller's credentials and language. */
const post = () => ({ method: 'POST' as const, headers: requestHeaders() });

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
        ...post(),
        signal: options.signal,
        timeoutMs: TUNING.transferTimeoutMs,
        onProgress: (loaded) => options.onProgress(Math.min(loaded, file.size)),
      });
    },
    { tries: TUNING.partTries, shouldRetry: isRetryableTransfer, signal: options.signal },
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

/** One relay part: a POST of its bytes; the server answers the part's ETag. */
function relayPart(tree: FsTree, record: RelayRecord): SendAttempt {
  return async ({ partNumber, body }, transfer) => {
    const url = fsUrl(tree, 'multipart/part', { key: record.key, uploadId: record.uploadId, partNumber });
    const { text } = await putBlob(url, body, { ...post(), ...transfer });
    const answer = JSON.parse(text) as { data?: { etag?: unknown } };
    if (typeof answer.data?.etag !== 'string') throw new TransferError('no-etag');
    return answer.data.etag;
  };
}

async function sendInParts(file: File, options: SendOptions): Promise<void> {
  const { record, held } = await openRelay(file, options);
  try {
    const plan = planParts(file.size, record.partSize);
    const done = [...held.keys()].map((partNumber) => ({ partNumber }));
    const sent = await sendParts(slicesOf(file, missingParts(plan, done)), {
      tuning: TUNING,
      signal: options.signal,
      send: relayPart(options.tree, record),
      confirmed: confirmedBytes(plan, done),
      onProgress: options.onProgress,
    });
    for (const { partNumber, etag } of sent) held.set(partNumber, etag);
    if (options.signal.aborted) throw new TransferError('cancelled');
    const parts = [...held.entries()]
      .filter(([partNumber]) => partNumber <= plan.length)
      .sort(([a], [b]) => a - b)
      .map(([partNumber, etag]) => ({ partNumber, etag }));
    await finishRelay(options.tree, record.key, record.uploadId, parts);
    relayRecords.forget(record.uploadId);
  } catch (error) {
    // Cancelled by the user: nothing is kept. Failed or interrupted (the page went away): the record
    // stays, so a retry or a reload sends only what is missing.
    if (options.signal.aborted) {
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
