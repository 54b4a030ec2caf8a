/**
 * Planning a multipart upload: whether a file needs one, the part size to ask for, the byte range
 * of each part, and after a reload which parts are still missing. Pure; the uploaders act on it.
 */
import { MAX_PARTS, MIN_PART_SIZE, MiB, SINGLE_PUT_MAX, type UploadTuning } from './upload-tuning.ts';

export type UploadStrategy = 'single' | 'multipart';

/** Multipart above the threshold, and always when one PUT could not carry the file. */
export function chooseStrategy(
  size: number,
  tuning: Pick<UploadTuning, 'multipartThreshold'>,
): UploadStrategy {
  return size > tuning.multipartThreshold || size > SINGLE_PUT_MAX ? 'multipart' : 'single';
}

/**
 * The part size to ask for: the preferred one, at least the storage minimum, and large enough
 * (rounded up to whole MiB) that the file fits in {@link MAX_PARTS} parts.
 */
export function partSizeFor(size: number, preferred: number): number {
  const needed = Math.ceil(size / MAX_PARTS / MiB) * MiB;
  return Math.max(preferred, MIN_PART_SIZE, needed);
}

export interface PartRange {
  /** 1-based, as S3 numbers parts. */
  partNumber: number;
  /** First byte. */
  start: number;
  /** One past the last byte (for `Blob.slice`). */
  end: number;
}

/** Byte ranges of every part; an empty file is one empty part. */
export function planParts(size: number, partSize: number): PartRange[] {
  if (!(partSize > 0)) throw new RangeError('part size must be positive');
  const count = Math.max(1, Math.ceil(size / partSize));
  return Array.from({ length: count }, (_, index) => ({
    partNumber: index + 1,
    start: index * partSize,
    end: Math.min(size, (index + 1) * partSize),
  }));
}

/** The planned parts that `done` (confirmed by the server) does not list. */
export function missingParts(
  plan: readonly PartRange[],
  done: readonly { partNumber: number }[],
): PartRange[] {
  const have = new Set(done.map((part) => part.partNumber));
  return plan.filter((part) => !have.has(part.partNumber));
}

/** Bytes already in storage: the planned sizes of the confirmed parts. */
export function confirmedBytes(plan: readonly PartRange[], done: readonly { partNumber: number }[]): number {
  const have = new Set(done.map((part) => part.partNumber));
  return plan.reduce((sum, part) => (have.has(part.partNumber) ? sum + (part.end - part.start) : sum), 0);
}

/** The planned parts of a file, cut as they are asked for (`Blob.slice` reads nothing). */
export function* slicesOf(
  file: Blob,
  plan: Iterable<PartRange>,
): Generator<{ partNumber: number; body: Blob }> {
  for (const part of plan) yield { partNumber: part.partNumber, body: file.slice(part.start, part.end) };
}
