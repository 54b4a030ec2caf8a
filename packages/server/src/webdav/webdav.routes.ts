/**
 * WebDAV at `/dav` (class 1 and 2): authentication, the `mount` permission, the request path, and
 * each method handed to its own file. Errors are answered as text in the client's language (or as
 * the XML a precondition asks for), never as the JSON envelope of the API.
 */
import { LANG_HEADER, mimeFromFilename } from '@cubby/shared';
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { AppError, badRequest, forbidden, internal, notFound, unauthenticated } from '../errors/app-error.ts';
import { type Lang, translate } from '../errors/messages.ts';
import { servingHeaders } from '../modules/files/files.serving.ts';
import { withLocksChecked } from '../vfs/locks.ts';
import type { DavAuthenticator } from './auth.ts';
import { checkConditions } from './conditions.ts';
import { type DavDeps, type DavRequest, davPath, lookup } from './context.ts';
import { copyOrMove } from './copy-move.ts';
import { lock, unlock } from './locking.ts';
import { propfind } from './propfind.ts';
import { proppatch } from './proppatch.ts';
import { mkcol, put, remove } from './write.ts';
import { DavError } from './xml.ts';

const METHODS = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';
const CHALLENGE = 'Basic realm="Cubby", charset="UTF-8"';

const HANDLERS: Record<string, (r: DavRequest) => Promise<Response>> = {
  GET: read,
  HEAD: read,
  PUT: put,
  DELETE: remove,
  MKCOL: mkcol,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  COPY: (r) => copyOrMove(r, 'copy'),
  MOVE: (r) => copyOrMove(r, 'move'),
  LOCK: lock,
  UNLOCK: unlock,
};

export function webdavRoutes(deps: DavDeps, authenticator: DavAuthenticator): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const handle = async (c: Context<AppEnv>): Promise<Response> => {
    try {
      if (c.req.method === 'OPTIONS') return options();
      const handler = HANDLERS[c.req.method];
      if (!handler) return new Response(null, { status: 405, headers: { Allow: METHODS } });
      const principal = await authenticator.principal(c.req.header('Authorization'), c.get('clientIp'));
      if (!principal) throw unauthenticated('auth.required');
      if (principal.type === 'apikey' && !principal.permissions.mount) {
        throw forbidden('auth.permission_required', { permission: 'mount' });
      }
      // A fragment never belongs in a request: refused rather than cut off (DELETE /a/#b is not DELETE /a/).
      if (c.req.url.includes('#')) throw badRequest('webdav.path_invalid');
      const { path, slash } = davPath(deps.vfs, new URL(c.req.url).pathname);
      // Each method checks its writes against the locks with the tokens the request sent
      // (conditions.ts); the vfs leaves them to it (vfs/locks.ts).
      return await withLocksChecked(() => handler({ c, deps, principal, path, slash }));
    } catch (error) {
      return failure(c, error);
    }
  };
  app.all('/dav', handle);
  app.all('/dav/*', handle);
  return app;
}

function options(): Response {
  return new Response(null, {
    status: 200,
    headers: { DAV: '1, 2', 'MS-Author-Via': 'DAV', Allow: METHODS, 'Content-Length': '0' },
  });
}

/** GET and HEAD: a file streamed with Range and validators (as a download: never rendered inline). */
async function read(r: DavRequest): Promise<Response> {
  const { deps, principal, path, c } = r;
  const ifHeader = c.req.header('If');
  if (ifHeader) await checkConditions(deps, principal, { path, ifHeader }, []);
  const resource = await lookup(deps, principal, path);
  if (!resource) throw notFound('fs.not_found');
  if (resource.isCollection) {
    // A folder read by a browser: its names, one per line.
    const body = c.req.method === 'HEAD' ? null : await folderText(r);
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const { at, entry } = await deps.vfs.stat(principal, path);
  const serve = servingHeaders(entry.name, mimeFromFilename(entry.name), 'download');
  if (c.req.method === 'GET') {
    // A mount whose downloads leave from the storage or a public address sends the client there
    // (docs/storage.md, "Download links").
    const elsewhere = await deps.vfs.redirectUrl(at, {
      expiresIn: at.config.signature_expires_in,
      filename: entry.name,
      disposition: serve.disposition,
      contentType: serve.contentType,
    });
    if (elsewhere) return new Response(null, { status: 302, headers: { Location: elsewhere.href } });
  }
  return deps.vfs.serve(c, at, { filename: entry.name, serve, missing: 'fs.not_found' });
}

async function folderText(r: DavRequest): Promise<string> {
  const listing = await r.deps.vfs.list(r.principal, r.path);
  return listing.items.map((item) => (item.isDirectory ? `${item.name}/` : item.name)).join('\n');
}

/** WebDAV clients seldom say which language they want: Chinese when asked for, else English. */
function langOf(c: Context<AppEnv>): Lang {
  const explicit = c.req.header(LANG_HEADER);
  if (explicit) return c.get('lang');
  return /^\s*zh/i.test(c.req.header('Accept-Language') ?? '') ? 'zh' : 'en';
}

function failure(c: Context<AppEnv>, error: unknown): Response {
  if (!(error instanceof AppError)) {
    c.get('log')?.error({ err: error }, 'webdav request failed');
    error = internal('common.internal');
  }
  const e = error as AppError;
  const headers = new Headers(e.headers);
  if (e.status === 401) headers.set('WWW-Authenticate', CHALLENGE);
  if (e instanceof DavError) {
    headers.set('Content-Type', 'application/xml; charset=utf-8');
    return new Response(e.xml, { status: e.status, headers });
  }
  headers.set('Content-Type', 'text/plain; charset=utf-8');
  return new Response(`${translate(e.messageKey, langOf(c), e.params)}\n`, { status: e.status, headers });
}
