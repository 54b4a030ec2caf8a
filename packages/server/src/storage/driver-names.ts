/**
 * The names drivers keep for themselves in their storage (docs/architecture.md, "Writing a new
 * driver"): the temp files of writes under way and the folder of multipart parts. Two prefixes:
 *
 * - `.cubby-`: local disk's own files. A Cubby refuses these names as a user's file or folder on
 *   every door, so nobody reaches another upload's temp file through it.
 * - `.cubby.`: the files of the drivers whose storage is a file tree on another server (WebDAV, SFTP,
 *   FTP). That server may be another Cubby's /dav (docs/storage.md, "WebDAV"), which must take
 *   these names by exact path; so they differ from the names a Cubby refuses. Those drivers refuse
 *   and hide both prefixes (older versions wrote `.cubby-` names there too).
 *
 * Both are hidden from every listing a Cubby answers (vfs/listing.ts and the copy walk, through
 * {@link isHiddenName}).
 */
import { randomBytes } from 'node:crypto';
import { formatTag, parseTag, type ProcessTag, THIS_PROCESS } from '../lib/process-tag.ts';
import { pathSegments } from './driver-path.ts';
import { StorageError } from './driver.ts';

export const RESERVED_PREFIX = '.cubby-';
export const TREE_PREFIX = '.cubby.';
const TEMP = 'tmp-';

/** Local disk's own name, refused as a user's name by a Cubby on every door. */
export const isReservedName = (name: string): boolean => name.startsWith(RESERVED_PREFIX);

/** A name of either prefix: never listed by a Cubby, and the remote tree drivers' own names. */
export const isHiddenName = (name: string): boolean =>
  name.startsWith(RESERVED_PREFIX) || name.startsWith(TREE_PREFIX);

/** A temp file of either kind, so a sweep also finds what older versions left. */
export const isTempName = (name: string): boolean =>
  name.startsWith(`${RESERVED_PREFIX}${TEMP}`) || name.startsWith(`${TREE_PREFIX}${TEMP}`);

function refuseWhere(path: string, own: (name: string) => boolean, what: string): void {
  if (pathSegments(path).some(own))
    throw new StorageError('INVALID_PATH', `names starting with ${what} are reserved`);
}

/** Local disk: INVALID_PATH when a segment of the normalised path `path` starts with `.cubby-`. */
export const refuseReserved = (path: string): void => refuseWhere(path, isReservedName, RESERVED_PREFIX);

/** Remote tree drivers: INVALID_PATH when a segment of `path` starts with either prefix. */
export const refuseHidden = (path: string): void =>
  refuseWhere(path, isHiddenName, `${RESERVED_PREFIX} or ${TREE_PREFIX}`);

/** A new temp file's name; it carries its writer's tag, so a sweep knows a dead process's leftovers at once. */
const tempOf = (prefix: string) => (): string =>
  `${prefix}${TEMP}${formatTag(THIS_PROCESS)}-${randomBytes(8).toString('hex')}`;

/** Local disk's temp files: `.cubby-tmp-<tag>-<hex>`. */
export const tempName = tempOf(RESERVED_PREFIX);

/** The remote tree drivers' temp files: `.cubby.tmp-<tag>-<hex>`. */
export const treeTempName = tempOf(TREE_PREFIX);

/** The process that wrote a temp file of either kind, when its name says (both prefixes have one length). */
export const tempOwner = (name: string): ProcessTag | null =>
  parseTag(name.slice(RESERVED_PREFIX.length + TEMP.length, name.lastIndexOf('-')));
