/**
 * How upload failures are told (docs/product.md §8): catalogue texts, part failures, server
 * messages, storage full.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../api/index.ts';
import { TransferError, isRetryableTransfer, toUploadFailure } from './transfer-error.ts';

test('cancellation, time-outs and network errors use the catalogue', () => {
  assert.deepEqual(toUploadFailure(new TransferError('cancelled')), {
    key: 'errors.cancelled',
    cancelled: true,
  });
  assert.deepEqual(toUploadFailure(new DOMException('', 'AbortError')), {
    key: 'errors.cancelled',
    cancelled: true,
  });
  assert.deepEqual(toUploadFailure(new ApiError('x', { status: 0, code: 'CANCELLED' })), {
    key: 'errors.cancelled',
    cancelled: true,
  });
  assert.equal(toUploadFailure(new TransferError('timeout')).key, 'errors.timeout');
  assert.equal(toUploadFailure(new TransferError('network')).key, 'errors.network');
});

test('a part failure names the part and the status', () => {
  assert.deepEqual(toUploadFailure(new TransferError('http', 503, 4)), {
    key: 'upload.errors.partHttp',
    params: { part: 4, status: 503 },
    cancelled: false,
  });
  assert.equal(toUploadFailure(new TransferError('network').forPart(2)).key, 'upload.errors.partNetwork');
  assert.equal(toUploadFailure(new TransferError('http', 403)).key, 'upload.errors.storageHttp');
});

test('a download cut at its limit names the limit', () => {
  assert.deepEqual(toUploadFailure(new TransferError('too-large', 0, undefined, undefined, 1024 ** 2)), {
    key: 'upload.errors.downloadTooLarge',
    params: { limit: '1 MB' },
    cancelled: false,
  });
});

test('API errors keep the server message; 507 STORAGE_FULL adds the sizes', () => {
  const full = new ApiError('存储空间不足', {
    status: 507,
    code: 'STORAGE_FULL',
    data: { file_size: 3000, free_bytes: 1000, total_bytes: 1000 },
  });
  assert.deepEqual(toUploadFailure(full), {
    message: '存储空间不足',
    storage: { fileSize: 3000, freeBytes: 1000, totalBytes: 1000 },
    cancelled: false,
  });
  assert.deepEqual(toUploadFailure(new ApiError('taken', { status: 409, code: 'CONFLICT' })), {
    message: 'taken',
    cancelled: false,
  });
  assert.equal(toUploadFailure(new Error('?')).key, 'errors.unexpected');
});

test('transport trouble, 5xx, 408, 429 and an expired URL are retried; other refusals are not', () => {
  for (const error of [
    new TransferError('network'),
    new TransferError('timeout'),
    new TransferError('http', 500),
    new TransferError('http', 403),
    new TransferError('http', 429),
  ]) {
    assert.equal(isRetryableTransfer(error), true, error.message);
  }
  for (const error of [
    new TransferError('http', 400),
    new TransferError('cancelled'),
    new TransferError('no-etag'),
    new Error('x'),
  ]) {
    assert.equal(isRetryableTransfer(error), false, error.message);
  }
});
