/**
 * How answers are built. Each request gathers the headers all of its answers carry (request id,
 * CORS, security headers, anything a handler adds with `addAnswerHeader`) in a plain record before
 * its route runs, and `answer()` builds the Response from that record and the route's own headers
 * as one plain object.
 *
 * Why not Hono's `c.header()`: a Response whose headers went through a `Headers` object — as
 * `c.header()` does, or as reading `res.headers` does — is copied header by header by
 * @hono/node-server, while one built from a plain object goes straight to node's `writeHead`. The
 * difference is about 35 µs per request, a fifth of a paste read.
 *
 * Answers built any other way (streams from storage, fetched answers, the web app's files) get the
 * common headers they lack afterwards, in `completeHeaders`.
 */
import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

/** Responses built by `answer()`: they already carry every common header. */
const complete = new WeakSet<Response>();

/** Adds a header to every answer of this request, the error answer included. */
export function addAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  c.get('headers')[name.toLowerCase()] = value;
}

/** An answer with the request's common headers; `headers` (any case) override them. */
export function answer(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer> | null,
  status: number,
  headers: Record<string, string> = {},
): Response {
  const all: Record<string, string> = { ...c.get('headers') };
  for (const name in headers) all[name.toLowerCase()] = headers[name]!;
  const res = new Response(body, { status, headers: all });
  complete.add(res);
  return res;
}

/** After the route: gives an answer built elsewhere the common headers it lacks. */
export function completeHeaders(c: Context<AppEnv>): void {
  if (complete.has(c.res)) return;
  const common = Object.entries(c.get('headers'));
  let headers = c.res.headers;
  const missing = common.filter(([name]) => !headers.has(name));
  if (missing.length === 0) return;
  try {
    for (const [name, value] of missing) headers.set(name, value);
  } catch {
    // A fetched answer's headers are immutable: answer with a copy (same body stream).
    const copy = new Response(c.res.body, c.res);
    headers = copy.headers;
    for (const [name, value] of missing) headers.set(name, value);
    c.res = undefined;
    c.res = copy;
  }
}
