/**
 * The API reference (/api/openapi.json, /api/docs) is built from the routes themselves: every route
 * under /api is documented, and what the reference shows for a body is the JSON Schema of the very
 * zod schema that validates it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { apiOperations, openApiPath } from '../src/http/openapi.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

describe('API reference', () => {
  let t: TestApp;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document read as JSON
  let doc: any;

  before(async () => {
    t = await createTestApp('sqlite');
    const res = await t.request('/api/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    doc = await res.json();
  });
  after(() => t.close());

  it('documents every route under /api (a route without a doc fails here)', () => {
    const operations = apiOperations(t.routes);
    assert.ok(operations.length > 40, `only ${operations.length} operations`);
    const undocumented = operations.filter((op) => !op.doc).map((op) => `${op.method} ${op.path}`);
    assert.deepEqual(undocumented, []);
  });

  it('lists every documented operation in /api/openapi.json, with summary, tag and security', () => {
    assert.equal(doc.openapi, '3.1.0');
    for (const op of apiOperations(t.routes)) {
      if (op.method === 'HEAD') continue;
      const entry = doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()];
      assert.ok(entry, `${op.method} ${op.path} missing from the document`);
      assert.equal(entry.summary, op.doc!.summary);
      assert.deepEqual(entry.tags, [op.doc!.tag]);
      assert.equal(entry.security.length === 0, op.doc!.auth === 'none', `${op.method} ${op.path} security`);
    }
    assert.ok(doc.paths['/api/paste/{slug}'].get.parameters.some((p: { name: string }) => p.name === 'slug'));
  });

  it('shows each body as the JSON Schema of the zod schema that validates it', async () => {
    let bodies = 0;
    for (const op of apiOperations(t.routes)) {
      if (!op.doc?.body) continue;
      bodies++;
      const shown =
        doc.paths[openApiPath(op.path)][op.method.toLowerCase()].requestBody.content['application/json']
          .schema;
      const { $schema: _, ...expected } = z.toJSONSchema(op.doc.body, {
        io: 'input',
        unrepresentable: 'any',
      });
      assert.deepEqual(shown, JSON.parse(JSON.stringify(expected)), `${op.method} ${op.path}`);
    }
    assert.ok(bodies > 20, `only ${bodies} bodies`);
    // And that schema is the one enforced: the documented limit of the paste list holds.
    const limit = doc.paths['/api/admin/pastes'].get.parameters.find(
      (p: { name: string }) => p.name === 'limit',
    );
    assert.equal(limit.schema.maximum, 100);
    const token = await t.adminToken();
    const res = await t.request('/api/admin/pastes?limit=101', {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 400);
  });

  it('renders /api/docs: every path, readable, without scripts', async () => {
    const res = await t.request('/api/docs');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await res.text();
    assert.ok(!/<script/i.test(html));
    for (const path of Object.keys(doc.paths)) {
      assert.ok(
        html.includes(`<code>${path.replace(/&/g, '&#38;')}</code>`),
        `${path} missing from /api/docs`,
      );
    }
    assert.match(html, /<code>ids<\/code> <span class="req">required<\/span><\/td><td>body<\/td>/);
    // A paste takes `content` or `files` (docs/api.md, "Multi-file pastes"): neither alone is required.
    assert.match(html, /<code>files<\/code><\/td><td>body<\/td>/);
  });
});
