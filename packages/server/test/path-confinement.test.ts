/**
 * The shared traversal corpus (packages/shared/src/traversal-corpus.ts) through every route that
 * takes a path or a file name, as an API key whose base path is `/team`. Whatever a route answers,
 * it never answers 5xx, and nothing it stores — record or bytes on disk — lies outside `/team`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORPUS_BASE, TRAVERSAL_FILENAMES, TRAVERSAL_PATHS } from '../../shared/src/traversal-corpus.ts';
import { DIALECTS } from './support/databases.ts';
import { apiKey, createTestApp, type TestApp } from './support/test-app.ts';

const MiB = 1024 * 1024;

interface Target {
  path?: string;
  filename?: string;
}

/**
 * encodeURIComponent that also carries lone surrogates, as the bytes a sloppy client would send
 * (their 3-byte WTF-8 form, e.g. %ED%A0%80) instead of throwing.
 */
function encodeLoose(text: string): string {
  return Array.from(text, (char) => {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      return bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(char);
  }).join('');
}

/** One request per upload route that places a file, built from a path and/or a file name. */
const ROUTES: Record<string, (t: TestApp, key: string, target: Target) => Promise<Response>> = {
  'POST /api/upload': (t, key, { path, filename }) => {
    const form = new FormData();
    if (path !== undefined) form.append('path', path);
    form.append('file', new Blob(['x']), filename ?? 'x.txt');
    return t.request('/api/upload', { method: 'POST', headers: apiKey(key), body: form });
  },
  'PUT /api/upload-direct/:filename': (t, key, { path, filename }) =>
    t.request(
      `/api/upload-direct/${encodeLoose(filename ?? 'x.txt')}${path === undefined ? '' : `?path=${encodeLoose(path)}`}`,
      { method: 'PUT', headers: apiKey(key), body: 'x' },
    ),
  'POST /api/s3/presign': (t, key, { path, filename }) =>
    t.request('/api/s3/presign', {
      method: 'POST',
      headers: apiKey(key),
      json: { filename: filename ?? 'x.txt', size: 1, path },
    }),
  'POST /api/s3/multipart/init': (t, key, { path, filename }) =>
    t.request('/api/s3/multipart/init', {
      method: 'POST',
      headers: apiKey(key),
      json: { filename: filename ?? 'x.bin', size: 6 * MiB, path },
    }),
  'POST /api/url/presign': (t, key, { path, filename }) =>
    t.request('/api/url/presign', {
      method: 'POST',
      headers: apiKey(key),
      json: { url: 'https://example.com/x.txt', metadata: { filename: filename ?? 'x.txt', size: 1 }, path },
    }),
  'POST /api/url/multipart/init': (t, key, { path, filename }) =>
    t.request('/api/url/multipart/init', {
      method: 'POST',
      headers: apiKey(key),
      json: {
        url: 'https://example.com/x.bin',
        metadata: { filename: filename ?? 'x.bin', size: 6 * MiB },
        path,
      },
    }),
};

/** A storage key a `/team` key may own: inside the base, no dot segment, no hidden last segment. */
function assertConfined(storagePath: string, context: string) {
  assert.ok(storagePath.startsWith(`${CORPUS_BASE}/`), `${context}: ${storagePath}`);
  const segments = storagePath.split('/').slice(1);
  for (const segment of segments) {
    assert.ok(segment !== '' && segment !== '.' && segment !== '..', `${context}: ${storagePath}`);
    assert.ok(!/[\\\uff0f\uff3c]/.test(segment), `${context}: separator-like character in ${storagePath}`);
  }
  assert.ok(!segments.at(-1)!.startsWith('.'), `${context}: hidden name ${storagePath}`);
}

for (const dialect of DIALECTS) {
  describe(`path confinement of upload routes (${dialect})`, () => {
    let t: TestApp;
    let team: { id: string; key: string };
    let storageRoot: string;

    before(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL: 'http://127.0.0.1:9' });
      team = await t.createKey({ name: 'team', file_permission: true, basic_path: CORPUS_BASE });
      const config = await t.services.storageConfigs.repo.findDefault();
      storageRoot = JSON.parse(config!.settings).root_path;
    });
    after(() => t.close());

    /** The storage key behind an answer: presign-like answers name it, the form upload answers the share. */
    const storedPath = async (data: { storage_path?: string; id?: string } | undefined): Promise<string> => {
      if (data?.storage_path) return data.storage_path;
      const row = await t.database.db.kysely
        .selectFrom('files')
        .select('storage_path')
        .where('id', '=', data?.id ?? '')
        .executeTakeFirst();
      return row?.storage_path ?? '';
    };

    for (const [route, send] of Object.entries(ROUTES)) {
      it(`${route}: every corpus path is refused or lands inside ${CORPUS_BASE}`, async () => {
        for (const path of TRAVERSAL_PATHS) {
          const res = await send(t, team.key, { path });
          const body = (await res.json()) as { data?: { storage_path?: string; id?: string } };
          assert.ok(res.status < 500, `${route} ${JSON.stringify(path)} → ${res.status}`);
          if (res.status < 300)
            assertConfined(await storedPath(body.data), `${route} ${JSON.stringify(path)}`);
        }
      });

      it(`${route}: every corpus file name stays a single safe segment inside ${CORPUS_BASE}`, async () => {
        for (const filename of TRAVERSAL_FILENAMES) {
          const res = await send(t, team.key, { filename });
          const body = (await res.json()) as { data?: { storage_path?: string; id?: string } };
          assert.ok(res.status < 500, `${route} ${JSON.stringify(filename)} → ${res.status}`);
          if (res.status < 300) {
            assertConfined(await storedPath(body.data), `${route} ${JSON.stringify(filename)}`);
          }
        }
      });
    }

    it('refuses the reported escapes: decoded twice, they named folders the key does not own', async () => {
      for (const path of ['/team-b/%252e%252e/team', '/%2574eam']) {
        for (const [route, send] of Object.entries(ROUTES)) {
          const res = await send(t, team.key, { path });
          assert.equal(res.status, 400, `${route} ${path}`);
        }
      }
    });

    it('left every record and every byte inside the base path', async () => {
      const rows = await t.database.db.kysely
        .selectFrom('files')
        .select(['storage_path'])
        .where('created_by', '=', `apikey:${team.id}`)
        .execute();
      assert.ok(rows.length > 0);
      for (const row of rows) assertConfined(row.storage_path, 'record');
      const entries = await fs.readdir(storageRoot, { recursive: true, withFileTypes: true });
      for (const entry of entries.filter((e) => e.isFile())) {
        const relative = '/' + nodePath.relative(storageRoot, nodePath.join(entry.parentPath, entry.name));
        if (relative.startsWith('/.cubby-multipart/')) continue;
        assert.ok(relative.startsWith(`${CORPUS_BASE}/`), `stored outside the base: ${relative}`);
      }
    });
  });
}
