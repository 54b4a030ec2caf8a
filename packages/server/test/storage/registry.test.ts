/**
 * The driver registry (docs/architecture.md, "Driver registry"): one entry per storage type with
 * the shared field list, and drivers built from a config's stored settings as the storage config
 * keeps them (CloudPaste's field names), on local disk and on a real S3 server.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { STORAGE_TYPE_FIELDS, STORAGE_TYPE_OF_DRIVER, STORAGE_TYPES } from '@cubby/shared';
import { createDriver, DRIVER_REGISTRY, driverTypeOf } from '../../src/storage/registry.ts';
import { createBucket, deleteBucket, S3_SKIP, s3AdminClient, s3Env } from '../support/s3.ts';
import { readText, streamOf } from './contract.ts';

const deps = {
  configId: 'cfg-1',
  publicBaseUrl: 'https://cubby.example/base',
  signingSecret: 'registry-test-secret-0123456789abcdef',
};

describe('driver registry', () => {
  it('has one entry per storage type, with its field list and the driver its configs store', () => {
    assert.deepEqual(Object.keys(DRIVER_REGISTRY).sort(), [...STORAGE_TYPES].sort());
    for (const type of STORAGE_TYPES) {
      const entry = DRIVER_REGISTRY[type];
      assert.equal(entry.type, type);
      assert.equal(entry.fields, STORAGE_TYPE_FIELDS[type]);
      assert.equal(STORAGE_TYPE_OF_DRIVER[entry.driver], type);
      assert.equal(driverTypeOf(entry.driver), entry);
    }
  });

  describe('LOCAL', () => {
    let root: string;
    before(async () => {
      root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'cubby-registry-'));
    });
    after(() => fs.rm(root, { recursive: true, force: true }));

    it('builds a driver on root_path that signs URLs to this server for its config', async () => {
      const driver = createDriver({ type: 'LOCAL', settings: { root_path: root }, secrets: undefined }, deps);
      assert.equal(driver.capabilities, DRIVER_REGISTRY.LOCAL.capabilities);
      await driver.write('/a.txt', streamOf('on disk'));
      assert.equal(await fs.readFile(nodePath.join(root, 'a.txt'), 'utf8'), 'on disk');
      const url = await driver.presignGet!('/a.txt', { expiresIn: 60 });
      assert.ok(url.href.startsWith(`${deps.publicBaseUrl}/api/storage/local/cfg-1/`), url.href);
    });
  });

  describe('S3', { skip: S3_SKIP }, () => {
    const admin = s3AdminClient();
    let bucket: string;
    before(async () => {
      bucket = await createBucket(admin, 'cubby-registry');
    });
    after(async () => {
      if (bucket) await deleteBucket(admin, bucket);
      admin.destroy();
    });

    it('builds a driver from the stored settings and secrets, confined to default_folder', async () => {
      const driver = createDriver(
        {
          type: 'S3',
          settings: {
            provider_type: 'Other S3 Compatible',
            endpoint_url: s3Env.endpoint!,
            bucket_name: bucket,
            region: s3Env.region,
            path_style: true,
            default_folder: 'inside/here',
            custom_host: null,
          },
          secrets: { access_key_id: s3Env.accessKeyId, secret_access_key: s3Env.secretAccessKey },
        },
        deps,
      );
      try {
        assert.equal(driver.capabilities, DRIVER_REGISTRY.S3.capabilities);
        await driver.write('/b.txt', streamOf('in the bucket'), { size: 13 });
        assert.equal(await readText(driver, '/b.txt'), 'in the bucket');
        const got = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: 'inside/here/b.txt' }));
        assert.equal(await got.Body!.transformToString(), 'in the bucket');
      } finally {
        await driver.remove('/b.txt').catch(() => undefined);
        await driver.close?.();
      }
    });
  });
});
