/**
 * The API client's answer handling and error catalogue (docs/product.md §8), with `fetch` replaced by a stub.
 * Outside a browser the UI language is the fallback, Chinese, so messages are the zh-CN texts.
 */
import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, test } from 'node:test';
import zhCN from '../../locales/zh-CN.json' with { type: 'json' };
import { changeLanguage, i18nReady } from '../i18n/index.ts';
import { ApiError } from './api-error.ts';
import { api, registerAuthBridge, sendRequest, type Credential } from './client.ts';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
const realFetch = globalThis.fetch;
let rejected: Credential[] = [];
let current: Credential | null = null;
let requests: { url: string; init: RequestInit }[] = [];

function stub(handler: Handler) {
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    requests.push({ url: String(input), init });
    return handler(String(input), init);
  }) as typeof fetch;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

// The UI language's texts load asynchronously (a chunk of their own in the app).
before(() => i18nReady);

beforeEach(() => {
  rejected = [];
  requests = [];
  current = null;
  registerAuthBridge({
    getCredential: () => current,
    onCredentialRejected: (credential) => rejected.push(credential),
  });
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

test('sends the credential and the UI language, and returns data of a success envelope', async () => {
  current = { type: 'apikey', key: 'k-123' };
  stub(() => json(200, { code: 200, message: 'ok', data: { a: 1 }, success: true }));
  assert.deepEqual(await api.get('/test/api-key'), { a: 1 });
  const headers = new Headers(requests[0]!.init.headers);
  assert.equal(requests[0]!.url, '/api/test/api-key');
  assert.equal(headers.get('authorization'), 'ApiKey k-123');
  assert.equal(headers.get('x-cubby-lang'), 'zh-CN');

  current = { type: 'admin', token: 't-1' };
  await api.post('/x', { b: 2 });
  const post = requests[1]!;
  assert.equal(new Headers(post.init.headers).get('authorization'), 'Bearer t-1');
  assert.equal(new Headers(post.init.headers).get('content-type'), 'application/json');
  assert.equal(post.init.body, '{"b":2}');
});

test('asks for server messages in the UI language with X-Cubby-Lang, never with Accept-Language', async () => {
  stub(() => json(200, { code: 200, message: 'ok', data: null, success: true }));
  try {
    await changeLanguage('en-US');
    await api.get('/x');
    await changeLanguage('zh-CN');
    await api.post('/y', {});
  } finally {
    await changeLanguage('zh-CN');
  }
  const sent = requests.map((request) => new Headers(request.init.headers));
  assert.deepEqual(
    sent.map((headers) => headers.get('x-cubby-lang')),
    ['en-US', 'zh-CN'],
  );
  // The server answers Chinese to Accept-Language whatever it says (CloudPaste clients match on it).
  assert.deepEqual(
    sent.map((headers) => headers.get('accept-language')),
    [null, null],
  );
});

test('a body code other than 200/201/202 is an error even on HTTP 200', async () => {
  stub(() =>
    json(200, { code: 400, message: '坏请求', data: null, success: false, error: 'VALIDATION_FAILED' }),
  );
  const error = await failure(api.get('/x'));
  assert.equal(error.message, '坏请求');
  assert.equal(error.code, 'VALIDATION_FAILED');
  stub(() => json(200, { code: 500, data: null }));
  assert.equal((await failure(api.get('/x'))).message, zhCN.errors.requestFailed);
  stub(() => json(200, { code: 202, message: 'accepted', data: 1 }));
  assert.equal(await api.get('/x'), 1);
});

test('401 with an admin token ends the session with "admin session expired"', async () => {
  current = { type: 'admin', token: 't' };
  stub(() =>
    json(401, { code: 401, message: '需要认证', data: null, success: false, error: 'UNAUTHENTICATED' }),
  );
  const error = await failure(api.get('/admin/api-keys'));
  assert.equal(error.status, 401);
  assert.equal(error.message, zhCN.errors.adminSessionExpired);
  assert.deepEqual(rejected, [current]);
});

test('401 with an API key ends the session, except an access message on file or upload endpoints', async () => {
  current = { type: 'apikey', key: 'k' };
  stub(() =>
    json(401, { code: 401, message: '需要认证访问', data: null, success: false, error: 'UNAUTHENTICATED' }),
  );
  assert.equal((await failure(api.get('/user/pastes'))).message, zhCN.errors.apiKeyInvalid);
  assert.equal(rejected.length, 1);

  stub(() =>
    json(401, {
      code: 401,
      message: '未授权访问此文件',
      data: null,
      success: false,
      error: 'UNAUTHENTICATED',
    }),
  );
  assert.equal((await failure(api.get('/user/files/42'))).message, '未授权访问此文件');
  assert.equal((await failure(api.post('/upload', {}))).message, '未授权访问此文件');
  assert.equal(rejected.length, 1);
});

test('401 on password checks, change-password and login reports without logging out', async () => {
  current = { type: 'admin', token: 't' };
  stub(() => json(401, { code: 401, message: '', data: null, success: false, error: 'UNAUTHENTICATED' }));
  assert.equal((await failure(api.post('/paste/abc', { password: 'x' }))).message, zhCN.errors.wrongPassword);
  assert.equal(
    (await failure(api.post('/public/files/abc/verify', { password: 'x' }))).message,
    zhCN.errors.wrongPassword,
  );
  assert.equal(
    (await failure(api.post('/admin/change-password', {}))).message,
    zhCN.errors.verificationFailed,
  );
  assert.equal((await failure(api.get('/office-preview/abc?token=x'))).message, zhCN.errors.wrongPassword);
  stub(() =>
    json(401, { code: 401, message: '当前密码错误', data: null, success: false, error: 'UNAUTHENTICATED' }),
  );
  assert.equal((await failure(api.post('/admin/change-password', {}))).message, '当前密码错误');
  // A passkey the server does not know is a failed sign-in, not an ended session.
  assert.equal((await failure(api.post('/public/passkeys/login', {}))).message, '当前密码错误');
  assert.deepEqual(rejected, []);
});

test('401 TWO_FACTOR_REQUIRED (a wrong code) reports the server message and keeps the session', async () => {
  current = { type: 'admin', token: 't' };
  stub(() =>
    json(401, {
      code: 401,
      message: '验证码或恢复码不正确',
      data: null,
      success: false,
      error: 'TWO_FACTOR_REQUIRED',
    }),
  );
  const error = await failure(api.post('/auth/two-factor/totp/disable', { otp: '123456' }));
  assert.equal(error.message, '验证码或恢复码不正确');
  assert.equal(error.code, 'TWO_FACTOR_REQUIRED');
  assert.deepEqual(rejected, []);
});

test('401 without credentials asks to log in; handleUnauthorized=false never ends a session', async () => {
  stub(() => json(401, { code: 401, message: 'x', data: null, success: false, error: 'UNAUTHENTICATED' }));
  assert.equal((await failure(api.get('/user/pastes'))).message, zhCN.errors.unauthorized);
  current = { type: 'admin', token: 't' };
  await failure(api.get('/test/admin-token', { handleUnauthorized: false }));
  assert.deepEqual(rejected, []);
});

test('409 and other HTTP errors use the server message, else the catalogue', async () => {
  stub(() => json(409, { code: 409, message: '', data: null, success: false, error: 'CONFLICT' }));
  const conflict = await failure(api.post('/paste', {}));
  assert.equal(conflict.message, zhCN.errors.conflict);
  assert.equal(conflict.code, 'CONFLICT');
  stub(() => json(409, { code: 409, message: '名称已存在', data: null, success: false, error: 'CONFLICT' }));
  assert.equal((await failure(api.post('/admin/api-keys', {}))).message, '名称已存在');
  stub(() => new Response('oops', { status: 502 }));
  const http = await failure(api.get('/x'));
  assert.equal(http.message, zhCN.errors.http.replace('{{status}}', '502'));
  assert.equal(http.status, 502);
  stub(() =>
    json(400, {
      code: 400,
      message: '无效',
      data: null,
      success: false,
      error: 'VALIDATION_FAILED',
      details: { name: '必填' },
    }),
  );
  assert.deepEqual((await failure(api.post('/x', {}))).details, { name: '必填' });
});

test('network failure, timeout and cancellation each have their message', async () => {
  stub(() => Promise.reject(new TypeError('Failed to fetch')));
  const network = await failure(api.get('/x'));
  assert.equal(network.code, 'NETWORK');
  assert.equal(network.message, zhCN.errors.network);
  assert.equal(network.isTransport, true);

  const hang: Handler = (_url, init) =>
    new Promise((_resolve, reject) =>
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
  stub(hang);
  const timeout = await failure(sendRequest('/x', { timeoutMs: 20 }));
  assert.equal(timeout.code, 'TIMEOUT');
  assert.equal(timeout.message, zhCN.errors.timeout);

  const controller = new AbortController();
  const pending = sendRequest('/x', { signal: controller.signal });
  controller.abort();
  const cancelled = await failure(pending);
  assert.equal(cancelled.code, 'CANCELLED');
  assert.equal(cancelled.message, zhCN.errors.cancelled);
});

test('429 carries the Retry-After seconds and the server message', async () => {
  stub(
    () =>
      new Response(
        JSON.stringify({
          code: 429,
          message: '请 42 秒后再试',
          data: null,
          success: false,
          error: 'RATE_LIMITED',
        }),
        { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '42' } },
      ),
  );
  const error = await failure(api.post('/paste/abc', { password: 'x' }));
  assert.equal(error.status, 429);
  assert.equal(error.code, 'RATE_LIMITED');
  assert.equal(error.retryAfterSeconds, 42);
  assert.equal(error.message, '请 42 秒后再试');
  assert.deepEqual(rejected, []);
});

test('an error envelope with data (507 STORAGE_FULL) keeps it on the error', async () => {
  stub(() =>
    json(507, {
      code: 507,
      message: '存储空间不足',
      data: { file_size: 300, free_bytes: 100, total_bytes: 1000 },
      success: false,
      error: 'STORAGE_FULL',
    }),
  );
  const error = await failure(api.post('/s3/presign', {}));
  assert.equal(error.status, 507);
  assert.equal(error.code, 'STORAGE_FULL');
  assert.deepEqual(error.data, { file_size: 300, free_bytes: 100, total_bytes: 1000 });
  stub(() => json(404, { code: 404, message: 'x', data: null, success: false, error: 'NOT_FOUND' }));
  assert.equal((await failure(api.get('/x'))).data, undefined);
});
