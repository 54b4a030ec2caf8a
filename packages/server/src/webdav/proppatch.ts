/**
 * PROPPATCH (RFC 4918 §9.2): sets and removes dead properties of a path, all or nothing. Live
 * properties are protected (403 `cannot-modify-protected-property`, the others 424). Values are kept
 * as the XML the client sent (with the namespaces it uses) and given back by PROPFIND.
 */
import { AppError } from '../http/errors.ts';
import { checkConditions } from './conditions.ts';
import { type DavRequest, lookup } from './context.ts';
import { LIVE_PROPERTIES } from './propfind.ts';
import {
  DAV_NS,
  elements,
  escapeXml,
  hrefOf,
  innerXml,
  isDav,
  nameOf,
  parseXml,
  propElement,
  type PropName,
  readSmallBody,
  statusLine,
  XML_HEAD,
} from './xml.ts';

/** DAV: properties this server computes (and creationdate, which it does not track): never set or removed. */
const PROTECTED = new Set<string>([...LIVE_PROPERTIES, 'creationdate']);
/** Longest value kept per property. */
const MAX_VALUE_CHARS = 64 * 1024;

export async function proppatch(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  deps.vfs.check(principal, path, 'write');
  const root = parseXml(await readSmallBody(r.c.req.raw.body));
  if (!isDav(root, 'propertyupdate')) throw new AppError(400, 'VALIDATION_FAILED', 'webdav.xml_invalid');
  const resource = await lookup(deps, principal, path);
  if (!resource) throw new AppError(404, 'NOT_FOUND', 'fs.not_found');
  await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, [{ path }]);

  // In document order: a later instruction for the same property wins.
  const changes = new Map<string, { prop: PropName; value?: string }>();
  for (const instruction of elements(root)) {
    const set = isDav(instruction, 'set');
    if (!set && !isDav(instruction, 'remove')) continue;
    for (const prop of elements(instruction).filter((e) => isDav(e, 'prop'))) {
      for (const el of elements(prop)) {
        const name = nameOf(el);
        const value = set ? innerXml(el) : undefined;
        changes.set(`${name.ns}\u0000${name.name}`, {
          prop: name,
          ...(value !== undefined ? { value } : {}),
        });
      }
    }
  }
  const refused = [...changes.values()].filter(
    (c) => (c.prop.ns === DAV_NS && PROTECTED.has(c.prop.name)) || (c.value?.length ?? 0) > MAX_VALUE_CHARS,
  );
  const statusOf = (c: { prop: PropName }) =>
    refused.some((x) => x.prop === c.prop) ? 403 : refused.length > 0 ? 424 : 200;
  if (refused.length === 0) {
    const set = [...changes.values()]
      .filter((c) => c.value !== undefined)
      .map((c) => ({ ...c.prop, value: c.value! }));
    const remove = [...changes.values()].filter((c) => c.value === undefined).map((c) => c.prop);
    await deps.repo.patch(path, set, remove);
  }
  const byStatus = new Map<number, string[]>();
  for (const change of changes.values()) {
    const status = statusOf(change);
    byStatus.set(status, [...(byStatus.get(status) ?? []), propElement(change.prop)]);
  }
  let body = `${XML_HEAD}<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(hrefOf(path, resource.isCollection))}</D:href>`;
  for (const [status, props] of byStatus) {
    body += `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(status)}</D:status>`;
    if (status === 403) body += '<D:error><D:cannot-modify-protected-property/></D:error>';
    body += '</D:propstat>';
  }
  body += '</D:response></D:multistatus>';
  return new Response(body, { status: 207, headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
