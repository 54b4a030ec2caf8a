/** Language tags mapped to the two UI languages (docs/product.md §1). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage, toLanguage } from './language.ts';

test('any zh tag is Chinese, any en tag English, others none', () => {
  assert.equal(toLanguage('zh'), 'zh-CN');
  assert.equal(toLanguage('zh-TW'), 'zh-CN');
  assert.equal(toLanguage('en-GB'), 'en-US');
  assert.equal(toLanguage('fr-FR'), null);
  assert.equal(toLanguage(null), null);
});

test('with no stored choice and no browser language, Chinese is the fallback', () => {
  if (typeof navigator !== 'undefined' && navigator.language) return;
  assert.equal(detectLanguage(), 'zh-CN');
});
