/**
 * The XML of WebDAV: request bodies parsed with namespaces (a malformed body or a broken namespace
 * declaration is 400), answers written by hand, and hrefs — every segment percent-encoded UTF-8.
 */
import { DOMParser, type Element, type Node, onWarningStopParsing, XMLSerializer } from '@xmldom/xmldom';
import { AppError, badRequest, payloadTooLarge } from '../errors/app-error.ts';
import type { MessageKey } from '../errors/messages.ts';

export const DAV_NS = 'DAV:';
/** Request bodies (PROPFIND, PROPPATCH, LOCK) are small; a larger one is refused, never read whole. */
export const XML_BODY_MAX_BYTES = 1024 * 1024;

/** A property name: namespace URI ('' for none) and local name. */
export interface PropName {
  ns: string;
  name: string;
}

export const propKey = (p: PropName) => `${p.ns}\u0000${p.name}`;

/** Reads a request body as text, up to {@link XML_BODY_MAX_BYTES} (413 beyond). */
export async function readSmallBody(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > XML_BODY_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge('1 MiB');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The document element of an XML body; 400 when it is not well-formed namespaced XML. */
export function parseXml(text: string): Element {
  let root: Element | null = null;
  try {
    const doc = new DOMParser({ onError: onWarningStopParsing }).parseFromString(text, 'text/xml');
    root = doc.documentElement;
  } catch {
    throw badRequest('webdav.xml_invalid');
  }
  if (!root) throw badRequest('webdav.xml_invalid');
  return root;
}

/** The element children of a node. */
export function elements(node: Node): Element[] {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === child.ELEMENT_NODE) out.push(child as Element);
  }
  return out;
}

export const isDav = (el: Element, name: string) => el.namespaceURI === DAV_NS && el.localName === name;

export const nameOf = (el: Element): PropName => ({ ns: el.namespaceURI ?? '', name: el.localName ?? '' });

/** The content of an element as XML text (namespaces it uses declared), to store and give back. */
export function innerXml(el: Element): string {
  const serializer = new XMLSerializer();
  let out = '';
  for (let child = el.firstChild; child; child = child.nextSibling)
    out += serializer.serializeToString(child);
  return out;
}

/** An element as XML text (a LOCK's owner). */
export const outerXml = (el: Element) => new XMLSerializer().serializeToString(el);

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};
/** Text inside an element (quotes stay as they are: an ETag reads `"…"`). */
export const escapeXml = (text: string) =>
  /[&<>]/.test(text) ? text.replace(/[&<>]/g, (c) => XML_ESCAPES[c]!) : text;
/** Text inside a double-quoted attribute. */
const escapeAttr = (text: string) => text.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!);

/**
 * A property element with its value: `D:` for DAV: properties, a declared prefix for others, and
 * `xmlns=""` for a property without a namespace.
 */
export function propElement(prop: PropName, value = ''): string {
  if (prop.ns === DAV_NS)
    return value === '' ? `<D:${prop.name}/>` : `<D:${prop.name}>${value}</D:${prop.name}>`;
  const open = prop.ns === '' ? `<${prop.name} xmlns=""` : `<P:${prop.name} xmlns:P="${escapeAttr(prop.ns)}"`;
  const tag = prop.ns === '' ? prop.name : `P:${prop.name}`;
  return value === '' ? `${open}/>` : `${open}>${value}</${tag}>`;
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/** `/dav` + the path, each segment percent-encoded; a collection's ends with `/`. */
export function hrefOf(path: string, isCollection: boolean): string {
  const encoded = path
    .split('/')
    .map((segment) => {
      const part = encodeURIComponent(segment);
      return /[!'()*]/.test(part)
        ? part.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        : part;
    })
    .join('/');
  const href = `/dav${encoded === '/' ? '' : encoded}`;
  return isCollection ? `${href}/` : href;
}

/** An HTTP status line as WebDAV writes it inside XML. */
export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}`.trimEnd();
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  423: 'Locked',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

/** A `DAV:error` body naming a precondition (RFC 4918 §16). */
export const davErrorBody = (condition: string, inner = '') =>
  `${XML_HEAD}<D:error xmlns:D="DAV:"><D:${condition}>${inner}</D:${condition}></D:error>`;

/** An error answered with an XML body (a precondition or postcondition element) instead of text. */
export class DavError extends AppError {
  constructor(
    status: number,
    key: MessageKey,
    readonly xml: string,
  ) {
    super(status, 'CONFLICT', key);
  }
}
