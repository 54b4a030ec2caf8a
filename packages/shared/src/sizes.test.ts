/** Size units for the upload limit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes, systemSettingsUpdateSchema, toBytes, toUnit } from './sizes.ts';

describe('sizes', () => {
  it('converts KB, MB and GB as binary units', () => {
    assert.equal(toBytes(1, 'KB'), 1024);
    assert.equal(toBytes(1.5, 'MB'), 1572864);
    assert.equal(toBytes(2, 'GB'), 2147483648);
  });
  it('picks the largest whole unit for display in forms', () => {
    assert.deepEqual(toUnit(2 * 1024 ** 3), { value: 2, unit: 'GB' });
    assert.deepEqual(toUnit(1536 * 1024), { value: 1536, unit: 'KB' });
    assert.deepEqual(toUnit(100 * 1024 ** 2), { value: 100, unit: 'MB' });
  });
  it('formats bytes for people', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(100 * 1024 ** 2), '100 MB');
  });
  it('accepts a positive limit between 1 KB and 1 TB', () => {
    assert.ok(systemSettingsUpdateSchema.safeParse({ max_upload_size: 0.5 }).success);
    assert.ok(
      systemSettingsUpdateSchema.safeParse({ max_upload_size: 512, max_upload_size_unit: 'KB' }).success,
    );
    for (const bad of [
      { max_upload_size: 0 },
      { max_upload_size: -1 },
      { max_upload_size: 0.5, max_upload_size_unit: 'KB' },
      { max_upload_size: 2048, max_upload_size_unit: 'GB' },
      { max_upload_size_unit: 'TB' },
      { webdav_upload_mode: 'fast' },
    ]) {
      assert.equal(systemSettingsUpdateSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
