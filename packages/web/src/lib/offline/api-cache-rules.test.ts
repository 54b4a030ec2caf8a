/** Which API answers the service worker may keep (docs/product.md §4 "Offline layer"). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  OFFLINE_CACHE_MAX_AGE_MS,
  carriesSecret,
  isCacheableApiPath,
  isCacheableContentType,
  isFresh,
} from './api-cache-rules.ts';

test('only the signed-in user’s list reads are kept in Cache Storage', () => {
  for (const path of ['/api/admin/pastes', '/api/user/pastes', '/api/admin/files', '/api/user/files'])
    assert.equal(isCacheableApiPath(path), true, path);
  for (const path of [
    // Shares and folder listings are kept in the offline database (share-records.ts).
    '/api/paste/abc',
    '/api/public/files/abc',
    '/api/admin/fs/list',
    '/api/user/fs/list',
    '/api/health',
    '/api/version',
    '/api/system/max-upload-size',
    '/api/__test__/clock',
    '/api/test/x',
    '/api/raw/abc',
    '/api/file-download/abc',
    '/api/file-view/abc',
    '/api/office-preview/abc',
    '/api/admin/fs/download',
    '/api/user/fs/preview',
    '/api/admin/api-keys',
    '/api/admin/system-settings',
    '/api/public/files/abc/verify',
    '/api/paste/abc/extra',
  ])
    assert.equal(isCacheableApiPath(path), false, path);
});

test('JSON only: never media, PDF or octet-stream', () => {
  assert.equal(isCacheableContentType('application/json; charset=utf-8'), true);
  assert.equal(isCacheableContentType('application/problem+json'), true);
  for (const type of [
    'application/pdf',
    'application/octet-stream',
    'image/png',
    'video/mp4',
    'text/plain',
    null,
  ])
    assert.equal(isCacheableContentType(type), false, String(type));
});

test('answers carrying a token, key, password, signed URL or protected text are refused', () => {
  assert.equal(
    carriesSecret({ data: { slug: 'a', content: 'hi', has_password: false, password: null } }),
    false,
  );
  assert.equal(carriesSecret({ data: { token: 'abc' } }), true);
  assert.equal(carriesSecret({ data: [{ key: 'k-123' }] }), true);
  assert.equal(carriesSecret({ data: { apiKey: 'x' } }), true);
  assert.equal(carriesSecret({ data: { password: 'hunter2' } }), true);
  assert.equal(carriesSecret({ data: { previewUrl: 'https://s3/x?X-Amz-Signature=abc' } }), true);
  assert.equal(carriesSecret({ data: { url: '/api/file-download/a?token=abc' } }), true);
  assert.equal(carriesSecret({ data: [{ has_password: true, content_preview: 'secret text' }] }), true);
  assert.equal(carriesSecret({ data: [{ has_password: true, content_preview: '' }] }), false);
});

test('stored answers are replayed for 7 days', () => {
  const now = Date.parse('2026-03-01T00:00:00Z');
  assert.equal(isFresh(now - 1000, now), true);
  assert.equal(isFresh(now - OFFLINE_CACHE_MAX_AGE_MS + 1, now), true);
  assert.equal(isFresh(now - OFFLINE_CACHE_MAX_AGE_MS, now), false);
  assert.equal(isFresh(now + 60_000, now), false);
  assert.equal(isFresh(Number.NaN, now), false);
});
