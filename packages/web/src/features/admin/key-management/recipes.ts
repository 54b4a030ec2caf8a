/**
 * Copy-paste recipes for a new API key (issue 10 item 11): curl commands for a POSIX shell and
 * ShareX custom uploaders (.sxcu), with the key and the server's address filled in. Every value is
 * quoted for where it lands — single quotes for the shell, JSON for the body, ShareX's own escapes
 * for its syntax — so an odd address or key still gives a command that does what it says.
 *
 * The answers they read: a form upload answers the share (`data.url` is its page, `/file/<slug>`;
 * files.serializer.ts `toFileShare`), a paste answers `data.slug` (pastes.routes.ts); failures carry
 * `message`.
 */

export interface RecipeTarget {
  /** The server's address, without a trailing slash (`https://cubby.example`). */
  origin: string;
  key: string;
}

/** The file name the upload commands send (the reader puts their own file there). */
export const SAMPLE_FILE = 'photo.png';

/** One POSIX shell word holding exactly `value`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A command of shell words, one option per line (continued with a backslash). */
function command(words: string[][]): string {
  return words.map((word) => word.join(' ')).join(' \\\n  ');
}

const authorization = (key: string) => `Authorization: ApiKey ${key}`;

/** `curl` form upload (POST /api/upload, the file in field `file`); prints the share as JSON. */
export function curlUpload({ origin, key }: RecipeTarget, file = SAMPLE_FILE): string {
  return command([
    ['curl', '-H', shellQuote(authorization(key))],
    ['-F', shellQuote(`file=@${file}`)],
    [shellQuote(`${origin}/api/upload`)],
  ]);
}

/** `curl -T` raw upload (PUT /api/upload-direct/<name>); prints the share as JSON. */
export function curlUploadDirect({ origin, key }: RecipeTarget, file = SAMPLE_FILE): string {
  return command([
    ['curl', '-T', shellQuote(file)],
    ['-H', shellQuote(authorization(key))],
    [shellQuote(`${origin}/api/upload-direct/${encodeURIComponent(file)}`)],
  ]);
}

/** `curl` text share (POST /api/paste, JSON); prints the paste as JSON. */
export function curlPaste({ origin, key }: RecipeTarget, content: string): string {
  return command([
    ['curl', '-H', shellQuote(authorization(key))],
    ['-H', shellQuote('Content-Type: application/json')],
    ['-d', shellQuote(JSON.stringify({ content, format: 'text' }))],
    [shellQuote(`${origin}/api/paste`)],
  ]);
}

/**
 * A literal for ShareX's syntax fields (request URL, header values, URL, error message): `{`, `}`,
 * `|` and `\` start or end its functions unless escaped with `\`.
 */
export function sharexLiteral(value: string): string {
  return value.replace(/[\\{}|]/g, (c) => `\\${c}`);
}

/**
 * A ShareX custom uploader (the .sxcu JSON, ShareX 14 syntax). Version 14.0.0: older versions
 * would read the file in the `$…$` syntax of ShareX 13.
 */
export interface SharexUploader {
  Version: string;
  Name: string;
  DestinationType: string;
  RequestMethod: 'POST';
  RequestURL: string;
  Headers: Record<string, string>;
  Body: 'MultipartFormData' | 'JSON';
  FileFormName?: string;
  Data?: string;
  URL: string;
  ErrorMessage: string;
}

const SHAREX_VERSION = '14.0.0';

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** What both uploaders share: who they are, where they send, with which key. */
function sharexRequest(
  { origin, key }: RecipeTarget,
  name: string,
  destination: string,
  route: string,
): Pick<SharexUploader, 'Version' | 'Name' | 'DestinationType' | 'RequestMethod' | 'RequestURL' | 'Headers'> {
  return {
    Version: SHAREX_VERSION,
    Name: `${name} (${hostOf(origin)})`,
    DestinationType: destination,
    RequestMethod: 'POST',
    RequestURL: sharexLiteral(`${origin}${route}`),
    Headers: { Authorization: sharexLiteral(`ApiKey ${key}`) },
  };
}

/** Screenshots and files → POST /api/upload; the link is the share's page. */
export function sharexFileUploader(target: RecipeTarget): SharexUploader {
  return {
    ...sharexRequest(target, 'Cubby', 'ImageUploader, FileUploader', '/api/upload'),
    Body: 'MultipartFormData',
    FileFormName: 'file',
    URL: `${sharexLiteral(target.origin)}{json:data.url}`,
    ErrorMessage: '{json:message}',
  };
}

/**
 * Text → POST /api/paste as plain text; the link is the paste's page. ShareX puts the text into
 * `Data` JSON-encoded itself (`{input}`); `Data` is not read with the syntax above.
 */
export function sharexTextUploader(target: RecipeTarget): SharexUploader {
  return {
    ...sharexRequest(target, 'Cubby text', 'TextUploader', '/api/paste'),
    Body: 'JSON',
    Data: '{"content":"{input}","format":"text"}',
    URL: `${sharexLiteral(target.origin)}/paste/{json:data.slug}`,
    ErrorMessage: '{json:message}',
  };
}

/** `cubby-<host>` with only characters safe in a file or remote name. */
function cubbyName(origin: string): string {
  const host = hostOf(origin)
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `cubby-${host || 'server'}`;
}

/** The .sxcu file's name: `cubby-<host>-files.sxcu`, with only safe characters. */
export function sxcuFilename(origin: string, kind: 'files' | 'text'): string {
  return `${cubbyName(origin)}-${kind}.sxcu`;
}

/**
 * The WebDAV address of a key's base path (`<origin>/dav/<base path>/`, each segment
 * percent-encoded): what a file manager connects to, with the key as username and password.
 */
export function webdavUrl({ origin }: RecipeTarget, basePath: string): string {
  const segments = basePath.split('/').filter(Boolean).map(encodeURIComponent);
  return `${origin}/dav/${segments.map((s) => `${s}/`).join('')}`;
}

/**
 * rclone: a `webdav` remote for this server with the key as username and password (rclone stores
 * the password obscured), then a listing of the key's base path. An app password (docs/accounts.md)
 * is the password of its person's `user` name instead.
 */
export function rcloneWebdav({ origin, key }: RecipeTarget, basePath: string, user = key): string {
  const remote = cubbyName(origin);
  const create = command([
    ['rclone', 'config', 'create', shellQuote(remote), 'webdav'],
    [shellQuote(`url=${origin}/dav`), 'vendor=other'],
    [shellQuote(`user=${user}`), `pass="$(rclone obscure ${shellQuote(key)})"`],
  ]);
  const folder = basePath.split('/').filter(Boolean).join('/');
  return `${create}
rclone lsf ${shellQuote(`${remote}:${folder}`)}`;
}

/** The .sxcu file's text. */
export function sxcuText(uploader: SharexUploader): string {
  return `${JSON.stringify(uploader, null, 2)}\n`;
}
