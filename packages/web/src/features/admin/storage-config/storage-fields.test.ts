/**
 * The storage form renders from the shared field lists (packages/shared/src/storage-fields.ts):
 * every text they name must be in both locales, for every provider a per-provider help serves, and
 * every field must be edited as a form value that the form turns back into that field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STORAGE_PROVIDERS, STORAGE_TYPES, storageFields, type StorageField } from '@cubby/shared';
import zhCN from '../../../locales/zh-CN.json' with { type: 'json' };
import enUS from '../../../locales/en-US.json' with { type: 'json' };
import { flattenLocale } from '../../../locales/locale-check.ts';
import { FORM_KEY, emptyStorageForm, validateStorageForm } from './storage-form.ts';

/** Every translation key a field shows, for each provider of its type. */
function keysOf(field: StorageField, providerIds: string[]): string[] {
  const hints = field.hintByProvider ? providerIds.map((id) => `${field.hintKey}.${id}`) : [field.hintKey];
  return [
    field.labelKey,
    ...hints,
    ...(field.keepHintKey ? [field.keepHintKey] : []),
    ...(field.placeholderKey ? [field.placeholderKey] : []),
    ...(field.options ?? []).map((o) => o.labelKey),
  ];
}

test('every text the field lists name is in both locales', () => {
  const locales = { 'zh-CN': flattenLocale(zhCN), 'en-US': flattenLocale(enUS) };
  for (const type of STORAGE_TYPES) {
    const ids = STORAGE_PROVIDERS.filter((p) => p.type === type).map((p) => p.id);
    for (const field of storageFields(type)) {
      for (const key of keysOf(field, ids)) {
        for (const [name, texts] of Object.entries(locales)) {
          assert.ok(texts.has(key), `${type} ${field.name}: ${key} is missing in ${name}`);
        }
      }
    }
  }
});

test("the form's body carries exactly its type's fields", () => {
  for (const provider of STORAGE_PROVIDERS) {
    const result = validateStorageForm(emptyStorageForm(provider.label), 'create');
    assert.equal(result.ok, false);
    const fields = storageFields(provider.type);
    for (const field of fields) assert.ok(FORM_KEY[field.name], field.name);
    // Errors only ever name fields of the type shown.
    const shown = new Set<string>(fields.map((f) => FORM_KEY[f.name]));
    for (const field of Object.keys(result.ok ? {} : result.errors)) {
      assert.ok(shown.has(field), `${provider.label}: ${field}`);
    }
  }
});
