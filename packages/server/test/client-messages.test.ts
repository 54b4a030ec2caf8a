/**
 * The messages the CloudPaste v0.6.5 client recognises by Chinese substrings (docs/API-MESSAGES.md):
 * for each situation it tells apart, an English browser (`Accept-Language: en-US,en`) still gets the
 * Chinese message with that substring, and only `X-Cubby-Lang: en` (our web app) gets English.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from './support/databases.ts';
import { apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

const ENGLISH_BROWSER = { 'Accept-Language': 'en-US,en;q=0.9' };
const CJK = /[\u4e00-\u9fff]/;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read freely
  body: any;
}

interface Situation {
  /** Where the CloudPaste client reads the message. */
  client: string;
  what: string;
  status: number;
  /** Every substring the client needs in this situation (or patterns it extracts parts with). */
  needs: Array<string | RegExp>;
  /** Brings the situation about afresh and sends the request with `headers`. */
  send(headers: Record<string, string>): Promise<Answer>;
}

for (const dialect of DIALECTS) {
  describe(`messages the CloudPaste client matches on (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let fileKey: string;
    let textKey: string;
    let teamKey: string;
    let defaultConfigId: string;
    let address = 0;
    /** A fresh client address, so the guessing limits of one request do not touch another. */
    const nextIp = () => ({
      'X-Forwarded-For': `198.51.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
    });

    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
      admin = bearer(await t.adminToken());
      fileKey = (await t.createKey({ name: 'files', file_permission: true })).key;
      textKey = (await t.createKey({ name: 'texts', text_permission: true })).key;
      teamKey = (await t.createKey({ name: 'team', file_permission: true, basic_path: '/team' })).key;
      defaultConfigId = (await t.services.storageConfigs.repo.findDefault())!.id;
    });
    after(() => t.close());

    let counter = 0;
    const unique = (prefix: string) => `${prefix}-${dialect}-${++counter}`;
    const send = (path: string, init: RequestInit & { json?: unknown }, headers: Record<string, string>) =>
      t.json(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
    const createPaste = async (body: Record<string, unknown>) => {
      const res = await t.json('/api/paste', {
        method: 'POST',
        headers: admin,
        json: { content: 'x', ...body },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.slug as string;
    };
    const unlockPaste = (slug: string, password: string, headers: Record<string, string>) =>
      send(`/api/paste/${slug}`, { method: 'POST', json: { password } }, headers);
    const uploadFile = async (fields: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', new Blob(['file body']), 'note.txt');
      const res = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data as { id: string; slug: string };
    };
    const verifyFile = (slug: string, password: string, headers: Record<string, string>) =>
      send(`/api/public/files/${slug}/verify`, { method: 'POST', json: { password } }, headers);
    const presign = (
      body: Record<string, unknown>,
      auth: Record<string, string>,
      headers: Record<string, string>,
    ) =>
      send(
        '/api/s3/presign',
        { method: 'POST', json: { filename: 'a.txt', size: 10, ...body }, headers: auth },
        headers,
      );
    /** Runs `fn` with the default storage holding at most `free` more bytes. */
    const withQuota = async <T>(free: number, fn: () => Promise<T>): Promise<T> => {
      const repo = t.services.storageConfigs.repo;
      const stamp = () => new Date(Date.now() + Math.random()).toISOString();
      await repo.update(defaultConfigId, { total_storage_bytes: 1, updated_at: stamp() });
      const used = await repo.usedBytes(defaultConfigId);
      await repo.update(defaultConfigId, { total_storage_bytes: used + free, updated_at: stamp() });
      try {
        return await fn();
      } finally {
        await repo.update(defaultConfigId, { total_storage_bytes: null, updated_at: stamp() });
      }
    };
    const localConfig = async (patch: Record<string, unknown> = {}) => {
      const res = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name: unique('disk'),
          provider_type: 'Local',
          root_path: `${t.config.dataDir}/${unique('disk')}`,
          ...patch,
        },
      });
      assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };

    const expireAlready = (table: 'pastes' | 'files', column: 'slug' | 'id', value: string) =>
      t.database.db.kysely
        .updateTable(table)
        .set({ expires_at: '2020-01-01T00:00:00.000Z' })
        .where(column, '=', value)
        .execute();

    /** The answer to a sixth wrong guess from one address, the five before it evaluated. */
    const sixthWrongGuess = async (
      guess: (headers: Record<string, string>) => Promise<Answer>,
      headers: Record<string, string>,
    ) => {
      const ip = nextIp();
      for (let i = 0; i < 5; i++) assert.equal((await guess(ip)).status, 401);
      return guess({ ...ip, ...headers });
    };

    const situations: Situation[] = [
      {
        client: 'PasteViewMain.vue',
        what: 'POST /api/paste/:slug with a wrong password',
        status: 401,
        needs: ['密码错误'],
        send: async (headers) =>
          unlockPaste(await createPaste({ password: 'right' }), 'wrong', { ...nextIp(), ...headers }),
      },
      {
        client: 'PasteViewMain.vue',
        what: 'POST /api/paste/:slug after too many wrong passwords (keeps the password form)',
        status: 429,
        needs: ['密码错误'],
        send: async (headers) => {
          const slug = await createPaste({ password: 'right' });
          return sixthWrongGuess((h) => unlockPaste(slug, 'wrong', h), headers);
        },
      },
      {
        client: 'PasteViewMain.vue',
        what: 'GET /api/paste/:slug of an expired paste',
        status: 410,
        needs: ['文本分享已过期'],
        send: async (headers) => {
          const slug = await createPaste({});
          await expireAlready('pastes', 'slug', slug);
          return send(`/api/paste/${slug}`, {}, headers);
        },
      },
      {
        client: 'PasteViewMain.vue',
        what: 'GET /api/paste/:slug of a used-up paste',
        status: 410,
        needs: ['最大查看次数'],
        send: async (headers) => {
          const slug = await createPaste({ maxViews: 1 });
          assert.equal((await t.json(`/api/paste/${slug}`)).status, 200);
          return send(`/api/paste/${slug}`, {}, headers);
        },
      },
      {
        client: 'PasteViewMain.vue',
        what: 'GET /api/paste/:slug of an unknown paste',
        status: 404,
        needs: ['不存在'],
        send: (headers) => send('/api/paste/no-such-paste', {}, headers),
      },
      {
        client: 'FileViewPassword.vue',
        what: 'POST /api/public/files/:slug/verify with a wrong password',
        status: 401,
        needs: ['密码不正确'],
        send: async (headers) =>
          verifyFile((await uploadFile({ password: 'right' })).slug, 'wrong', { ...nextIp(), ...headers }),
      },
      {
        client: 'FileViewPassword.vue',
        what: 'POST /api/public/files/:slug/verify after too many wrong passwords (keeps the password form)',
        status: 429,
        needs: ['密码错误'],
        send: async (headers) => {
          const { slug } = await uploadFile({ password: 'right' });
          return sixthWrongGuess((h) => verifyFile(slug, 'wrong', h), headers);
        },
      },
      {
        client: 'FileViewPassword.vue',
        what: 'POST /api/public/files/:slug/verify of an expired file',
        status: 410,
        needs: ['已过期'],
        send: async (headers) => {
          const { id, slug } = await uploadFile({ password: 'right' });
          await expireAlready('files', 'id', id);
          return verifyFile(slug, 'right', { ...nextIp(), ...headers });
        },
      },
      {
        client: 'FileViewPassword.vue',
        what: 'POST /api/public/files/:slug/verify of an unknown file',
        status: 404,
        needs: ['不存在'],
        send: (headers) => verifyFile('no-such-file', 'x', { ...nextIp(), ...headers }),
      },
      {
        client: 'MarkdownEditorView.vue',
        what: 'POST /api/paste with a taken link suffix',
        status: 409,
        needs: ['已被占用', '链接后缀已被占用'],
        send: async (headers) => {
          const slug = await createPaste({ slug: unique('taken') });
          return send(
            '/api/paste',
            { method: 'POST', headers: admin, json: { content: 'y', slug } },
            headers,
          );
        },
      },
      {
        client: 'MarkdownEditorView.vue',
        what: 'POST /api/paste with a key without the text permission',
        status: 403,
        needs: ['权限'],
        send: (headers) =>
          send('/api/paste', { method: 'POST', headers: apiKey(fileKey), json: { content: 'y' } }, headers),
      },
      {
        client: 'MarkdownEditorView.vue',
        what: 'POST /api/paste with content over 5 MiB',
        status: 413,
        needs: ['内容过大'],
        send: (headers) =>
          send(
            '/api/paste',
            { method: 'POST', headers: apiKey(textKey), json: { content: 'a'.repeat(5 * 1024 * 1024 + 1) } },
            headers,
          ),
      },
      {
        client: 'MarkdownEditorView.vue',
        what: 'POST /api/paste with a body over the request size limit',
        status: 413,
        needs: ['内容过大'],
        send: (headers) =>
          send(
            '/api/paste',
            { method: 'POST', headers: apiKey(textKey), json: { content: 'a'.repeat(11 * 1024 * 1024) } },
            headers,
          ),
      },
      {
        client: 'fileService.js, FileUploader.vue',
        what: 'POST /api/s3/presign with a taken link suffix',
        status: 409,
        needs: ['链接后缀已被占用'],
        send: async (headers) => presign({ slug: (await uploadFile()).slug }, admin, headers),
      },
      {
        client: 'FileUploader.vue',
        what: 'POST /api/upload with a taken link suffix',
        status: 409,
        needs: ['链接后缀已被占用'],
        send: async (headers) => {
          const { slug } = await uploadFile();
          const form = new FormData();
          form.append('slug', slug);
          form.append('file', new Blob(['again']), 'again.txt');
          return send('/api/upload', { method: 'POST', headers: admin, body: form }, headers);
        },
      },
      {
        client: 'fileService.js, FileUploader.vue, UploadView.vue',
        what: 'POST /api/s3/presign when the storage is full',
        status: 507,
        needs: [
          '存储空间不足',
          '超过剩余空间',
          /文件大小\((.*?)\)/,
          /剩余空间\((.*?)\)/,
          /总容量限制为(.*?)。/,
        ],
        send: (headers) => withQuota(100, () => presign({ size: 500 }, admin, headers)),
      },
      {
        client: 'FileUploader.vue',
        what: 'POST /api/s3/presign with a key on a storage config keys may not use',
        status: 403,
        needs: ['没有权限使用此存储配置'],
        send: async (headers) => presign({ s3_config_id: await localConfig() }, apiKey(fileKey), headers),
      },
      {
        client: 'FileUploader.vue',
        what: 'POST /api/s3/presign with a key outside its base path',
        status: 403,
        needs: ['没有权限'],
        send: (headers) => presign({ path: '/elsewhere' }, apiKey(teamKey), headers),
      },
      {
        client: 'StorageConfig.vue',
        what: 'DELETE /api/s3-configs/:id while files use it',
        status: 409,
        needs: ['有文件正在使用'],
        send: async (headers) => {
          const id = await localConfig({ is_public: true });
          const form = new FormData();
          form.append('s3_config_id', id);
          form.append('file', new Blob(['kept']), 'kept.txt');
          assert.equal(
            (await t.json('/api/upload', { method: 'POST', headers: admin, body: form })).status,
            200,
          );
          return send(`/api/s3-configs/${id}`, { method: 'DELETE', headers: admin }, headers);
        },
      },
    ];

    for (const situation of situations) {
      it(`${situation.what} → ${situation.needs.map(String).join(' ')} (${situation.client})`, async () => {
        for (const headers of [{}, ENGLISH_BROWSER, { ...ENGLISH_BROWSER, 'X-Cubby-Lang': 'zh-CN' }]) {
          const { status, body } = await situation.send(headers);
          assert.equal(status, situation.status, JSON.stringify(body));
          for (const needed of situation.needs) {
            if (typeof needed === 'string')
              assert.ok(body.message.includes(needed), `${needed} in ${body.message}`);
            else assert.match(body.message, needed);
          }
        }
        const english = await situation.send({ 'X-Cubby-Lang': 'en' });
        assert.equal(english.status, situation.status);
        assert.doesNotMatch(english.body.message, CJK, 'X-Cubby-Lang: en answers in English');
      });
    }

    it('takes any X-Cubby-Lang starting with en, in any case, for English; anything else is Chinese', async () => {
      const message = async (lang: string) =>
        (await t.json('/api/paste/no-such-paste', { headers: { 'X-Cubby-Lang': lang } })).body
          .message as string;
      for (const lang of ['en', 'EN', 'en-US', 'En-gb', ' en '])
        assert.doesNotMatch(await message(lang), CJK, lang);
      for (const lang of ['zh', 'zh-CN', 'fr', 'de-en', '']) assert.match(await message(lang), CJK, lang);
    });
  });
}
