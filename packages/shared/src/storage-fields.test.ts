/** The storage types' field lists agree with the rules the server validates configs with. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  STORAGE_FIELD_RULE,
  STORAGE_INPUT_RULES,
  STORAGE_PROVIDER_LABELS,
  checkStorageConfig,
  storageConfigFields,
} from './storage-configs.ts';
import { STORAGE_PROVIDERS, STORAGE_TYPE_OF_DRIVER, STORAGE_TYPES, storageFields } from './storage-fields.ts';

describe('storage field lists', () => {
  it('offer every provider once, each with its storage type', () => {
    assert.deepEqual(
      STORAGE_PROVIDERS.map((p) => p.label),
      [...STORAGE_PROVIDER_LABELS],
    );
    for (const provider of STORAGE_PROVIDERS) {
      const complete = {
        LOCAL: { root_path: '/srv/cubby' },
        S3: {
          endpoint_url: 'http://127.0.0.1:7480',
          bucket_name: 'bucket',
          region: 'us-west-004',
          access_key_id: 'key',
          secret_access_key: 'secret',
        },
        WEBDAV: { endpoint_url: 'http://127.0.0.1:8080/dav' },
        SFTP: { host: '127.0.0.1', username: 'me', password: 'pw' },
        FTP: { host: '127.0.0.1' },
      }[provider.type];
      const checked = checkStorageConfig({ name: 'n', provider_type: provider.label, ...complete });
      assert.ok(checked.ok, provider.label);
      assert.equal(STORAGE_TYPE_OF_DRIVER[checked.value.driver], provider.type, provider.label);
    }
  });

  it('name each field once, with the rule its config field is validated by', () => {
    for (const type of STORAGE_TYPES) {
      const names = storageFields(type).map((f) => f.name);
      assert.equal(new Set(names).size, names.length, type);
      for (const field of storageFields(type)) {
        assert.equal(field.rule, STORAGE_FIELD_RULE[field.name]);
        assert.ok(STORAGE_INPUT_RULES[field.rule], field.rule);
        assert.ok(field.name in storageConfigFields.shape, field.name);
      }
    }
  });

  it('mark required only fields an empty config is refused without, and list every one it is', () => {
    for (const provider of STORAGE_PROVIDERS) {
      const checked = checkStorageConfig({ provider_type: provider.label });
      assert.equal(checked.ok, false);
      const missing = new Set(checked.ok ? [] : checked.issues.map((i) => i.path));
      for (const field of storageFields(provider.type)) {
        if (field.name === 'provider_type') continue;
        // Some fields are required by the provider only (an R2 endpoint, a B2 region): the form's
        // presets say so; the list's own `required` holds for every provider of the type.
        if (field.required !== false) assert.ok(missing.has(field.name), `${provider.label}: ${field.name}`);
      }
      for (const path of missing) {
        const field = storageFields(provider.type).find((f) => f.name === path);
        assert.ok(field, `${provider.label}: ${path} is checked but not in the list`);
      }
    }
  });
});
