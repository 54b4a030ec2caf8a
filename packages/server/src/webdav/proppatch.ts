/**
 * PROPPATCH (RFC 4918 §9.2): sets and removes dead properties of a path, all or nothing. Live
 * properties are protected (403 `cannot-modify-protected-property`, the others 424). Values are kept
 * as the XML the client sent (with the namespaces it uses) and given back by PROPFIND.
 */
import { badRequest, notFound, tooLarge } from '../errors/app-error.ts';
import { translate } from '../errors/messages.ts';
import { checkConditions } from './conditions.ts';
import { DAV_PROP_CHARS_PER_RESOURCE, DAV_PROPS_PER_RESOURCE, DavPropertiesFull } from './dav.repository.ts';
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
/** Properties one PROPPATCH may name (clients set a handful; 413 beyond, before any is read out). */
export const DAV_PROPS_PER_REQUEST = 100;

const tooManyProperties = () => tooLarge('webdav.too_many_properties', { limit: DAV_PROPS_PER_REQUEST });

export async function proppatch(r: DavRequest): Promise<Response> {
  const { deps, principal, path } = r;
  deps.vfs.check(principal, path, 'write');
  const root = parseXml(await readSmallBody(r.c.req.raw.body));
  if (!isDav(root, 'propertyupdate')) throw badRequest('webdav.xml_invalid');
  const resource = await lookup(deps, principal, path);
  if (!resource) throw notFound('fs.not_found');
  await checkConditions(deps, principal, { path, ifHeader: r.c.req.header('If') }, [{ path }]);

  // In document order: a later instruction for the same property wins.
  const changes = new Map<string, { prop: PropName; value?: string }>();
  for (const instruction of elements(root)) {
    const set = isDav(instruction, 'set');
    if (!set && !isDav(instruction, 'remove')) continue;
    for (const prop of elements(instruction).filter((e) => isDav(e, 'prop'))) {
      const named = elements(prop);
      if (named.length > DAV_PROPS_PER_REQUEST) throw tooManyProperties();
      for (const el of named) {
        const name = nameOf(el);
        const value = set ? innerXml(el) : undefined;
        changes.set(`${name.ns}\u0000${name.name}`, {
          prop: name,
          ...(value !== undefined ? { value } : {}),
        });
        if (changes.size > DAV_PROPS_PER_REQUEST) throw tooManyProperties();
      }
    }
  }
  const refused = new Set(
    [...changes.values()].filter(
      (c) => (c.prop.ns === DAV_NS && PROTECTED.has(c.prop.name)) || (c.value?.length ?? 0) > MAX_VALUE_CHARS,
    ),
  );
  let full = false;
  if (refused.size === 0) {
    const set = [...changes.values()]
      .filter((c) => c.value !== undefined)
      .map((c) => ({ ...c.prop, value: c.value! }));
    const remove = [...changes.values()].filter((c) => c.value === undefined).map((c) => c.prop);
    try {
      await deps.repo.patch(path, set, remove);
    } catch (error) {
      if (!(error instanceof DavPropertiesFull)) throw error;
      full = true;
    }
  }
  // Refused: the protected or too long ones 403; with no room left, what was set 507; the rest 424.
  const statusOf = (c: { prop: PropName; value?: string }) =>
    refused.has(c) ? 403 : full && c.value !== undefined ? 507 : refused.size > 0 || full ? 424 : 200;
  const byStatus = new Map<number, string[]>();
  for (const change of changes.values()) {
    const status = statusOf(change);
    const props = byStatus.get(status) ?? [];
    props.push(propElement(change.prop));
    byStatus.set(status, props);
  }
  let body = `${XML_HEAD}<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(hrefOf(path, resource.isCollection))}</D:href>`;
  for (const [status, props] of byStatus) {
    body += `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(status)}</D:status>`;
    if (status === 403) body += '<D:error><D:cannot-modify-protected-property/></D:error>';
    if (status === 507) {
      const message = translate('webdav.properties_full', r.c.get('lang'), {
        count: DAV_PROPS_PER_RESOURCE,
        kib: DAV_PROP_CHARS_PER_RESOURCE / 1024,
      });
      body += `<D:responsedescription>${escapeXml(message)}</D:responsedescription>`;
    }
    body += '</D:propstat>';
  }
  body += '</D:response></D:multistatus>';
  return new Response(body, { status: 207, headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
