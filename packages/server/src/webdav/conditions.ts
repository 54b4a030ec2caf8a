/**
 * Locks and the `If:` header (RFC 4918 §6, §10.4), evaluated before every write:
 *
 * 1. The If header, when there is one, must be true: at least one of its lists holds, where a
 *    state token holds when it is a live lock covering its resource and an entity tag when it is the
 *    resource's ETag — else 412.
 * 2. Every live lock that covers what the method changes (a lock on the path, a depth-infinity lock
 *    on a folder above it, a depth-0 lock on the folder whose members change, and for a folder that
 *    goes away every lock inside it) must have its token in the If header (for shared locks on one
 *    root, the token of one of them), submitted by the principal who took it — else 423 with the
 *    lock's root.
 *
 * Locks live in the database (dav_locks), so every instance honours them; which locks bind a write
 * is vfs/locks.ts's rule, the same for every door.
 */
import { type Principal, sameEtag } from '@cubby/shared';
import { badRequest, preconditionFailed } from '../errors/app-error.ts';
import { locksOn as locksIn, unansweredLock, type WriteTarget } from '../vfs/locks.ts';
import { type DavDeps, davPath, lookup } from './context.ts';
import { DavError, davErrorBody, escapeXml, hrefOf } from './xml.ts';

interface Condition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** One group of the If header: the resource it is about (none: the request's) and its lists. */
interface IfGroup {
  resource?: string;
  lists: Condition[][];
}

/** 400 for an If header that does not parse. */
const malformed = () => badRequest('webdav.if_invalid');

/** Parses an If header (RFC 4918 §10.4): tagged or untagged lists of conditions. */
export function parseIf(header: string): IfGroup[] {
  const groups: IfGroup[] = [];
  let i = 0;
  const skip = () => {
    while (i < header.length && /\s/.test(header[i]!)) i++;
  };
  const until = (close: string) => {
    const end = header.indexOf(close, i);
    if (end < 0) throw malformed();
    const text = header.slice(i, end);
    i = end + 1;
    return text;
  };
  for (skip(); i < header.length; skip()) {
    let resource: string | undefined;
    if (header[i] === '<') {
      i++;
      resource = until('>');
      skip();
    }
    const lists: Condition[][] = [];
    while (header[i] === '(') {
      i++;
      const list: Condition[] = [];
      for (skip(); header[i] !== ')'; skip()) {
        if (i >= header.length) throw malformed();
        let not = false;
        if (header.startsWith('Not', i)) {
          not = true;
          i += 3;
          skip();
        }
        if (header[i] === '<') {
          i++;
          list.push({ not, token: until('>') });
        } else if (header[i] === '[') {
          i++;
          list.push({ not, etag: until(']') });
        } else {
          throw malformed();
        }
      }
      i++;
      if (list.length === 0) throw malformed();
      lists.push(list);
      skip();
    }
    if (lists.length === 0) throw malformed();
    if (resource === undefined && groups.some((g) => g.resource !== undefined)) throw malformed();
    groups.push({ resource, lists });
  }
  return groups;
}

/** The lock tokens an If header submits (those in conditions that are not negated). */
export function submittedTokens(groups: IfGroup[]): Set<string> {
  const tokens = new Set<string>();
  for (const group of groups)
    for (const list of group.lists) for (const c of list) if (c.token && !c.not) tokens.add(c.token);
  return tokens;
}

/** The live locks that cover `path` (and with `below`, those inside it too). */
export const locksOn = (deps: DavDeps, path: string, below = false) =>
  locksIn(deps.repo, deps.clock, path, below);

const lockedAnswer = (root: string) =>
  new DavError(
    423,
    'webdav.locked',
    davErrorBody('lock-token-submitted', `<D:href>${escapeXml(hrefOf(root, false))}</D:href>`),
  );

/**
 * Checks the If header (412) and locks (423) for a request that writes `targets`; a request
 * without writes (`targets` empty) only has its If header evaluated.
 */
export async function checkConditions(
  deps: DavDeps,
  principal: Principal,
  request: { path: string; ifHeader: string | undefined },
  targets: WriteTarget[],
): Promise<void> {
  const groups = request.ifHeader ? parseIf(request.ifHeader) : [];
  const tokens = submittedTokens(groups);
  if (groups.length > 0 && !(await evaluate(deps, principal, request.path, groups))) {
    throw preconditionFailed('webdav.precondition_failed');
  }
  const root = await unansweredLock(deps.repo, deps.clock, principal, targets, tokens);
  if (root !== undefined) throw lockedAnswer(root);
}

/** True when at least one list of the header holds for its resource. */
async function evaluate(deps: DavDeps, principal: Principal, requestPath: string, groups: IfGroup[]) {
  for (const group of groups) {
    const path = group.resource === undefined ? requestPath : taggedPath(deps, group.resource);
    if (path === undefined) continue;
    const needsEtag = group.lists.some((list) => list.some((c) => c.etag !== undefined));
    const etag = needsEtag
      ? await lookup(deps, principal, path).then(
          (r) => r?.etag,
          () => undefined,
        )
      : undefined;
    const tokens = new Set((await locksOn(deps, path)).map((l) => l.token));
    for (const list of group.lists) {
      const holds = list.every((c) => {
        const matched =
          c.token !== undefined ? tokens.has(c.token) : etag !== undefined && sameEtag(c.etag!, etag);
        return c.not ? !matched : matched;
      });
      if (holds) return true;
    }
  }
  return false;
}

/** The canonical path a tagged list names (a full URL or an absolute path under /dav), if it is ours. */
function taggedPath(deps: DavDeps, tag: string): string | undefined {
  try {
    return davPath(deps.vfs, new URL(tag, 'http://x').pathname).path;
  } catch {
    return undefined;
  }
}
