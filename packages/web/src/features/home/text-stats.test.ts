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
