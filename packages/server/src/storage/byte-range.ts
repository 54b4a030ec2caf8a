/** Byte-range rules shared by the drivers, so every backend accepts and refuses the same ranges. */
import { type ByteRange, StorageError } from './driver.ts';

/** Refuses a range that is malformed whatever the object's size (negative, reversed, not integers). */
export function checkRange(range: ByteRange): void {
  const { start, end } = range;
  const valid =
    Number.isSafeInteger(start) &&
    start >= 0 &&
    (end === undefined || (Number.isSafeInteger(end) && end >= start));
  if (!valid) throw new StorageError('INVALID_RANGE', 'malformed byte range');
}

/**
 * The bytes a range selects in an object of `size` bytes (end inclusive, clamped to the last byte).
 * INVALID_RANGE when it starts at or past the end, as HTTP's 416.
 */
export function satisfyRange(range: ByteRange, size: number): { start: number; end: number } {
  checkRange(range);
  if (range.start >= size) {
    throw new StorageError('INVALID_RANGE', `range starts past the end (${size} bytes)`);
  }
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** A `Range` request header as the download routes serve it. */
export type RequestedRange = { start: number; end?: number } | { suffix: number } | 'unsatisfiable' | null;

/**
 * A single `bytes=` range; null when absent or not one we serve (several ranges, other units, a
 * reversed range): then the whole file goes out, as RFC 9110 allows.
 */
export function parseRangeHeader(header: string | undefined): RequestedRange {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match as unknown as [string, string, string];
  if (from === '' && to === '') return null;
  if (from === '') return Number(to) === 0 ? 'unsatisfiable' : { suffix: Number(to) };
  if (to !== '' && Number(to) < Number(from)) return null;
  return to === '' ? { start: Number(from) } : { start: Number(from), end: Number(to) };
}

/**
 * The driver range for a requested range of an object of `size` bytes; undefined for the whole
 * object, 'unsatisfiable' for HTTP's 416.
 */
export function rangeForSize(wanted: RequestedRange, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (wanted === null) return undefined;
  if (wanted === 'unsatisfiable') return 'unsatisfiable';
  if ('suffix' in wanted) return size === 0 ? 'unsatisfiable' : { start: Math.max(size - wanted.suffix, 0) };
  return wanted.start >= size ? 'unsatisfiable' : wanted;
}
