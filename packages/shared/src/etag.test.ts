/** Entity tags: written bare, compared weakly (HTTP) or as digests (storage parts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bareEtag, etagListHas, sameDigest, sameEtag } from './etag.ts';

describe('entity tags', () => {
  it('writes a tag bare: no weak marker, no quotes, no spaces around', () => {
    assert.equal(bareEtag(' W/"abc-1" '), 'abc-1');
    assert.equal(bareEtag('"d41d8cd98f00b204e9800998ecf8427e"'), 'd41d8cd98f00b204e9800998ecf8427e');
    assert.equal(bareEtag('plain'), 'plain');
  });
  it('compares weakly (RFC 9110): the weak marker and quotes do not matter, case does', () => {
    assert.ok(sameEtag('W/"abc"', '"abc"'));
    assert.ok(sameEtag('abc', '"abc"'));
    assert.ok(!sameEtag('"abc"', '"ABC"'));
    assert.ok(!sameEtag('"abc"', '"abcd"'));
  });
  it('compares storage digests in any case, and never equal to a missing one', () => {
    assert.ok(sameDigest('"ABCDEF"', 'abcdef'));
    assert.ok(!sameDigest(undefined, 'abcdef'));
    assert.ok(!sameDigest('abc', undefined));
    assert.ok(!sameDigest('"abc"', '"abd"'));
  });
  it("finds a tag in a header's list", () => {
    assert.ok(etagListHas('"a", W/"b" ,"c"', '"b"'));
    assert.ok(etagListHas('"a"', 'W/"a"'));
    assert.ok(!etagListHas('"a", "b"', '"c"'));
    assert.ok(!etagListHas(' , ', '""'));
  });
});
