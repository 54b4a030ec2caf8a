/**
 * Who is making a request, as both server and web see it, and the creator rule of docs/product.md §5.
 */

export interface Permissions {
  text: boolean;
  file: boolean;
  mount: boolean;
}

export type Principal =
  | { type: 'admin'; id: string; username: string }
  | { type: 'apikey'; id: string; name: string; basicPath: string; permissions: Permissions };

/** The `created_by` value recorded for something a principal creates (docs/compatibility.md §2). */
export function creatorId(principal: Principal): string {
  return principal.type === 'admin' ? principal.id : `apikey:${principal.id}`;
}

/**
 * The creator check: an admin is creator of everything; an API key only of what it created,
 * whether `createdBy` was recorded with or without the `apikey:` prefix.
 */
export function isCreator(
  principal: { type: 'admin' } | { type: 'apikey'; id: string },
  createdBy: string | null | undefined,
): boolean {
  if (principal.type === 'admin') return true;
  if (!createdBy) return false;
  const owner = createdBy.replace(/^apikey:/i, '');
  return owner === principal.id;
}
