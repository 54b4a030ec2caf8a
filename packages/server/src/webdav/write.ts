/**
 * PUT, DELETE and MKCOL over the vfs, through the fs service so that directory caches and file-share
 * records follow every change as they do for the fs API.
 *
 * PUT streams the body into storage (never held whole) under the upload size limit, honouring the
 * WebDAV upload mode: `direct`/`auto` let the driver choose (one streamed PUT for a known small
 * length, parts otherwise), `multipart` always sends parts, `proxy` streams the body to a presigned
 * URL of the bucket when the storage can take one (vfs `proxyPut`: S3) and the length is known (else
 * as `auto`).
 */
import { etagListHas, mimeFromFilename } from '@cubby/shared';
import {
  AppError,
  storageFailed,
  notAllowedHere,
  notFound,
  preconditionFailed,
  unsupportedType,
} from '../errors/app-error.ts';
import { isStorageError, placeOf } from '../vfs/vfs.ts';
import { checkConditions } from './conditions.ts';
import { type DavRequest, lookup, requireParent } from './context.ts';

/** RFC 9110 If-Match / If-None-Match on a write (412 when they fail). */
function checkEtagPreconditions(r: DavRequest, etag: string | undefined, exists: boolean): void {
  const ifMatch = r.c.req.header('If-Match');
  const ifNoneMatch = r.c.req.header('If-None-Match');
  if (ifMatch !== undefined) {
    const ok = ifMatch.trim() === '*' ? exists : etag !== undefined && etagListHas(ifMatch, etag);
    if (!ok) throw preconditionFailed('webdav.precondition_failed');
  }
  if (ifNoneMatch !== undefined) {
    const hit = ifNoneMatch.trim() === '*' ? exists : etag !== undefined && etagListHas(ifNoneMatch, etag);
    if (hit) throw preconditionFailed('webdav.precondition_failed');
  }
}

export async function put(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  if (r.slash) throw notAllowedHere('webdav.put_collection');
  const at = await deps.vfs.resolveWritable(principal, path);
  const existing = await lookup(deps, principal, path);
  if (existing?.isCollection) throw notAllowedHere('webdav.put_collection');
  checkEtagPreconditions(r, existing?.etag, existing !== null);
  await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, [
    { path, membership: existing === null },
  ]);
  if (!existing) await requireParent(deps, principal, path);
  const lengthHeader = r.c.req.header('Content-Length');
  const size = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const body = r.c.req.raw.body ?? new Blob([]).stream();
  const mode = await deps.settings.webdavUploadMode();

  let etag: string | undefined;
  if (mode === 'proxy' && size !== undefined && (await deps.vfs.can(at, 'proxyPut'))) {
    etag = await proxyPut(r, body, size);
  } else {
    const written = await deps.fs.uploads.putFile(principal, path, body, {
      size,
      inParts: mode === 'multipart',
    });
    etag = written.etag;
  }
  const headers: Record<string, string> = {};
  if (etag) headers.ETag = etag;
  return new Response(null, { status: existing ? 204 : 201, headers });
}

/** Streams the body to a presigned PUT URL of the bucket, then records the file as any upload. */
async function proxyPut(
  r: DavRequest,
  body: ReadableStream<Uint8Array>,
  size: number,
): Promise<string | undefined> {
  const { deps, principal, path } = r;
  const max = await deps.settings.maxUploadBytes();
  if (size > max) {
    // The same refusal as every other upload path gives.
    return (await deps.fs.uploads.putFile(principal, path, body, { size })).etag;
  }
  const at = await deps.vfs.resolveWritable(principal, path);
  const contentType = mimeFromFilename(path);
  const previousSize = await deps.vfs.sizeBefore(at);
  const reservation = await deps.vfs.reserve(at, size);
  let entry;
  try {
    const url = await deps.vfs.presignPut(at, { expiresIn: 3600, contentType, size });
    if (!url) throw storageFailed('webdav.proxy_failed', { status: 0 });
    const answer = await fetch(url, {
      method: 'PUT',
      body,
      headers: { 'Content-Type': contentType, 'Content-Length': String(size) },
      duplex: 'half',
    } as RequestInit);
    await answer.body?.cancel();
    if (!answer.ok) throw storageFailed('webdav.proxy_failed', { status: answer.status });
    entry = await deps.vfs.entry(at);
    await deps.vfs.report({
      kind: 'written',
      at: placeOf(at),
      size: entry.size,
      etag: entry.etag,
      previousSize,
    });
  } finally {
    await reservation.release();
  }
  await deps.fs.uploads.recordUpload(principal, at, entry.size, entry.etag, 'webdav');
  return entry.etag;
}

export async function remove(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  const existing = await lookup(deps, principal, path);
  if (!existing) throw notFound('fs.not_found');
  await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, [
    { path, below: true, membership: true },
  ]);
  await deps.fs.remove(principal, path);
  await deps.repo.dropProperties(path);
  await deps.repo.dropLocks(path);
  return new Response(null, { status: 204 });
}

export async function mkcol(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  const body = r.c.req.raw.body;
  if (body) {
    const reader = body.getReader();
    const first = await reader.read();
    await reader.cancel().catch(() => undefined);
    if (!first.done && first.value.byteLength > 0) {
      throw unsupportedType('webdav.mkcol_body');
    }
  }
  await deps.vfs.resolveWritable(principal, path);
  if (await lookup(deps, principal, path)) throw notAllowedHere('fs.dir_exists');
  await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, [
    { path, membership: true },
  ]);
  await requireParent(deps, principal, path);
  try {
    await deps.vfs.mkdir(principal, path);
  } catch (error) {
    if (isStorageError(error, 'ALREADY_EXISTS') || (error instanceof AppError && error.status === 409)) {
      throw notAllowedHere('fs.dir_exists');
    }
    throw error;
  }
  return new Response(null, { status: 201 });
}
