/** Path confinement (spec §5) against a traversal corpus. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPathWithin, normalizePath } from './paths.ts';

describe('normalizePath', () => {
  const cases: Array<[string, string | null]> = [
    ['/', '/'],
    ['', '/'],
    ['/a/b/', '/a/b'],
    ['a/b', '/a/b'],
    ['//a///b//', '/a/b'],
    ['/a/./b/.', '/a/b'],
    ['/a/b/../c', '/a/c'],
    ['/a/%2e%2e/b', '/b'],
    ['/a%2fb', '/a/b'],
    ['\\a\\b', '/a/b'],
    ['/%E4%B8%AD%E6%96%87/文件', '/中文/文件'],
    ['/100%.txt', '/100%.txt'],
    ['/a%252e%252e', '/a%2e%2e'],
    ['/..', null],
    ['/a/../..', null],
    ['/%2e%2e/x', null],
    ['..\\x', null],
    ['/a\u0000b', null],
    ['/a%00b', null],
    ['/a%0ab', null],
    ['/%ff', null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizePath(input), expected);
    });
  }
});

describe('isPathWithin', () => {
  it('lets a base of / reach everything that normalises', () => {
    for (const p of ['/', '/a', '/a/b/c', '/中文']) assert.equal(isPathWithin('/', p), true, p);
    assert.equal(isPathWithin('/', '/../x'), false);
  });

  it('allows the base itself and what lies inside it, trailing slashes ignored', () => {
    for (const p of ['/team', '/team/', '/team/docs', '/team/docs/a.txt', '/team//docs', '/team/./x']) {
      assert.equal(isPathWithin('/team', p), true, p);
      assert.equal(isPathWithin('/team/', p), true, p);
    }
  });

  it('compares whole segments: /team does not contain /team-b or /teammate', () => {
    for (const p of ['/team-b', '/team-b/x', '/teammate', '/tea', '/']) {
      assert.equal(isPathWithin('/team', p), false, p);
    }
  });

  const escapes = [
    '/team/..',
    '/team/../other',
    '/team/../team-b/x',
    '/team/./../other',
    '/team/%2e%2e/other',
    '/team/%2E%2E/other',
    '/team%2f..%2fother',
    '/team/%2e./other',
    '/team/.%2e/other',
    '/team\\..\\other',
    '/team/..\\other',
    '/team/sub/../../other',
    '/team\u0000/../other',
    '/team%00/x',
    '//other',
    '/other/../../team/x/../../other',
  ];
  for (const p of escapes) {
    it(`keeps ${JSON.stringify(p)} out of /team`, () => {
      assert.equal(isPathWithin('/team', p), false);
    });
  }

  it('treats a double-encoded dot-dot as a literal name inside the base', () => {
    assert.equal(isPathWithin('/team', '/team/%252e%252e/other'), true);
    assert.equal(normalizePath('/team/%252e%252e/other'), '/team/%2e%2e/other');
  });

  it('never lets an unnormalisable base allow anything', () => {
    assert.equal(isPathWithin('/../', '/x'), false);
    assert.equal(isPathWithin('/a\u0000', '/a'), false);
  });
});
