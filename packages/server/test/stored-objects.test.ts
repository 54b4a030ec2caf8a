/**
 * Stored objects by config and key (vfs/objects.ts, docs/architecture.md "Stored objects"): a write
 * reserves its bytes from the config's quota before they flow (507, nothing stored, when they do not
 * fit) and reports what it wrote, so the quota counts it; a removal reports it gone and gives the
 * room back; a pending share's bytes are left to the share's own row and event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StorageFullError } from '../src/vfs/quota.ts';
import { isStorageError } from '../src/vfs/objects.ts';
import { DIALECTS } from './support/databases.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

const KiB = 1024;
const streamOf = (size: number): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      // In 4 KiB chunks, as a network body comes.
      for (let sent = 0; sent < size; sent += 4 * KiB) {
        controller.enqueue(new Uint8Array(Math.min(4 * KiB, size - sent)));
      }
      controller.close();
    },
  });

for (const dialect of DIALECTS) {
  describe(`stored objects keep the quota (${dialect})`, () => {
    let t: TestApp;
    let configId: string;

    before(async () => {
      t = await createTestApp(dialect);
      configId = (await t.services.storageConfigs.repo.findDefault())!.id;
      await t.services.storageConfigs.repo.update(configId, { total_storage_bytes: 100 * KiB });
    });
    after(() => t.close());

    const usage = async () => t.services.quota.usage((await t.services.storageConfigs.find(configId))!);
    const missing = (key: string) =>
      t.services.objects.stat(configId, key).then(
        () => false,
        (error: unknown) => isStorageError(error, 'NOT_FOUND'),
      );

    it('a write that fits is stored and counted; one past the quota is refused before it is stored', async () => {
      const { objects } = t.services;
      const written = await objects.write(configId, '/objects/a.bin', streamOf(60 * KiB));
      assert.equal(written.size, 60 * KiB);
      assert.deepEqual(await usage(), { usedBytes: 60 * KiB, reservedBytes: 0 });

      // Its length unknown: refused as its bytes pass the 40 KiB left.
      await assert.rejects(objects.write(configId, '/objects/b.bin', streamOf(60 * KiB)), StorageFullError);
      // Its length declared: refused before a byte flows.
      await assert.rejects(
        objects.write(configId, '/objects/c.bin', streamOf(60 * KiB), { size: 60 * KiB }),
        StorageFullError,
      );
      assert.ok(await missing('/objects/b.bin'), 'nothing of the refused write is stored');
      assert.ok(await missing('/objects/c.bin'));
      assert.deepEqual(await usage(), { usedBytes: 60 * KiB, reservedBytes: 0 }, 'no reservation is left');

      await objects.remove(configId, '/objects/a.bin', { size: 60 * KiB });
      assert.ok(await missing('/objects/a.bin'));
      assert.deepEqual(await usage(), { usedBytes: 0, reservedBytes: 0 }, 'the room is given back');
    });

    it("a pending share's bytes are neither reserved again nor counted by the write", async () => {
      const { objects } = t.services;
      await objects.write(configId, '/objects/pending.bin', streamOf(90 * KiB), { pendingShare: true });
      assert.deepEqual(await usage(), { usedBytes: 0, reservedBytes: 0 });
      await objects.remove(configId, '/objects/pending.bin', { ownShare: true, size: 0 });
    });
  });
}
