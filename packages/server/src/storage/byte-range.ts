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
