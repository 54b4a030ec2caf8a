/** Reading a URL through the server's proxy when the browser may not: the request asks for the UI language. */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { changeLanguage, i18nReady } from '../../../lib/i18n/index.ts';
import { openUrlSource } from './url-source.ts';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

test('the proxy request asks for the UI language with X-Cubby-Lang, not Accept-Language', async () => {
  await i18nReady;
  const proxied: Headers[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    // The browser refuses the cross-origin read: a TypeError, as fetch gives for a CORS failure.
    if (!String(input).includes('/url/proxy')) throw new TypeError('Failed to fetch');
    proxied.push(new Headers(init.headers));
    return new Response(JSON.stringify({ code: 502, message: '无法访问此URL', success: false, error: 'X' }), {
      status: 502,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  const open = () => openUrlSource('https://example.org/a.bin', new AbortController().signal);
  try {
    await assert.rejects(open(), { message: '无法访问此URL' });
    await changeLanguage('en-US');
    await assert.rejects(open());
  } finally {
    await changeLanguage('zh-CN');
  }
  assert.deepEqual(
    proxied.map((headers) => [headers.get('x-cubby-lang'), headers.get('accept-language')]),
    [
      ['zh-CN', null],
      ['en-US', null],
    ],
  );
});
