/**
 * PROPFIND answers (RFC 4918 multistatus) read as a stream with saxes: each `<D:response>` is
 * handed on as soon as it is complete, so a huge folder is never held as one XML string. Only the
 * properties of a 2xx `<D:propstat>` count; every kept text is capped (MAX_PROP_CHARS), so a
 * hostile answer cannot grow memory inside one element either.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { StorageError } from '../../driver.ts';
import { MAX_PROP_CHARS } from './webdav-tuning.ts';

const DAV = 'DAV:';

/** The request body: the five properties the driver reads. */
export const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>' +
  '<D:propfind xmlns:D="DAV:"><D:prop>' +
  '<D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/><D:getcontenttype/>' +
  '</D:prop></D:propfind>';

/** One resource of a multistatus answer, its properties as the server gave them. */
export interface DavResource {
  href: string;
  isCollection: boolean;
  size?: number;
  modified?: Date;
  /** The raw `getetag` value (maybe weak, maybe unquoted). */
  etag?: string;
  contentType?: string;
}

type TextProp = 'href' | 'status' | 'getcontentlength' | 'getlastmodified' | 'getetag' | 'getcontenttype';
const TEXT_PROPS = new Set<string>([
  'href',
  'status',
  'getcontentlength',
  'getlastmodified',
  'getetag',
  'getcontenttype',
]);

interface PropstatState {
  isCollection: boolean;
  texts: Partial<Record<TextProp, string>>;
}

/**
 * Parses a multistatus body, calling `onResource` for every response in it. `onResource` returning
 * false stops the parse early (the caller then drops the rest of the body). A body that is not
 * well-formed XML fails with UNAVAILABLE: the endpoint is not speaking WebDAV.
 */
export async function parseMultistatus(
  body: AsyncIterable<Uint8Array>,
  onResource: (resource: DavResource) => boolean | void,
  what: string,
): Promise<void> {
  const parser = new SaxesParser({ xmlns: true });
  const stack: string[] = [];
  let href: string | undefined;
  let propstat: PropstatState | undefined;
  let kept: DavResource | undefined;
  /** Whether the current response had a 2xx propstat (a response with only a 404 is skipped). */
  let found = false;
  let capture: { name: TextProp; text: string } | undefined;
  let stopped = false;

  const davName = (tag: SaxesTagNS): string => (tag.uri === DAV ? tag.local : `{${tag.uri}}${tag.local}`);

  parser.on('opentag', (tag) => {
    const name = davName(tag as SaxesTagNS);
    const parent = stack[stack.length - 1];
    if (parent === undefined && name !== 'multistatus') {
      throw new StorageError('UNAVAILABLE', `${what}: the answer is not a WebDAV multistatus`);
    }
    stack.push(name);
    if (name === 'response') {
      href = undefined;
      found = false;
      kept = { href: '', isCollection: false };
    } else if (name === 'propstat' && parent === 'response') {
      propstat = { isCollection: false, texts: {} };
    } else if (name === 'collection' && parent === 'resourcetype' && propstat) {
      propstat.isCollection = true;
    } else if (
      TEXT_PROPS.has(name) &&
      (parent === 'response' || parent === 'propstat' || parent === 'prop')
    ) {
      capture = { name: name as TextProp, text: '' };
    }
  });
  const onText = (text: string): void => {
    if (!capture) return;
    capture.text += text;
    if (capture.text.length > MAX_PROP_CHARS) {
      throw new StorageError('UNAVAILABLE', `${what}: a property in the answer is too long`);
    }
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const name = stack.pop();
    if (capture && name === capture.name) {
      const text = capture.text.trim();
      if (name === 'href' && stack[stack.length - 1] === 'response') href = text;
      else if (propstat) propstat.texts[capture.name] = text;
      capture = undefined;
    }
    if (name === 'propstat' && propstat && kept) {
      // "HTTP/1.1 200 OK": only found properties count (a 404 propstat lists the missing ones).
      if (/^\S+\s+2\d\d\b/.test(propstat.texts.status ?? '')) {
        mergeProps(kept, propstat);
        found = true;
      }
      propstat = undefined;
    } else if (name === 'response' && kept) {
      const done = kept;
      kept = undefined;
      if (found && href !== undefined && onResource({ ...done, href }) === false) stopped = true;
    }
  });

  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of body) {
      parser.write(decoder.decode(chunk, { stream: true }));
      if (stopped) return;
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    if (error instanceof Error && /^\d+:\d+: /.test(error.message)) {
      throw new StorageError('UNAVAILABLE', `${what}: the answer is not WebDAV XML`, { cause: error });
    }
    throw error;
  }
}

function mergeProps(into: DavResource, propstat: PropstatState): void {
  const { texts } = propstat;
  if (propstat.isCollection) into.isCollection = true;
  if (texts.getcontentlength !== undefined && /^\d+$/.test(texts.getcontentlength)) {
    into.size = Number(texts.getcontentlength);
  }
  if (texts.getlastmodified) {
    const date = new Date(texts.getlastmodified);
    if (!Number.isNaN(date.getTime())) into.modified = date;
  }
  if (texts.getetag) into.etag = texts.getetag;
  if (texts.getcontenttype) into.contentType = texts.getcontenttype;
}
