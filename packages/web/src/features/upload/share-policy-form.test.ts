import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_SHARE_POLICY } from '@cubby/shared';
import { expiryPresetOf, largestFile, policyRefusal, uploadDefaults } from './share-policy-form.ts';

const policy = { ...NO_SHARE_POLICY, max_bytes: 1024 ** 2, allowed_types: ['.txt', 'image/*'] };

describe('the share policy on the upload form', () => {
  it('the largest file: the upload limit, or the largest share when smaller', () => {
    assert.equal(largestFile(100 * 1024 ** 2, policy), 1024 ** 2);
    assert.equal(largestFile(1000, policy), 1000);
    assert.equal(largestFile(null, policy), 1024 ** 2);
    assert.equal(largestFile(1000, NO_SHARE_POLICY), 1000);
    assert.equal(largestFile(null, null), null);
  });

  it('refuses a file too large or of a type not allowed, in the server’s terms', () => {
    assert.deepEqual(policyRefusal(policy, { name: 'a.txt', size: 2 * 1024 ** 2 }), {
      key: 'upload.errors.policyTooLarge',
      values: { limit: '1 MB', size: '2 MB' },
    });
    assert.deepEqual(policyRefusal(policy, { name: 'run.exe', size: 10 }), {
      key: 'upload.errors.policyType',
      values: { name: 'run.exe', types: '.txt, image/*' },
    });
    assert.equal(policyRefusal(policy, { name: 'photo.JPG', size: 10 }), null);
    assert.equal(policyRefusal(null, { name: 'run.exe', size: 10 }), null);
  });
  it('preselects the defaults: a preset when one matches, else custom hours', () => {
    assert.equal(expiryPresetOf(168), '7d');
    assert.equal(expiryPresetOf(36), null);
    assert.deepEqual(uploadDefaults({ ...policy, default_expiry_hours: 24, default_max_views: 3 }), {
      expiry: '1d',
      maxViews: '3',
    });
    assert.deepEqual(uploadDefaults({ ...policy, default_expiry_hours: 36 }), {
      expiry: 'custom',
      customHours: '36',
    });
    assert.deepEqual(uploadDefaults(NO_SHARE_POLICY), {});
  });
});
