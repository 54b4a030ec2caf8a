/** Both locales must have the same keys and placeholders (and the check must be able to fail). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zhCN from './zh-CN.json' with { type: 'json' };
import enUS from './en-US.json' with { type: 'json' };
import { compareLocales, flattenLocale } from './locale-check.ts';

test('zh-CN and en-US have the same keys and placeholders', () => {
  assert.deepEqual(compareLocales(flattenLocale(zhCN), flattenLocale(enUS), ['zh-CN', 'en-US']), []);
});

test('a key missing on one side is reported', () => {
  const problems = compareLocales(
    flattenLocale({ nav: { home: '首页', upload: '上传' } }),
    flattenLocale({ nav: { home: 'Home' } }),
    ['zh-CN', 'en-US'],
  );
  assert.deepEqual(problems, ['nav.upload is missing in en-US']);
});

test('a placeholder that differs, and an empty text, are reported', () => {
  const problems = compareLocales(
    flattenLocale({ a: '共 {{count}} 项', b: '' }),
    flattenLocale({ a: '{{total}} items', b: 'B' }),
    ['zh-CN', 'en-US'],
  );
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /^a has placeholders \{count\} in zh-CN but \{total\} in en-US$/);
  assert.match(problems[1]!, /^b is empty in zh-CN$/);
});
