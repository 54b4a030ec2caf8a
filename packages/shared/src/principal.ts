/**
 * Who is making a request, as both server and web see it, and the creator rule of docs/product.md §5
 * and the ownership rule of docs/accounts.md.
 */
import { isNormalizedPathWithin } from './paths.ts';

export interface Permissions {
  text: boolean;
  file: boolean;
  mount: boolean;
}

/** A folder of the mounted storage someone may read (and write, when `write`), with all below it. */
export interface PathGrant {
  path: string;
  write: boolean;
}

export type UserRole = 'admin' | 'member';

/**
 * - `admin`: a person with the admin role. Everything is theirs; `grants`, when present, narrow
 *   where in the storage they reach (an app password confined to a folder or read only).
 * - `member`: a person with the member role: their home folder and extra paths (`grants`).
 * - `mustEnrol` (a session of either): the admin requires two-factor sign-in and this person has
 *   not set it up; until they do, only the routes that set it up answer (docs/accounts.md).
 * - `apikey`: an API key, belonging to `ownerId` (null for a key older than accounts); `grants` is
 *   where it reaches — its base path within what its owner reaches.
 * - `guest`: a signed-out visitor while the admin lets guests browse (docs/accounts.md, "Guests"):
 *   it reaches the folders the settings name (`grants`, read only unless the admin allows writes),
 *   and only through the fs routes; everywhere else it is nobody.
 */
export type Principal =
  | { type: 'admin'; id: string; username: string; grants?: PathGrant[]; mustEnrol?: true }
  | { type: 'member'; id: string; username: string; grants: PathGrant[]; mustEnrol?: true }
  | {
      type: 'apikey';
      id: string;
      name: string;
      basicPath: string;
      permissions: Permissions;
      ownerId: string | null;
      grants: PathGrant[];
    }
  | { type: 'guest'; id: 'guest'; grants: PathGrant[] };

/** Everywhere, read and write: an admin's reach. */
export const ALL_PATHS: readonly PathGrant[] = [{ path: '/', write: true }];

/** Where in the mounted storage a principal reaches. */
export function grantsOf(principal: Principal): readonly PathGrant[] {
  return principal.type === 'admin' ? (principal.grants ?? ALL_PATHS) : principal.grants;
}

/**
 * The reach of something confined to `scope` (a key's base path, an app password's folder, read
 * only or not) inside `grants`: each grant cut down to the part inside the scope.
 */
export function narrowGrants(grants: readonly PathGrant[], scope: PathGrant): PathGrant[] {
  const narrowed: PathGrant[] = [];
  for (const grant of grants) {
    if (isNormalizedPathWithin(grant.path, scope.path)) {
      narrowed.push({ path: scope.path, write: grant.write && scope.write });
    } else if (isNormalizedPathWithin(scope.path, grant.path)) {
      narrowed.push({ path: grant.path, write: grant.write && scope.write });
    }
  }
  return narrowed;
}

/** The user a principal acts for: a person themselves, a key's owner. */
export function userIdOf(principal: Principal): string | null {
  if (principal.type === 'guest') return null;
  return principal.type === 'apikey' ? principal.ownerId : principal.id;
}

/** The `created_by` value recorded for something a principal creates (docs/compatibility.md §2). */
export function creatorId(principal: Principal): string {
  return principal.type === 'apikey' ? `apikey:${principal.id}` : principal.id;
}

/**
 * The creator check: an admin is creator of everything; an API key only of what it created,
 * whether `createdBy` was recorded with or without the `apikey:` prefix; a member of what they made.
 */
export function isCreator(
  principal:
    { type: 'admin' } | { type: 'member'; id: string } | { type: 'apikey'; id: string } | { type: 'guest' },
  createdBy: string | null | undefined,
): boolean {
  if (principal.type === 'admin') return true;
  // A guest is nobody: it made nothing it could come back to.
  if (!createdBy || principal.type === 'guest') return false;
  if (principal.type === 'member') return createdBy === principal.id;
  const owner = createdBy.replace(/^apikey:/i, '');
  return owner === principal.id;
}

/**
 * Whether a principal may manage a record (a paste, a file share): an admin every one; a member
 * what they own, made by them or by one of their keys; a key what it created.
 */
export function mayManage(
  principal: Principal,
  record: { created_by: string | null; owner_id?: string | null },
): boolean {
  if (principal.type === 'member') return record.owner_id === principal.id;
  return isCreator(principal, record.created_by);
}
