/**
 * COPY and MOVE (RFC 4918 §9.8–9.9). The Destination is a URL or an absolute path under /dav, checked
 * like every path (a key's base path on both ends) before anything moves. Overwrite: F → 412 when
 * the destination exists; T (the default) replaces it (204) — else 201. A move inside one mount is a
 * rename (shares follow); anything else runs through the copy engine of the fs tasks, on one storage
 * or across storages, streamed. Dead properties go along; locks stay behind.
 */
import { isNormalizedPathWithin } from '@cubby/shared';
import { badRequest, forbidden, internal, notFound, preconditionFailed } from '../errors/app-error.ts';
import type { WriteTarget } from '../vfs/locks.ts';
import { checkConditions } from './conditions.ts';
import { type DavRequest, davPath, lookup, requireParent } from './context.ts';

export async function copyOrMove(r: DavRequest, kind: 'copy' | 'move'): Promise<Response> {
  const { deps, principal, path } = r;
  const destination = destinationOf(r);
  const depthHeader = (r.c.req.header('Depth') ?? 'infinity').trim().toLowerCase();
  if (depthHeader !== 'infinity' && !(kind === 'copy' && depthHeader === '0')) {
    throw badRequest('webdav.depth_invalid');
  }
  const overwrite = (r.c.req.header('Overwrite') ?? 'T').trim().toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw badRequest('webdav.overwrite_invalid');

  // Both ends are checked before anything else (a key's base path).
  const from = await deps.vfs.resolveMounted(principal, path, kind === 'move' ? 'write' : 'read');
  if (kind === 'move' && from.subPath === '/') throw forbidden('fs.mount_root_forbidden');
  await deps.vfs.resolveWritable(principal, destination);
  if (destination === path) throw forbidden('fs.same_path');
  const source = await lookup(deps, principal, path);
  if (!source) throw notFound('fs.not_found');
  if (source.isCollection && isNormalizedPathWithin(path, destination)) {
    throw forbidden('fs.copy_into_itself');
  }

  const existing = await lookup(deps, principal, destination);
  if (existing && overwrite === 'F') throw preconditionFailed('webdav.destination_exists');
  const targets: WriteTarget[] = [{ path: destination, below: true, membership: true }];
  if (kind === 'move') targets.push({ path, below: true, membership: true });
  await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, targets);
  await requireParent(deps, principal, destination);

  if (existing) {
    await deps.fs.remove(principal, destination);
    await deps.repo.dropProperties(destination);
    await deps.repo.dropLocks(destination);
  }
  const to = await deps.vfs.resolveWritable(principal, destination);
  if (kind === 'copy' && source.isCollection && depthHeader === '0') {
    await deps.vfs.mkdir(principal, destination);
  } else if (kind === 'move' && from.mount.id === to.mount.id) {
    await deps.fs.rename(principal, path, destination);
  } else {
    const { task, refused } = await deps.tasks.runToEnd(principal, {
      kind,
      items: [{ sourcePath: path, targetPath: destination }],
      skipExisting: false,
    });
    const failure =
      refused[0]?.error ??
      (task && task.status !== 'done' ? (task.error ?? task.items[0]?.error) : undefined);
    if (failure !== undefined || !task) {
      throw internal('webdav.copy_failed', { reason: failure ?? '' });
    }
  }
  await deps.repo.copyProperties(path, destination, !(kind === 'copy' && depthHeader === '0'));
  if (kind === 'move') {
    await deps.repo.dropProperties(path);
    await deps.repo.dropLocks(path);
  }
  return new Response(null, { status: existing ? 204 : 201 });
}

/** The Destination header as a canonical path: a URL on this server or an absolute path, under /dav. */
function destinationOf(r: DavRequest): string {
  const header = r.c.req.header('Destination');
  if (!header) throw badRequest('webdav.destination_required');
  let url: URL;
  try {
    url = new URL(header, r.c.req.url);
  } catch {
    throw badRequest('webdav.destination_invalid');
  }
  // Only the path counts: behind a proxy the host a client sees may differ from the one we see.
  return davPath(r.deps.vfs, url.pathname).path;
}
