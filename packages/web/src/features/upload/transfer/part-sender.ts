/**
 * Sending one part of a multipart upload: its presigned URL (fetched in batches as the upload
 * reaches them, so a 10,000-part file does not sign every URL up front), the PUT with progress, and
 * up to N attempts with backoff — a fresh URL after a 403, since presigned URLs expire.
 */
import type { PartUrl } from '@cubby/shared';
import { withRetry } from '../task-runner.ts';
import type { UploadTuning } from '../upload-tuning.ts';
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

export interface SendPartOptions {
  urls: PartUrls;
  tuning: Pick<UploadTuning, 'partTries' | 'transferTimeoutMs'>;
  signal: AbortSignal;
  /** Bytes of this part sent so far (restarts at 0 on a retry). */
  onProgress(loaded: number): void;
  /** Injectable wait between attempts (tests). */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** PUTs one part and returns its ETag; failures carry the part number. */
export async function sendPart(partNumber: number, body: Blob, options: SendPartOptions): Promise<string> {
  let refused = false;
  try {
    return await withRetry(
      async () => {
        const url = refused ? await options.urls.refresh(partNumber) : await options.urls.get(partNumber);
        options.onProgress(0);
        try {
          const { etag } = await putBlob(url, body, {
            signal: options.signal,
            timeoutMs: options.tuning.transferTimeoutMs,
            onProgress: options.onProgress,
          });
          if (!etag) throw new TransferError('no-etag');
          return etag;
        } catch (error) {
          refused = error instanceof TransferError && error.status === 403;
          throw error;
        }
      },
      {
        tries: options.tuning.partTries,
        shouldRetry: isRetryableTransfer,
        signal: options.signal,
        ...(options.sleep ? { sleep: options.sleep } : {}),
      },
    );
  } catch (error) {
    if (error instanceof TransferError && error.partNumber === undefined) throw error.forPart(partNumber);
    throw error;
  }
}
