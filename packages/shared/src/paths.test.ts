/** Path confinement (docs/product.md §5) against a traversal corpus. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPathWithin, isWellFormed, normalizeDecodedPath, normalizeFsPath, normalizePath } from './paths.ts';
import { CORPUS_BASE, TRAVERSAL_PATHS } from './traversal-corpus.ts';

describe('normalizePath', () => {
  const cases: Array<[string, string | null]> = [
    ['/', '/'],
    ['', '/'],
    ['/a/b/', '/a/b'],
    ['a/b', '/a/b'],
    ['//a///b//', '/a/b'],
    ['/a/./b/.', '/a/b'],
    ['/a/b/../c', '/a/c'],
    ['\\a\\b', '/a/b'],
    ['/%E4%B8%AD%E6%96%87/文件', '/中文/文件'],
    ['/a%20b/c', '/a b/c'],
    ['/100%.txt', '/100%.txt'],
    ['/50%off', '/50%off'],
    ['/a\uff0eb/x', '/a\uff0eb/x'],
    ['/😀/x', '/😀/x'],
    // escapes that hide separators or dots are refused, not decoded
    ['/a/%2e%2e/b', null],
    ['/a/%2E/b', null],
    ['/a%2fb', null],
    ['/a%5cb', null],
    // what would decode again is not a fixed point
    ['/a%252e%252e', null],
    ['/%2574eam', null],
    ['/a%2541', null],
    // overlong UTF-8, encoded surrogates, lone surrogates
    ['/%c0%ae%c0%ae', null],
    ['/%e0%80%ae', null],
    ['/%ed%a0%80', null],
    ['/a\ud800', null],
    ['/\udc00a', null],
    // compatibility folding to separators or dot segments
    ['/\uff0e\uff0e/x', null],
    ['/a\uff0fb', null],
    ['/a\uff3cb', null],
    ['/\u2025', null],
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

  it('refuses a double-encoded dot-dot rather than keep it as a name a later decode would climb with', () => {
    assert.equal(isPathWithin('/team', '/team/%252e%252e/other'), false);
    assert.equal(normalizePath('/team/%252e%252e/other'), null);
  });

  for (const p of TRAVERSAL_PATHS) {
    it(`corpus: ${JSON.stringify(p)} is refused or stays inside ${CORPUS_BASE}, and is a fixed point`, () => {
      const canonical = normalizePath(p.startsWith('/') ? p : `${CORPUS_BASE}/${p}`);
      if (canonical === null) return;
      // Decoding the checked value again never changes it, so the check holds for its every use.
      assert.equal(normalizePath(canonical), canonical);
      assert.equal(normalizeDecodedPath(canonical), canonical);
      if (isPathWithin(CORPUS_BASE, canonical)) {
        assert.ok(canonical === CORPUS_BASE || canonical.startsWith(`${CORPUS_BASE}/`), canonical);
      }
    });
  }

  it('never lets an unnormalisable base allow anything', () => {
    assert.equal(isPathWithin('/../', '/x'), false);
    assert.equal(isPathWithin('/a\u0000', '/a'), false);
  });
});

describe('normalizeDecodedPath', () => {
  it('keeps percent signs literal: storage names may really contain %41', () => {
    assert.equal(normalizeDecodedPath('/a%41/b%2e%2e'), '/a%41/b%2e%2e');
    assert.equal(normalizeDecodedPath('/a/../b'), '/b');
    assert.equal(normalizeDecodedPath('/..'), null);
    assert.equal(normalizeDecodedPath('/a\u0000'), null);
    assert.equal(normalizeDecodedPath('/a\ud800'), null);
  });
});

describe('normalizeFsPath', () => {
  it('takes names as they are: percent signs, spaces and punctuation are literal', () => {
    assert.equal(normalizeFsPath('/m/100%41 #?&+\'".txt'), '/m/100%41 #?&+\'".txt');
    assert.equal(normalizeFsPath('/m/中文/文件/'), '/m/中文/文件');
    assert.equal(normalizeFsPath('m//a\\b'), '/m/a/b');
    assert.equal(normalizeFsPath('/'), '/');
  });
  it('refuses dot segments, control characters, lone surrogates and full-width separators', () => {
    for (const bad of [
      '/m/..',
      '/m/../x',
      '/m/./x',
      '/m/a\u0000',
      '/m/a\n',
      '/m/\ud800',
      '/m/\uff0e\uff0e',
      '/m/a\uff0fb',
    ]) {
      assert.equal(normalizeFsPath(bad), null, JSON.stringify(bad));
    }
  });
});

describe('isWellFormed', () => {
  it('refuses lone surrogates and accepts pairs', () => {
    assert.equal(isWellFormed('a\ud800'), false);
    assert.equal(isWellFormed('\udfffa'), false);
    assert.equal(isWellFormed('😀 中文'), true);
  });
});
