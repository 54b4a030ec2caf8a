/** Backend addresses accepted by the environment switcher. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getApiBaseUrl, normalizeBackendUrl } from './base-url.ts';

test('accepts http and https addresses, without a trailing slash', () => {
  assert.equal(normalizeBackendUrl('http://127.0.0.1:8787/'), 'http://127.0.0.1:8787');
  assert.equal(normalizeBackendUrl(' https://cubby.example.com '), 'https://cubby.example.com');
  assert.equal(normalizeBackendUrl('https://example.com/cubby/'), 'https://example.com/cubby');
});

test('refuses other schemes, credentials, queries, fragments and non-URLs', () => {
  for (const bad of [
    '',
    'cubby.example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'http://u:p@example.com',
    'http://example.com/?a=1',
    'http://example.com/#x',
  ]) {
    assert.equal(normalizeBackendUrl(bad), null, bad);
  }
});

test('without an override the API is on the same origin', () => {
  assert.equal(getApiBaseUrl(), '/api');
});
