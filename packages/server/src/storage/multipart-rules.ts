/**
 * S3's multipart rules, for the drivers that check them themselves (local disk, memory) and for the
 * checks every driver makes before it sends a part (docs/architecture.md, "Drivers").
 */
import { sameDigest } from '@cubby/shared';
import { MULTIPART_LIMITS, type MultipartPart, type MultipartPartInfo, StorageError } from './driver.ts';

export function checkPartNumber(partNumber: number): void {
  if (!Number.isSafeInteger(partNumber) || partNumber < 1 || partNumber > MULTIPART_LIMITS.maxParts) {
    throw new StorageError('INVALID_RANGE', 'part number must be 1 to 10000');
  }
}

/** A part's declared size: a byte count (PRECONDITION_FAILED otherwise) of at most 5 GiB (TOO_LARGE). */
export function checkPartSize(size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new StorageError('PRECONDITION_FAILED', 'part size is required');
  }
  if (size > MULTIPART_LIMITS.maxPartSize) throw new StorageError('TOO_LARGE', 'part larger than 5 GiB');
}

/**
 * S3's CompleteMultipartUpload rules: at least one part, ascending part numbers, each naming a stored
 * part by its ETag, every part but the last at least 5 MiB (PRECONDITION_FAILED otherwise). Returns
 * the stored parts in order.
 */
export function checkCompleteParts<P extends MultipartPartInfo>(
  parts: MultipartPart[],
  stored: ReadonlyMap<number, P>,
): P[] {
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new StorageError('PRECONDITION_FAILED', 'no parts given');
  }
  return parts.map((part, i) => {
    const previous = parts[i - 1];
    if (previous && part.partNumber <= previous.partNumber) {
      throw new StorageError('PRECONDITION_FAILED', 'parts must be listed in ascending order');
    }
    const found = stored.get(part.partNumber);
    if (!found || !sameDigest(found.etag, part.etag)) {
      throw new StorageError(
        'PRECONDITION_FAILED',
        `part ${part.partNumber} was not uploaded with that ETag`,
      );
    }
    if (i < parts.length - 1 && found.size < MULTIPART_LIMITS.minPartSize) {
      throw new StorageError('PRECONDITION_FAILED', `part ${part.partNumber} is smaller than 5 MiB`);
    }
    return found;
  });
}
