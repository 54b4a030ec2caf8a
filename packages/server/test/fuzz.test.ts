/**
 * Bad input never gets a 5xx. Every documented route (http/route-docs.ts) with a JSON body, a query
 * or path parameters is sent wrong types, huge, negative and fractional numbers, numbers past 2^53,
 * lone surrogates, NUL, deeply nested values and 1 MiB strings — one field at a time on top of a
 * plausible body, so each bad value reaches as far into the service as it can — on SQLite and
 * PostgreSQL, as an admin and as an API key. The routes come from the app itself, so a new route is
 * fuzzed without being listed here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { apiOperations, type Operation } from '../src/http/openapi.ts';
import { DIALECTS } from './support/databases.ts';
import { ADMIN, apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

type Json = Record<string, unknown>;

const MiB = 1024 * 1024;
/** `[[[…0…]]]` nested `depth` deep, as JSON text (built as text: JSON.stringify would overflow the stack). */
const nested = (depth: number): string => '['.repeat(depth) + '0' + ']'.repeat(depth);

/** Values every field is tried with, as raw JSON text (so 2^53+1 and 1e308 reach JSON.parse as written). */
const BAD_VALUES: string[] = [
  'null',
  'true',
  '-1',
  '0.5',
  '-0.5',
  '1e308',
  '-1e308',
  '9007199254740993',
  '-9007199254740993',
  '99999999999999999999999',
  '""',
  '"   "',
  '"\\ud800"',
  '"a\\udc00b"',
  '"a\\u0000b"',
  '"1e308"',
  '"-1"',
  '"9999-12-31T23:59:59Z"',
  '"275760-09-13T00:00:00Z"',
  '"../../etc/passwd"',
  '[]',
  '[null]',
  '{}',
  '{"__proto__":{"polluted":1}}',
  nested(2000),
  JSON.stringify('x'.repeat(MiB)),
];

/** Whole bodies of the wrong shape. */
const BAD_BODIES: string[] = ['[]', '"text"', '42', 'null', 'true', '{', '\u0000', nested(100_000)];

/** Query values (strings on the wire). */
const BAD_QUERY_VALUES: string[] = [
  '-1',
  '0.5',
  '1e308',
  '9007199254740993',
  '99999999999999999999999',
  'NaN',
  '',
  '%ED%A0%80',
  '%00',
  'x'.repeat(20_000),
];

/** Path parameter values, already URL-encoded. */
const BAD_PARAMS: string[] = ['%ED%A0%80', '%00', '..%2f..%2fetc', 'x'.repeat(5000), '%25', '%F0%9F%98%80'];

/** A plausible value for a field, by name, so the other fields of a body pass and the bad one is reached. */
function plausible(name: string, schema: Json, fixtures: Fixtures): unknown {
  const byName: Record<string, unknown> = {
    // A URL the server refuses to fetch (internal address), so no test waits on the network.
    url: 'http://127.0.0.1:9/a.txt',
    filename: 'a.txt',
    fileName: 'a.txt',
    size: 1,
    content: 'hello',
    name: `fuzz-${Math.random().toString(36).slice(2, 8)}`,
    password: 'pw-123456',
    path: '/fuzz',
    ids: ['00000000-0000-0000-0000-000000000000'],
    file_id: fixtures.pendingFileId,
    upload_id: fixtures.uploadId,
    part_numbers: [1],
    partNumber: 1,
    etag: '"0"',
    provider_type: 'Local',
    root_path: '/tmp/cubby-fuzz-root',
  };
  if (name in byName) return byName[name];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return schema.enum ? (schema.enum as unknown[])[0] : 'a';
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  return undefined;
}

interface Fixtures {
  pasteId: string;
  pasteSlug: string;
  fileId: string;
  fileSlug: string;
  keyId: string;
  configId: string;
  pendingFileId: string;
  uploadId: string;
}

/** A concrete URL path for an operation: its parameters filled from the fixtures it names. */
function concretePath(op: Operation, fixtures: Fixtures, override?: string): string {
  return op.path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => {
    if (override !== undefined) return override;
    if (name === 'slug')
      return op.path.includes('/files') || op.path.includes('/file-')
        ? fixtures.fileSlug
        : fixtures.pasteSlug;
    if (name === 'id') {
      if (op.path.includes('/pastes')) return fixtures.pasteId;
      if (op.path.includes('/files')) return fixtures.fileId;
      if (op.path.includes('/api-keys')) return fixtures.keyId;
      return fixtures.configId;
    }
    if (name === 'configId') return fixtures.configId;
    return 'x';
  });
}

const properties = (schema: z.ZodType): Record<string, Json> => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return (json.properties as Record<string, Json> | undefined) ?? {};
};

for (const dialect of DIALECTS) {
  describe(`no 5xx for bad input (${dialect})`, () => {
    let t: TestApp;
    let fixtures: Fixtures;
    let keyHeaders: Record<string, string>;
    let adminHeaders: Record<string, string>;
    const failures: string[] = [];

    before(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL: 'http://127.0.0.1:9' });
      const admin = bearer(await t.adminToken());
      adminHeaders = admin;
      const key = await t.createKey({
        name: 'fuzzer',
        text_permission: true,
        file_permission: true,
        mount_permission: true,
      });
      keyHeaders = apiKey(key.key);
      const paste = await t.json('/api/paste', {
        method: 'POST',
        headers: admin,
        json: { content: 'fuzz me' },
      });
      const pasteRow = await t.json(`/api/admin/pastes/${paste.body.data.slug}`, { headers: admin });
      const form = new FormData();
      form.append('file', new Blob(['fuzz file']), 'fuzz.txt');
      const file = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      const pending = await t.json('/api/s3/multipart/init', {
        method: 'POST',
        headers: admin,
        json: { filename: 'pending.bin', size: 6 * MiB },
      });
      const config = await t.services.storageConfigs.repo.findDefault();
      fixtures = {
        pasteId: pasteRow.body.data.id,
        pasteSlug: paste.body.data.slug,
        fileId: file.body.data.id,
        fileSlug: file.body.data.slug,
        keyId: key.id,
        configId: config!.id,
        pendingFileId: pending.body.data.file_id,
        uploadId: pending.body.data.upload_id,
      };
    });
    after(() => t.close());

    /** Sends one request and records a 5xx (or a failure to answer) with what caused it. */
    async function probe(
      op: Operation,
      label: string,
      init: { path?: string; query?: string; body?: string; asKey?: boolean },
    ): Promise<void> {
      // Logout is sent a token that is not the shared one, which it would revoke.
      const headers: Record<string, string> = init.asKey
        ? keyHeaders
        : op.path === '/api/admin/logout'
          ? bearer('not-a-live-token')
          : adminHeaders;
      const url = `${init.path ?? concretePath(op, fixtures)}${init.query ? `?${init.query}` : ''}`;
      try {
        const res = await t.request(url, {
          method: op.method,
          headers: init.body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
          body: init.body,
        });
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${op.method} ${op.path} ${label} → ${res.status}`);
      } catch (error) {
        failures.push(`${op.method} ${op.path} ${label} → threw ${(error as Error).message}`);
      }
    }

    it('answers every documented route without a 5xx', async () => {
      const operations = apiOperations(t.routes).filter(
        (op) => op.doc && op.method !== 'HEAD' && !op.path.startsWith('/api/storage/local/'),
      );
      assert.ok(operations.length > 20, `only ${operations.length} operations found`);
      for (const op of operations) {
        const doc = op.doc!;
        if (doc.body) {
          const props = properties(doc.body);
          const base: Json = {};
          for (const [name, schema] of Object.entries(props)) {
            const value = plausible(name, schema, fixtures);
            if (value !== undefined) base[name] = value;
          }
          for (const body of BAD_BODIES) await probe(op, `body ${body.slice(0, 40)}`, { body });
          for (const name of Object.keys(props)) {
            for (const raw of BAD_VALUES) {
              const { [name]: _dropped, ...rest } = base;
              const others = JSON.stringify(rest).slice(1, -1);
              const body = `{${others}${others ? ',' : ''}${JSON.stringify(name)}:${raw}}`;
              await probe(op, `${name}=${raw.slice(0, 40)}`, { body });
            }
          }
          await probe(op, 'plausible body as key', { body: JSON.stringify(base), asKey: true });
        }
        if (doc.query) {
          for (const name of Object.keys(properties(doc.query))) {
            for (const raw of BAD_QUERY_VALUES) {
              await probe(op, `?${name}=${raw.slice(0, 40)}`, { query: `${name}=${raw}` });
            }
            await probe(op, `?${name} twice`, { query: `${name}=1&${name}=2` });
          }
        }
        if (op.path.includes(':')) {
          for (const param of BAD_PARAMS) {
            await probe(op, `param ${param.slice(0, 40)}`, {
              path: concretePath(op, fixtures, param),
              ...(doc.body ? { body: '{}' } : {}),
            });
          }
        }
      }
      assert.deepEqual(failures, []);
    });

    it('still logs in afterwards (the fuzz did not break the app)', async () => {
      t.clock.advance(16 * 60_000); // past the failed-login windows the fuzz filled
      const res = await t.json('/api/admin/login', { method: 'POST', json: ADMIN });
      assert.equal(res.status, 200);
    });
  });
}
