/**
 * Route handlers that carry their own description. `route(doc, handler)` checks who may call (the
 * doc's `auth`), validates the query and JSON body with the doc's zod schemas and hands the parsed
 * values to the handler; the same doc, attached to the handler, is what `openapi.ts` publishes. So
 * the schema that validates a route and the schema its reference shows are one object.
 * (Built apart from its path, a handler's `c.req.param(name)` is typed `string | undefined`; the
 * router only calls it when the path matched, so `!` is sound there.)
 */
import type { Context, Handler } from 'hono';
import type { z } from 'zod';
import { authorize, type RouteAuth } from './auth.ts';
import type { AppEnv } from './context.ts';
import { readJson, validate } from './validate.ts';

export type { RouteAuth };

export interface RouteDoc<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
> {
  /** Group in the reference (e.g. "Pastes"). */
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** The JSON body (read whatever the Content-Type says, as CloudPaste clients expect). */
  body?: B;
  query?: Q;
  /** A body that is not JSON: a multipart form or raw bytes, read by the handler itself. */
  upload?: 'multipart' | 'binary';
  /** Runs after the auth check and before the input is parsed (e.g. a 404 that should come first). */
  precheck?: (c: Context<AppEnv>) => Promise<void>;
  /** What a success answers, when it is not the JSON envelope. */
  produces?: 'bytes' | 'text' | 'redirect';
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

const DOC = Symbol.for('cubby.route-doc');

/** The handler of a documented route: checks `auth`, parses `query` then `body`, then calls `handler`. */
export function route<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(
  doc: RouteDoc<B, Q>,
  handler: (c: Context<AppEnv>, input: { body: Parsed<B>; query: Parsed<Q> }) => Response | Promise<Response>,
): Handler<AppEnv> {
  const documentedHandler: Handler<AppEnv> = async (c) => {
    authorize(c, doc.auth);
    await doc.precheck?.(c);
    const query = (doc.query ? validate(doc.query, c.req.query()) : undefined) as Parsed<Q>;
    const body = (doc.body ? await readJson(c, doc.body) : undefined) as Parsed<B>;
    return handler(c, { body, query });
  };
  return Object.assign(documentedHandler, { [DOC]: doc });
}

/**
 * Attaches a doc to a handler that checks its own input (the storage routes behind signed URLs,
 * whose query is a signature): it is published, not enforced.
 */
export function documented<H extends object>(doc: RouteDoc, handler: H): H {
  return Object.assign(handler, { [DOC]: doc });
}

/** The doc of a handler as Hono keeps it (sub-app mounting may wrap it), or undefined. */
export function routeDoc(
  handler: unknown,
): RouteDoc<z.ZodType | undefined, z.ZodType | undefined> | undefined {
  let current = handler as Record<string | symbol, unknown> | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    const doc = current[DOC];
    if (doc) return doc as RouteDoc<z.ZodType | undefined, z.ZodType | undefined>;
    current = current['__COMPOSED_HANDLER'] as Record<string | symbol, unknown> | undefined;
  }
  return undefined;
}
