import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deviceName } from './device.ts';

test('names the browser and the system of common user agents', () => {
  const chrome =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  assert.equal(deviceName(chrome), 'Chrome · Linux');
  const edge =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
  assert.equal(deviceName(edge), 'Edge · Windows');
  const safari =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  assert.equal(deviceName(safari), 'Safari · iOS');
  assert.equal(
    deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:133.0) Gecko/20100101 Firefox/133.0'),
    'Firefox · macOS',
  );
});

test('scripts and the unknown', () => {
  assert.equal(deviceName('curl/8.5.0'), 'curl');
  assert.equal(deviceName('something else'), null);
  assert.equal(deviceName(null), null);
});
