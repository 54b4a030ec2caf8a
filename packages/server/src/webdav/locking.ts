/**
 * LOCK and UNLOCK (RFC 4918 §9.10–9.11): real write locks, exclusive or shared, depth 0 or infinity,
 * with `opaquelocktoken:` tokens and timeouts, stored in the database so every instance honours them.
 * A LOCK on a path where nothing is creates an empty file (a locked empty resource, 201). A LOCK
 * without a body refreshes the lock named in the If header. Only whoever took a lock may use or
 * remove its token.
 */
import { randomUUID } from 'node:crypto';
import { creatorId } from '@cubby/shared';
import type { DavLocksTable } from '../db/schema.ts';
import { badRequest, forbidden } from '../errors/app-error.ts';
import { type DavRequest, lookup, requireParent } from './context.ts';
import { covers } from '../vfs/locks.ts';
import { checkConditions, locksOn, parseIf, submittedTokens } from './conditions.ts';
import {
  DavError,
  davErrorBody,
  elements,
  escapeXml,
  hrefOf,
  isDav,
  outerXml,
  parseXml,
  readSmallBody,
  XML_HEAD,
} from './xml.ts';

/** Lock timeouts asked for are capped at a day; without a Timeout header a lock lasts an hour. */
export const LOCK_MAX_SECONDS = 24 * 60 * 60;
const LOCK_DEFAULT_SECONDS = 60 * 60;

/** `Second-N` / `Infinite` (the first one we understand), capped. */
function timeoutOf(header: string | undefined): number {
  for (const part of (header ?? '').split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return LOCK_MAX_SECONDS;
    const match = /^second-(\d+)$/i.exec(value);
    if (match) return Math.max(1, Math.min(Number(match[1]), LOCK_MAX_SECONDS));
  }
  return LOCK_DEFAULT_SECONDS;
}

/** One active lock as `DAV:activelock`. */
export function activeLockXml(lock: DavLocksTable, now: Date): string {
  const left = Math.max(0, Math.round((Date.parse(lock.expires_at) - now.getTime()) / 1000));
  return (
    '<D:activelock><D:locktype><D:write/></D:locktype>' +
    `<D:lockscope><D:${lock.scope}/></D:lockscope><D:depth>${lock.depth}</D:depth>` +
    lock.owner_xml +
    `<D:timeout>Second-${left}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(hrefOf(lock.path, false))}</D:href></D:lockroot></D:activelock>`
  );
}

const lockAnswer = (lock: DavLocksTable, now: Date, status: number) =>
  new Response(
    `${XML_HEAD}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock, now)}</D:lockdiscovery></D:prop>`,
    {
      status,
      headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Lock-Token': `<${lock.token}>` },
    },
  );

export async function lock(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  const text = await readSmallBody(r.c.req.raw.body);
  const now = deps.clock.now();
  const timeout = timeoutOf(r.c.req.header('Timeout'));
  const expiresAt = new Date(now.getTime() + timeout * 1000).toISOString();
  deps.vfs.check(principal, path, 'write');

  if (text.trim() === '') {
    // A refresh: the If header names the lock (on this path or a folder above it).
    const ifHeader = r.c.req.header('If');
    if (!ifHeader) throw badRequest('webdav.lock_refresh_token');
    const tokens = submittedTokens(parseIf(ifHeader));
    const held = (await locksOn(deps, path)).find(
      (l) => tokens.has(l.token) && l.principal === creatorId(principal),
    );
    if (!held)
      throw new DavError(412, 'webdav.lock_not_found', davErrorBody('lock-token-matches-request-uri'));
    await deps.repo.refreshLock(held.token, timeout, expiresAt);
    return lockAnswer({ ...held, timeout_seconds: timeout, expires_at: expiresAt }, now, 200);
  }

  const info = parseXml(text);
  if (!isDav(info, 'lockinfo')) throw badRequest('webdav.xml_invalid');
  const parts = elements(info);
  const scopeEl = parts.find((e) => isDav(e, 'lockscope'));
  const scopeName = scopeEl ? elements(scopeEl)[0] : undefined;
  const scope =
    scopeName && isDav(scopeName, 'shared')
      ? 'shared'
      : scopeName && isDav(scopeName, 'exclusive')
        ? 'exclusive'
        : undefined;
  const typeEl = parts.find((e) => isDav(e, 'locktype'));
  const typeName = typeEl ? elements(typeEl)[0] : undefined;
  if (!scope || !typeName || !isDav(typeName, 'write')) {
    throw badRequest('webdav.xml_invalid');
  }
  const ownerEl = parts.find((e) => isDav(e, 'owner'));
  const depthHeader = (r.c.req.header('Depth') ?? 'infinity').trim().toLowerCase();
  if (depthHeader !== '0' && depthHeader !== 'infinity') {
    throw badRequest('webdav.depth_invalid');
  }

  const existing = await lookup(deps, principal, path);
  const depth = existing?.isCollection ? depthHeader : '0';
  if (!existing) {
    // A locked empty resource (made below, once the lock is ours): an empty file, as a PUT makes it.
    await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, [
      { path, membership: true },
    ]);
    await requireParent(deps, principal, path);
  }
  const row: DavLocksTable = {
    token: `opaquelocktoken:${randomUUID()}`,
    path,
    depth,
    scope,
    owner_xml: ownerEl ? outerXml(ownerEl) : '',
    principal: creatorId(principal),
    timeout_seconds: timeout,
    expires_at: expiresAt,
    created_at: now.toISOString(),
  };
  // Conflicts: any lock covering the path, or (depth infinity) inside it, unless both are shared.
  // Checked and taken in one step, so of two LOCKs at once (on any instances) only one can win.
  await deps.repo.exclusively(async (repo) => {
    const others = await locksOn({ ...deps, repo }, path, depth === 'infinity');
    const conflict = others.find((l) => l.scope === 'exclusive' || scope === 'exclusive');
    if (conflict) {
      throw new DavError(
        423,
        'webdav.locked',
        davErrorBody('no-conflicting-lock', `<D:href>${escapeXml(hrefOf(conflict.path, false))}</D:href>`),
      );
    }
    await repo.insertLock(row);
  });
  if (existing) return lockAnswer(row, now, 200);
  try {
    await deps.fs.uploads.putFile(principal, path, new Blob([]).stream(), { size: 0 });
  } catch (error) {
    await deps.repo.deleteLock(row.token);
    throw error;
  }
  return lockAnswer(row, now, 201);
}

export async function unlock(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  const header = r.c.req.header('Lock-Token');
  const token = header ? /^\s*<([^>]+)>\s*$/.exec(header)?.[1] : undefined;
  if (!token) throw badRequest('webdav.lock_token_required');
  deps.vfs.check(principal, path, 'write');
  const held = await deps.repo.findLock(token, deps.clock.now().toISOString());
  if (!held || !covers(held, path)) {
    throw new DavError(409, 'webdav.lock_not_found', davErrorBody('lock-token-matches-request-uri'));
  }
  if (held.principal !== creatorId(principal)) throw forbidden('webdav.lock_not_yours');
  await deps.repo.deleteLock(token);
  return new Response(null, { status: 204 });
}
