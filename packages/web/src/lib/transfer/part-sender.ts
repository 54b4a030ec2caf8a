/**
 * Sending the parts of a multipart upload, whoever receives them: a pool that keeps N parts in
 * flight, each with up to N attempts with backoff, progress for the whole upload (confirmed bytes
 * plus the parts in flight), and the first failure stopping the rest. What one attempt does is the
 * caller's: a PUT to a presigned storage URL ({@link putToPresignedUrls}: URLs fetched in batches as
 * the upload reaches them, so a 10,000-part file does not sign every URL up front, and a fresh one
 * after a 403, since they expire) or a POST to this server (the explorer's relay upload).
 */
import type { PartUrl } from '@cubby/shared';
import { childController, runPool, withRetry } from './task-runner.ts';
import type { UploadTuning } from './upload-tuning.ts';
import { TransferError, isRetryableTransfer } from './transfer-error.ts';
import { putBlob } from './xhr-put.ts';

/** Presigned part URLs, fetched lazily in batches along the upload order. */
export class PartUrls {
  private readonly cache = new Map<number, Promise<string>>();

  constructor(
    /** Fetches URLs for these part numbers; null when none can be fetched (all given up front). */
    private readonly fetchUrls: ((partNumbers: number[]) => Promise<PartUrl[]>) | null,
    /** Part numbers in the order they will be sent. */
    private readonly order: readonly number[],
    private readonly batchSize = 50,
  ) {}

  /** URLs already known (e.g. from init). */
  seed(urls: readonly PartUrl[]): void {
    for (const { partNumber, url } of urls) this.cache.set(partNumber, Promise.resolve(url));
  }

  get(partNumber: number): Promise<string> {
    const known = this.cache.get(partNumber);
    if (known) return known;
    const start = Math.max(0, this.order.indexOf(partNumber));
    const batch = [
      partNumber,
      ...this.order.slice(start).filter((n) => n !== partNumber && !this.cache.has(n)),
    ].slice(0, this.batchSize);
    this.load(batch);
    return this.cache.get(partNumber)!;
  }

  /** A fresh URL for one part (the old one was refused). */
  refresh(partNumber: number): Promise<string> {
    if (!this.fetchUrls) return this.get(partNumber);
    this.cache.delete(partNumber);
    this.load([partNumber]);
    return this.cache.get(partNumber)!;
  }

  private load(partNumbers: number[]): void {
    if (!this.fetchUrls) {
      for (const n of partNumbers) this.cache.set(n, Promise.reject(new TransferError('http', 404, n)));
    } else {
      const request = this.fetchUrls(partNumbers).then(
        (urls) => new Map(urls.map(({ partNumber, url }) => [partNumber, url])),
      );
      for (const n of partNumbers) {
        this.cache.set(
          n,
          request.then((urls) => {
            const url = urls.get(n);
            if (!url) throw new TransferError('http', 404, n);
            return url;
          }),
        );
      }
      // A failed batch is fetched again by whoever asks next.
      request.catch(() => partNumbers.forEach((n) => this.cache.delete(n)));
    }
    // Parts of a batch nobody awaits yet must not surface as unhandled rejections.
    for (const n of partNumbers) this.cache.get(n)?.catch(() => {});
  }
}

/** One part on its way: its number and its bytes (a `File.slice()` or a piece cut from a download). */
export interface PartToSend {
  partNumber: number;
  body: Blob;
}

/** A part stored, as complete takes it. */
export interface SentPart {
  partNumber: number;
  etag: string;
}

/** What one attempt at a part is given: the pool's signal, the time limit, and where progress goes. */
export interface PartTransfer {
  signal: AbortSignal;
  timeoutMs: number;
  /** Bytes of this part sent so far. */
  onProgress(loaded: number): void;
}

/** One attempt at sending a part to wherever the feature sends it; resolves with the part's ETag. */
export type SendAttempt = (part: PartToSend, transfer: PartTransfer) => Promise<string>;

export interface SendPartsOptions {
  tuning: Pick<UploadTuning, 'partConcurrency' | 'partTries' | 'transferTimeoutMs'>;
  signal: AbortSignal;
  send: SendAttempt;
  /** Bytes already in storage (the parts of an earlier attempt the server confirmed). */
  confirmed?: number;
  /** Called after each part is sent and before it counts as done (e.g. the part is reported). */
  onSent?(part: PartToSend, etag: string): Promise<unknown>;
  /** Bytes of the whole upload in storage or on their way (confirmed + every part in flight). */
  onProgress(loaded: number): void;
  /** Injectable wait between attempts (tests). */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Sends `parts` (read lazily: a part is taken from the source only when a slot is free), at most
 * `partConcurrency` at once, each tried up to `partTries` times with backoff. The first failure
 * stops the rest and is thrown, attributed to its part. Resolves with the parts sent, in order.
 */
export async function sendParts(
  parts: Iterable<PartToSend> | AsyncIterable<PartToSend>,
  options: SendPartsOptions,
): Promise<SentPart[]> {
  const { tuning } = options;
  let confirmed = options.confirmed ?? 0;
  const inFlight = new Map<number, number>();
  const report = () => {
    let loaded = confirmed;
    for (const bytes of inFlight.values()) loaded += bytes;
    options.onProgress(loaded);
  };
  const sent: SentPart[] = [];
  const abort = childController(options.signal);
  report();
  await runPool(
    parts,
    async (part) => {
      const onProgress = (loaded: number) => {
        inFlight.set(part.partNumber, loaded);
        report();
      };
      const etag = await withPartRetry(
        part.partNumber,
        () => {
          // A retry starts the part again.
          onProgress(0);
          return options.send(part, {
            signal: abort.signal,
            timeoutMs: tuning.transferTimeoutMs,
            onProgress,
          });
        },
        { tries: tuning.partTries, signal: abort.signal, sleep: options.sleep },
      );
      await options.onSent?.(part, etag);
      inFlight.delete(part.partNumber);
      confirmed += part.body.size;
      sent.push({ partNumber: part.partNumber, etag });
      report();
    },
    { limit: tuning.partConcurrency, abort },
  );
  return sent.sort((a, b) => a.partNumber - b.partNumber);
}

/** Up to `tries` attempts with backoff; a transfer failure is attributed to the part. */
async function withPartRetry(
  partNumber: number,
  attempt: () => Promise<string>,
  options: { tries: number; signal: AbortSignal; sleep?: SendPartsOptions['sleep'] },
): Promise<string> {
  try {
    return await withRetry(attempt, {
      tries: options.tries,
      shouldRetry: isRetryableTransfer,
      signal: options.signal,
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
  } catch (error) {
    if (error instanceof TransferError && error.partNumber === undefined) throw error.forPart(partNumber);
    throw error;
  }
}

/**
 * Parts PUT straight to storage at their presigned URLs; after a refusal (403: the URL expired)
 * the part's next attempt asks for a fresh URL.
 */
export function putToPresignedUrls(urls: PartUrls): SendAttempt {
  const refused = new Set<number>();
  return async ({ partNumber, body }, transfer) => {
    const url = refused.has(partNumber) ? await urls.refresh(partNumber) : await urls.get(partNumber);
    try {
      const { etag } = await putBlob(url, body, transfer);
      if (!etag) throw new TransferError('no-etag');
      return etag;
    } catch (error) {
      if (error instanceof TransferError && error.status === 403) refused.add(partNumber);
      else refused.delete(partNumber);
      throw error;
    }
  };
}
