/**
 * Online or not (docs/product.md §4 "Online state"): the browser's word, corrected by the server's
 * answers — a replayed copy means it is out of reach, a fresh answer that it is back.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import {
  isOffline,
  noteOfflineCopy,
  noteServerAnswer,
  serverReachable,
  useNetworkStatus,
} from './network-status.ts';

let browserOnline = true;
const realFetch = globalThis.fetch;
Object.defineProperty(globalThis, 'navigator', {
  configurable: true,
  value: {
    get onLine() {
      return browserOnline;
    },
  },
});

beforeEach(() => {
  browserOnline = true;
  useNetworkStatus.setState({ online: true, offlineCopyAt: null });
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

test('a replayed copy marks the app offline although the browser says online, with the oldest copy time', () => {
  noteOfflineCopy(2_000);
  noteOfflineCopy(1_000);
  noteOfflineCopy(3_000);
  assert.equal(isOffline(), true);
  assert.deepEqual(useNetworkStatus.getState(), { online: false, offlineCopyAt: 1_000 });
});

test('a copy without a readable time changes nothing', () => {
  noteOfflineCopy(Number.NaN);
  assert.deepEqual(useNetworkStatus.getState(), { online: true, offlineCopyAt: null });
});

test('a fresh answer brings the app back online, but not while the browser is offline', () => {
  noteOfflineCopy(1_000);
  browserOnline = false;
  noteServerAnswer();
  assert.equal(isOffline(), true);
  browserOnline = true;
  noteServerAnswer();
  assert.deepEqual(useNetworkStatus.getState(), { online: true, offlineCopyAt: null });
});

test('serverReachable: a network failure marks the app offline; an answer of any status is reachable', async () => {
  globalThis.fetch = () => Promise.resolve(new Response('{}', { status: 503 }));
  assert.equal(await serverReachable(), true);
  assert.equal(isOffline(), false);
  globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
  assert.equal(await serverReachable(), false);
  assert.equal(isOffline(), true);
});
