/** The editor's character and word counts (CJK characters count as words). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countText } from './text-stats.ts';

test('counts English words and characters', () => {
  assert.deepEqual(countText('Hello, world! It works.'), { characters: 23, words: 4 });
  assert.deepEqual(countText(''), { characters: 0, words: 0 });
  assert.deepEqual(countText('  -- \n * '), { characters: 9, words: 0 });
});

test('each CJK character is a word; mixed text adds up', () => {
  assert.deepEqual(countText('你好世界'), { characters: 4, words: 4 });
  assert.deepEqual(countText('我用 Cubby 分享，很方便。'), { characters: 16, words: 8 });
  assert.deepEqual(countText('こんにちは'), { characters: 5, words: 5 });
});

test('an emoji is one character', () => {
  assert.deepEqual(countText('ok 👍'), { characters: 4, words: 1 });
});

test('5 MiB without a space (minified JSON) counts as one word, in one pass', () => {
  // Non-ASCII letters and an emoji: one regular expression over the whole run overflowed its stack.
  const unit = '{"név":"é€😀",';
  const text = unit.repeat(Math.ceil((5 * 1024 * 1024) / unit.length));
  assert.deepEqual(countText(text), { characters: (text.length / unit.length) * 13, words: 1 });
  assert.deepEqual(countText(`${text} ${text}`), {
    characters: (text.length / unit.length) * 26 + 1,
    words: 2,
  });
});

test('runs of marks are no words; CJK characters end a run', () => {
  assert.deepEqual(countText('{"":[]},'.repeat(1000)), { characters: 8000, words: 0 });
  assert.deepEqual(countText('ab中cd'), { characters: 5, words: 3 });
  assert.deepEqual(countText('--中--'), { characters: 5, words: 1 });
});
