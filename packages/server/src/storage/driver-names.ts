/**
 * The names every driver keeps for itself in its storage (docs/architecture.md, "Writing a new
 * driver"): anything starting with `.cubby-` — the temp files of writes under way, multipart
 * parts — is never listed and is refused as the name of a user's file or folder.
 */
import { randomBytes } from 'node:crypto';
import { formatTag, parseTag, type ProcessTag, THIS_PROCESS } from '../lib/process-tag.ts';
import { pathSegments } from './driver-path.ts';
import { StorageError } from './driver.ts';

export const RESERVED_PREFIX = '.cubby-';
export const TEMP_PREFIX = '.cubby-tmp-';

/** A driver's own name, never shown. */
export const isReservedName = (name: string): boolean => name.startsWith(RESERVED_PREFIX);

export const isTempName = (name: string): boolean => name.startsWith(TEMP_PREFIX);

/** INVALID_PATH when a segment of the normalised path `path` is one of the drivers' own names. */
export function refuseReserved(path: string): void {
  if (pathSegments(path).some(isReservedName)) {
    throw new StorageError('INVALID_PATH', `names starting with ${RESERVED_PREFIX} are reserved`);
  }
}

/** A new temp file's name; it carries its writer's tag, so a sweep knows a dead process's leftovers at once. */
export const tempName = (): string =>
  `${TEMP_PREFIX}${formatTag(THIS_PROCESS)}-${randomBytes(8).toString('hex')}`;

/** The process that wrote a temp file, when its name says. */
export const tempOwner = (name: string): ProcessTag | null =>
  parseTag(name.slice(TEMP_PREFIX.length, name.lastIndexOf('-')));
