/**
 * How a PUT ends when it is aborted: by our signal it is a cancellation (the upload is forgotten);
 * by the browser, as when the page reloads mid-upload, it is an interruption, so the kept record
 * survives and the upload continues after the reload (docs/guide.md, uploads).
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { isCancellation, TransferError } from './transfer-error.ts';
import { putBlob } from './xhr-put.ts';

/** The least of XMLHttpRequest putBlob uses; `last` is the request most recently sent. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  timeout = 0;
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(): void {}
  setRequestHeader(): void {}
  getResponseHeader(): string | null {
    return null;
  }
  send(): void {
    FakeXhr.last = this;
  }
  abort(): void {
    this.onabort?.();
  }
}

const real = globalThis.XMLHttpRequest;
globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
afterEach(() => {
  FakeXhr.last = null;
});
process.on('exit', () => {
  globalThis.XMLHttpRequest = real;
});

test('our signal aborting the request is a cancellation', async () => {
  const control = new AbortController();
  const put = putBlob('/x', new Blob(['a']), { signal: control.signal });
  control.abort();
  const error = await put.then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(isCancellation(error));
});

test('the browser aborting the request (the page went away) is an interruption, not a cancellation', async () => {
  const control = new AbortController();
  const put = putBlob('/x', new Blob(['a']), { signal: control.signal });
  FakeXhr.last!.abort();
  const error = await put.then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof TransferError);
  assert.equal(error.kind, 'network');
  assert.equal(isCancellation(error), false);
});
