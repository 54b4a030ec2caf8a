/**
 * Route handlers that carry their own description. `route(doc, handler)` checks who may call (the
 * doc's `auth`), validates the query and JSON body with the doc's zod schemas and hands the parsed
 * values to the handler; the same doc, attached to the handler, is what `openapi.ts` publishes. So
 * the schema that validates a route and the schema its reference shows are one object.
 * (Built apart from its path, a handler's `c.req.param(name)` is typed `string | undefined`; the
 * router only calls it when the path matched, so `!` is sound there.)
 *
 * A route whose doc names an `audit` action writes one audit entry per request, after its handler:
 * `success` when it answered below 400, `failure` with the status when it answered 400 or more or
 * threw (401/403 from the auth check included). This is the one place routes are audited
 * (docs/security.md "Audit log").
 */
import type { Context, Handler } from 'hono';
import type { AuditAction } from '@cubby/shared';
import type { z } from 'zod';
import { admitGuest, authorize, type RouteAuth } from './auth.ts';
import { AppError } from '../errors/app-error.ts';
import type { AppEnv, AuditNote } from './context.ts';
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
  /** Open to a person who must set up two-factor sign-in before anything else (docs/accounts.md). */
  duringEnrolment?: true;
  /** Open to the guest too (a `mount` route; docs/accounts.md, "Guests"): its reach decides what it does. */
  guests?: boolean;
  /** What a success answers, when it is not the JSON envelope. */
  produces?: 'bytes' | 'text' | 'redirect';
  /** Writes an audit entry for every call (see above). */
  audit?: RouteAudit<B, Q>;
}

export interface RouteAudit<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  /** Dotted, e.g. `apikey.create`. (one of the list the web app names: packages/shared/src/audit.ts) */
  action: AuditAction;
  /**
   * The id, slug or path acted on, when the request names it; the input is missing when it did not
   * parse. What only the handler learns (a new share's slug) it notes with `noteAudit`.
   */
  target?: (c: Context<AppEnv>, input: { body?: Parsed<B>; query?: Parsed<Q> }) => string | undefined;
}

/** The audit target of routes on `…/:id`. */
export const idParam = (c: Context<AppEnv>): string | undefined => c.req.param('id');

/** Adds to the audit entry of the route being served what only its handler knows. */
export function noteAudit(c: Context<AppEnv>, note: AuditNote): void {
  c.set('auditNote', { ...c.get('auditNote'), ...note });
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
  type Input = { body?: Parsed<B>; query?: Parsed<Q> };
  /** Fills `parsed` as it goes, so an audit entry names a target even when the handler fails. */
  const serve = async (c: Context<AppEnv>, parsed: Input): Promise<Response> => {
    if (doc.guests) await admitGuest(c);
    authorize(c, doc.auth, { duringEnrolment: doc.duringEnrolment === true });
    await doc.precheck?.(c);
    const query = (doc.query ? validate(doc.query, c.req.query()) : undefined) as Parsed<Q>;
    parsed.query = query;
    const body = (doc.body ? await readJson(c, doc.body) : undefined) as Parsed<B>;
    parsed.body = body;
    return handler(c, { body, query });
  };
  const audit = doc.audit;
  const documentedHandler: Handler<AppEnv> = audit
    ? async (c) => {
        const parsed: Input = {};
        let status = 500;
        try {
          const response = await serve(c, parsed);
          status = response.status;
          return response;
        } catch (error) {
          if (error instanceof AppError) status = error.status;
          throw error;
        } finally {
          await recordAudit(c, audit, parsed, status);
        }
      }
    : (c) => serve(c, {});
  return Object.assign(documentedHandler, { [DOC]: doc });
}

async function recordAudit<B extends z.ZodType | undefined, Q extends z.ZodType | undefined>(
  c: Context<AppEnv>,
  audit: RouteAudit<B, Q>,
  input: { body?: Parsed<B>; query?: Parsed<Q> },
  status: number,
): Promise<void> {
  const note = c.get('auditNote');
  let target = note?.target;
  try {
    target ??= audit.target?.(c, input);
  } catch {
    // A target read from input that did not parse: the entry goes without it.
  }
  await c.get('audit').record({
    principal: note?.principal ?? c.get('principal'),
    ...(note?.triedName !== undefined ? { triedName: note.triedName } : {}),
    ip: c.get('clientIp'),
    action: audit.action,
    ...(target !== undefined ? { target } : {}),
    outcome: status < 400 ? 'success' : 'failure',
    status,
    ...(note?.details ? { details: note.details } : {}),
  });
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
