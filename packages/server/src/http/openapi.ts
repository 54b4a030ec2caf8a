/**
 * The API reference, built from the app itself: every route Hono knows under /api, described by the
 * doc its handler carries (route-docs.ts) — the zod schemas that validate it become JSON Schema.
 * Served as `/api/openapi.json` (OpenAPI 3.1) and as a readable page at `/api/docs`.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { answer } from './answer.ts';
import type { AppEnv } from './context.ts';
import { escapeHtml } from '../lib/html.ts';
import { type RouteAuth, type RouteDoc, route, routeDoc } from './route-docs.ts';

export interface KnownRoute {
  method: string;
  path: string;
  handler: unknown;
}

/** One operation: a method and path of the app with the doc of its handler (undefined when it has none). */
export interface Operation {
  method: string;
  /** Hono's path, e.g. `/api/paste/:slug`. */
  path: string;
  doc: RouteDoc<z.ZodType | undefined, z.ZodType | undefined> | undefined;
}

/** HTTP methods that name operations (Hono also lists `ALL` for middleware). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** The operations under `/api`, one per method and path, in the order they were registered. */
export function apiOperations(routes: readonly KnownRoute[]): Operation[] {
  const byKey = new Map<string, Operation>();
  for (const r of routes) {
    if (!METHODS.has(r.method) || !r.path.startsWith('/api/') || r.path.includes('*')) continue;
    const key = `${r.method} ${r.path}`;
    const doc = routeDoc(r.handler);
    const known = byKey.get(key);
    if (!known) byKey.set(key, { method: r.method, path: r.path, doc });
    else known.doc ??= doc;
  }
  return [...byKey.values()];
}

/** `/api/paste/:slug` → `/api/paste/{slug}` (a `:name{regex}` keeps only its name). */
export const openApiPath = (path: string): string => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const SECURITY: Record<RouteAuth, Array<Record<string, string[]>>> = {
  none: [],
  admin: [{ AdminToken: [] }],
  user: [{ AdminToken: [] }],
  text: [{ AdminToken: [] }, { ApiKey: [] }],
  file: [{ AdminToken: [] }, { ApiKey: [] }],
  mount: [{ AdminToken: [] }, { ApiKey: [] }],
  principal: [{ AdminToken: [] }, { ApiKey: [] }],
};

const AUTH_TEXT: Record<RouteAuth, string> = {
  none: 'anyone',
  admin: 'admin',
  user: 'a signed-in person (admin or member)',
  text: 'a person, or a key with text',
  file: 'a person, or a key with file',
  mount: 'a person, or a key with mount',
  principal: 'a person or any key',
};

const ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'data', 'success'],
  properties: {
    code: { type: 'integer', description: 'the HTTP status' },
    message: { type: 'string', description: 'Chinese, or English with `X-Cubby-Lang: en`' },
    data: {},
    success: { type: 'boolean' },
    error: { type: 'string', description: 'stable machine code on failures (VALIDATION_FAILED, …)' },
    details: { type: 'object', description: 'per-field messages of a 400' },
  },
};

function operationObject(op: Operation, doc: NonNullable<Operation['doc']>) {
  const parameters: JsonSchema[] = pathParams(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (doc.query) {
    const query = jsonSchema(doc.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties as Record<string, JsonSchema>) ?? {})) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  const operation: JsonSchema = {
    operationId: `${op.method.toLowerCase()}${openApiPath(op.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}`,
    tags: [doc.tag],
    summary: doc.summary,
    'x-cubby-auth': AUTH_TEXT[doc.auth],
    security: SECURITY[doc.auth],
    responses: {
      [doc.produces === 'redirect' ? '302' : '200']: {
        description:
          doc.produces === 'bytes' ? 'the file' : doc.produces === 'text' ? 'plain text' : 'success',
        content:
          doc.produces === 'bytes'
            ? { 'application/octet-stream': {} }
            : doc.produces === 'text'
              ? { 'text/plain': {} }
              : doc.produces === 'redirect'
                ? undefined
                : { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
      default: {
        description: 'an error, with a stable code in `error`',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
    },
  };
  if (doc.description) operation.description = doc.description;
  if (parameters.length > 0) operation.parameters = parameters;
  if (doc.body) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(doc.body) } },
    };
  } else if (doc.upload === 'multipart') {
    operation.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object' } } },
    };
  } else if (doc.upload === 'binary') {
    operation.requestBody = { required: true, content: { 'application/octet-stream': {} } };
  }
  return operation;
}

/** The OpenAPI 3.1 document of the documented operations. */
export function openApiDocument(operations: readonly Operation[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  // The signed storage URLs are issued by the API, not called by scripts: they go last.
  const last = (op: Operation) => (op.path.startsWith('/api/storage/') ? 1 : 0);
  for (const op of [...operations].sort((a, b) => last(a) - last(b))) {
    if (!op.doc || op.method === 'HEAD') continue;
    const path = openApiPath(op.path);
    (paths[path] ??= {})[op.method.toLowerCase()] = operationObject(op, op.doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cubby API',
      version,
      description:
        'Text and file shares, uploads, storage and API keys. Routes and fields follow CloudPaste v0.6, ' +
        'so its clients keep working. Every JSON answer is the envelope {code, message, data, success}.',
    },
    paths,
    components: {
      schemas: { Envelope: ENVELOPE },
      securitySchemes: {
        AdminToken: { type: 'http', scheme: 'bearer', description: 'the token of POST /api/admin/login' },
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'the value `ApiKey <key>`',
        },
      },
    },
  };
}

type Document = ReturnType<typeof openApiDocument>;

/** Escaped text whose `backticked` parts are shown as code. */
const prose = (text: string): string =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);

const fieldRow = (name: string, where: string, required: boolean, schema: JsonSchema): string =>
  `<tr><td><code>${escapeHtml(name)}</code>${required ? ' <span class="req">required</span>' : ''}</td>` +
  `<td>${where}</td><td>${escapeHtml(describeSchema(schema))}</td></tr>`;

/** A one-line description of a JSON Schema: its type and constraints. */
function describeSchema(schema: JsonSchema): string {
  const parts: string[] = [];
  const type = schema.type ?? (schema.anyOf ? 'one of' : schema.const !== undefined ? 'constant' : 'any');
  parts.push(Array.isArray(type) ? type.join(' | ') : String(type));
  if (schema.anyOf) {
    parts.push(
      (schema.anyOf as JsonSchema[])
        .map((s) => (s.const !== undefined ? JSON.stringify(s.const) : describeSchema(s)))
        .join(', '),
    );
  }
  if (schema.enum) parts.push((schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(', '));
  for (const [key, label] of [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', '≥'],
    ['maximum', '≤'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['pattern', 'pattern'],
    ['format', 'format'],
  ] as const) {
    if (schema[key] !== undefined) parts.push(`${label} ${String(schema[key])}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join('; ');
}

function fieldRows(schema: JsonSchema | undefined, where: string): string {
  const properties = (schema?.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.entries(properties)
    .map(([name, s]) => fieldRow(name, where, required.has(name), s))
    .join('');
}

/** The readable reference: the same document as HTML, no script, grouped by tag. */
export function docsPage(doc: Document): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as JsonSchema & { tags: string[]; parameters?: JsonSchema[]; requestBody?: JsonSchema };
      const params = (op.parameters ?? [])
        .map((p) => fieldRow(String(p.name), String(p.in), p.required === true, p.schema as JsonSchema))
        .join('');
      const content = (op.requestBody?.content ?? {}) as Record<string, { schema?: JsonSchema }>;
      const [kind, body] = Object.entries(content)[0] ?? [];
      const bodyRows = kind === 'application/json' ? fieldRows(body?.schema, 'body') : '';
      const table =
        params || bodyRows
          ? `<div class="scroll"><table><tr><th>name</th><th>in</th><th>type</th></tr>${params}${bodyRows}</table></div>`
          : '';
      const bodyNote =
        kind && kind !== 'application/json' ? `<p>Body: <code>${escapeHtml(kind)}</code></p>` : '';
      const id = escapeHtml(String(op.operationId));
      const html =
        `<section id="${id}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>` +
        `<p>${prose(String(op.summary))} <span class="auth">— ${escapeHtml(String(op['x-cubby-auth']))}</span></p>` +
        (op.description ? `<p>${prose(String(op.description))}</p>` : '') +
        bodyNote +
        table +
        '</section>';
      const tag = op.tags[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const toc = [...byTag.keys()]
    .map((tag) => `<a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a>`)
    .join(' · ');
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<h2 id="${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join('')}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cubby API reference</title><style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.45}
body{max-width:960px;margin:0 auto;padding:1rem}code{font-family:ui-monospace,monospace}
table{border-collapse:collapse;width:100%;margin:.5rem 0;min-width:20rem}td,th{border:1px solid #8884;padding:.25rem .5rem;text-align:left;vertical-align:top;font-size:.9rem}
section{border-top:1px solid #8884;padding:.5rem 0}h3{margin:.25rem 0;font-size:1rem;overflow-wrap:anywhere}
.m{display:inline-block;min-width:4.5em;font-size:.8rem;padding:.1rem .3rem;border-radius:.25rem;color:#fff;text-align:center}
.m{background:#6b7280}.get{background:#2563eb}.post{background:#16a34a}.put{background:#b45309}.delete{background:#dc2626}
.auth{color:#888}.req{font-size:.75rem;color:#b45309}.scroll{overflow-x:auto}td:last-child{overflow-wrap:anywhere}
</style></head><body><h1>Cubby API reference</h1>
<p>Version ${escapeHtml(doc.info.version)}. ${escapeHtml(doc.info.description)} Credentials: <code>Authorization: Bearer &lt;admin token&gt;</code> or <code>Authorization: ApiKey &lt;key&gt;</code>. The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<nav>${toc}</nav>${sections}</body></html>`;
}

/** `/api/openapi.json` and `/api/docs`, built once from the app's routes when first asked for. */
export function openApiRoutes(routes: () => readonly KnownRoute[], version: string) {
  const app = new Hono<AppEnv>();
  let document: Document | undefined;
  const built = () => (document ??= openApiDocument(apiOperations(routes()), version));
  app.get(
    '/openapi.json',
    route({ tag: 'System', summary: 'This reference as an OpenAPI 3.1 document', auth: 'none' }, (c) =>
      answer(c, JSON.stringify(built()), 200, { 'content-type': 'application/json' }),
    ),
  );
  app.get(
    '/docs',
    route({ tag: 'System', summary: 'This reference as a page', auth: 'none', produces: 'text' }, (c) =>
      answer(c, docsPage(built()), 200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      }),
    ),
  );
  return app;
}
