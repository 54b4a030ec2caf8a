/**
 * PROPFIND (RFC 4918 §9.1): Depth 0 or 1 — Depth infinity is refused with 403 and the
 * `propfind-finite-depth` precondition, so a request can never walk a whole bucket. allprop (with
 * `include`), propname and named properties; live properties of files and folders, dead ones from
 * PROPPATCH, and the locks. A folder's members come from the vfs listing: complete (every storage
 * page) and cached like the fs API's.
 */
import { mimeFromFilename } from '@cubby/shared';
import type { Element } from '@xmldom/xmldom';
import { AppError, badRequest, notFound } from '../errors/app-error.ts';
import type { DavLocksTable } from '../db/schema.ts';
import { ancestorsAndSelf, type FsListing } from '../vfs/vfs.ts';
import { type DavRequest, type DavResource, lookup } from './context.ts';
import { covers } from '../vfs/locks.ts';
import { activeLockXml } from './locking.ts';
import {
  DAV_NS,
  DavError,
  davErrorBody,
  elements,
  escapeXml,
  hrefOf,
  isDav,
  nameOf,
  parseXml,
  propElement,
  propKey,
  type PropName,
  readSmallBody,
  statusLine,
  XML_HEAD,
} from './xml.ts';

type Want =
  { kind: 'allprop'; include: PropName[] } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

/** The live properties of this server: computed, never stored. */
export const LIVE_PROPERTIES = [
  'resourcetype',
  'displayname',
  'getlastmodified',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'supportedlock',
  'lockdiscovery',
] as const;

const SUPPORTED_LOCK =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

export async function propfind(r: DavRequest): Promise<Response> {
  const depth = (r.c.req.header('Depth') ?? 'infinity').trim().toLowerCase();
  if (depth !== '0' && depth !== '1') {
    if (depth !== 'infinity') throw badRequest('webdav.depth_invalid');
    throw new DavError(403, 'webdav.depth_infinity', davErrorBody('propfind-finite-depth'));
  }
  const want = parseWant(await readSmallBody(r.c.req.raw.body));
  // A folder's members come from its (cached) listing, which also shows that it is a folder: no
  // storage call for the folder itself. A file, or nothing, fails the listing (409, 404).
  let listing: FsListing | undefined;
  if (depth === '1') {
    listing = await r.deps.vfs.list(r.principal, r.path).catch((error: unknown) => {
      if (error instanceof AppError && (error.status === 404 || error.status === 409)) return undefined;
      throw error;
    });
  }
  const self: DavResource | null = listing
    ? { path: r.path, isCollection: true, size: 0, modified: null }
    : await lookup(r.deps, r.principal, r.path);
  if (!self) throw notFound('fs.not_found');
  const resources: DavResource[] = [self];
  if (listing) {
    for (const item of listing.items) {
      const path = item.isDirectory ? item.path.replace(/\/$/, '') : item.path;
      resources.push({
        path,
        isCollection: item.isDirectory,
        size: item.size,
        modified: item.modified ? new Date(item.modified) : null,
        ...(item.etag ? { etag: `"${item.etag}"` } : {}),
        ...(item.isDirectory ? {} : { contentType: mimeFromFilename(item.name) }),
      });
    }
  }
  const wantsDead = want.kind !== 'prop' || want.props.some((p) => p.ns !== DAV_NS);
  const sizes = wantsDead ? await r.deps.repo.propertySizes(resources.map((x) => x.path)) : new Map();
  const now = r.deps.clock.now();
  const locks = await r.deps.repo.locks(
    now.toISOString(),
    ancestorsAndSelf(r.path),
    depth === '1' ? r.path : undefined,
  );

  // The answer is written as it is sent, a batch of resources at a time, with the dead properties
  // of that batch alone in memory (a few MiB however large the folder or its properties).
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${XML_HEAD}<D:multistatus xmlns:D="DAV:">`));
    },
    async pull(controller) {
      if (next >= resources.length) {
        controller.enqueue(encoder.encode('</D:multistatus>'));
        controller.close();
        return;
      }
      const batch: DavResource[] = [];
      let chars = 0;
      while (next < resources.length && batch.length < BATCH_RESOURCES) {
        const size = sizes.get(resources[next]!.path) ?? 0;
        if (batch.length > 0 && chars + size > BATCH_PROPERTY_CHARS) break;
        batch.push(resources[next++]!);
        chars += size;
      }
      const dead = new Map<string, Array<{ prop: PropName; value: string }>>();
      const withProperties = batch.map((x) => x.path).filter((path) => sizes.has(path));
      for (const row of await r.deps.repo.properties(withProperties)) {
        const list = dead.get(row.path) ?? [];
        list.push({ prop: { ns: row.ns, name: row.name }, value: row.value });
        dead.set(row.path, list);
      }
      let xml = '';
      for (const resource of batch) {
        const held = locks.length === 0 ? locks : locks.filter((l) => covers(l, resource.path));
        xml += response(resource, want, dead.get(resource.path) ?? [], held, now);
      }
      controller.enqueue(encoder.encode(xml));
    },
  });
  return new Response(body, { status: 207, headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}

/** Resources written per step of a PROPFIND answer, and the dead properties' characters read for one. */
const BATCH_RESOURCES = 500;
const BATCH_PROPERTY_CHARS = 2 * 1024 * 1024;

/** What the body asks for; an empty body is allprop. */
function parseWant(text: string): Want {
  if (text.trim() === '') return { kind: 'allprop', include: [] };
  const root = parseXml(text);
  if (!isDav(root, 'propfind')) throw badRequest('webdav.xml_invalid');
  const children = elements(root);
  const first = children[0];
  if (!first) throw badRequest('webdav.xml_invalid');
  if (isDav(first, 'propname')) return { kind: 'propname' };
  if (isDav(first, 'allprop')) {
    const include = children.find((c) => isDav(c, 'include'));
    return { kind: 'allprop', include: include ? elements(include).map(nameOf) : [] };
  }
  if (isDav(first, 'prop')) return { kind: 'prop', props: elements(first as Element).map(nameOf) };
  throw badRequest('webdav.xml_invalid');
}

/** The live properties of a resource, by name, as XML values. */
function liveValues(resource: DavResource, locks: DavLocksTable[], now: Date): Map<string, string> {
  const values = new Map<string, string>();
  values.set('resourcetype', resource.isCollection ? '<D:collection/>' : '');
  const name = resource.path === '/' ? '' : resource.path.slice(resource.path.lastIndexOf('/') + 1);
  if (name) values.set('displayname', escapeXml(name));
  if (resource.modified) values.set('getlastmodified', resource.modified.toUTCString());
  if (!resource.isCollection) {
    values.set('getcontentlength', String(resource.size));
    if (resource.contentType) values.set('getcontenttype', escapeXml(resource.contentType));
    if (resource.etag) values.set('getetag', escapeXml(resource.etag));
  }
  values.set('supportedlock', SUPPORTED_LOCK);
  values.set('lockdiscovery', locks.length === 0 ? '' : locks.map((l) => activeLockXml(l, now)).join(''));
  return values;
}

function response(
  resource: DavResource,
  want: Want,
  dead: Array<{ prop: PropName; value: string }>,
  locks: DavLocksTable[],
  now: Date,
): string {
  const live = liveValues(resource, locks, now);
  const found: string[] = [];
  const missing: string[] = [];
  if (want.kind === 'propname') {
    for (const name of live.keys()) found.push(propElement({ ns: DAV_NS, name }));
    for (const d of dead) found.push(propElement(d.prop));
  } else {
    const deadByKey = new Map(dead.map((d) => [propKey(d.prop), d]));
    const asked =
      want.kind === 'prop'
        ? want.props
        : [
            ...[...live.keys()].map((name) => ({ ns: DAV_NS, name })),
            ...dead.map((d) => d.prop),
            ...want.include,
          ];
    const seen = new Set<string>();
    for (const prop of asked) {
      const key = propKey(prop);
      if (seen.has(key)) continue;
      seen.add(key);
      const liveValue = prop.ns === DAV_NS ? live.get(prop.name) : undefined;
      const deadValue = deadByKey.get(key)?.value;
      if (liveValue !== undefined) found.push(propElement(prop, liveValue));
      else if (deadValue !== undefined) found.push(propElement(prop, deadValue));
      else if (want.kind === 'prop' || !(LIVE_PROPERTIES as readonly string[]).includes(prop.name))
        missing.push(propElement(prop));
    }
  }
  let xml = `<D:response><D:href>${escapeXml(hrefOf(resource.path, resource.isCollection))}</D:href>`;
  if (found.length > 0) xml += propstat(found, 200);
  if (missing.length > 0) xml += propstat(missing, 404);
  if (found.length === 0 && missing.length === 0) xml += propstat([], 200);
  return `${xml}</D:response>`;
}

const propstat = (props: string[], status: number) =>
  `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(status)}</D:status></D:propstat>`;
