/** URL-allowlist entries: what the settings form and the server accept, normalised alike. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllowlistEntry, parseUrlAllowlist } from './url-allowlist.ts';

describe('url allowlist', () => {
  it('reads hosts, host:port, bare and bracketed IPv6, and CIDR ranges, normalised as URL hosts', () => {
    assert.deepEqual(parseAllowlistEntry('NAS.lan.'), { kind: 'host', host: 'nas.lan', port: null });
    assert.deepEqual(parseAllowlistEntry('nas.lan:8080'), { kind: 'host', host: 'nas.lan', port: 8080 });
    assert.deepEqual(parseAllowlistEntry('127.1:80'), { kind: 'host', host: '127.0.0.1', port: 80 });
    assert.deepEqual(parseAllowlistEntry('::1'), { kind: 'host', host: '::1', port: null });
    assert.deepEqual(parseAllowlistEntry('[::1]:8080'), { kind: 'host', host: '::1', port: 8080 });
    assert.deepEqual(parseAllowlistEntry('10.0.0.0/8'), {
      kind: 'cidr',
      address: '10.0.0.0',
      prefix: 8,
      family: 4,
    });
    assert.deepEqual(parseAllowlistEntry('fd00::/8'), {
      kind: 'cidr',
      address: 'fd00::',
      prefix: 8,
      family: 6,
    });
  });

  it('refuses URLs, paths, bad ports, bad ranges and wildcards', () => {
    for (const bad of [
      'http://nas.lan',
      'nas.lan/x',
      'user@nas.lan',
      'nas.lan:0',
      'nas.lan:65536',
      '10.0.0.0/33',
      'fd00::/129',
      '0177.0.0.1/8',
      '*.lan',
      'a b',
      'a..b',
    ]) {
      assert.equal(parseAllowlistEntry(bad), null, bad);
    }
  });

  it('splits on commas and newlines, keeping the refused entries apart', () => {
    const { entries, invalid } = parseUrlAllowlist(' a.lan, b.lan:1\r\n\n10.0.0.0/8,http://c/ ');
    assert.equal(entries.length, 3);
    assert.deepEqual(invalid, ['http://c/']);
  });
});
