/**
 * The driver pool (vfs/driver-pool.ts, docs/architecture.md "The driver pool"): the one place a
 * storage config becomes a driver. A driver is kept while its config's `updated_at` stays, rebuilt
 * when it moves, and a forgotten config's driver is dropped here and on the other instances.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StorageConfigsTable } from '../src/db/schema.ts';
import type { CacheBus, CacheNote } from '../src/lib/cache-bus.ts';
import { DriverPool } from '../src/vfs/driver-pool.ts';
import { storageConfigRow, TestClock } from './support/test-app.ts';

describe('the driver pool', () => {
  let root: string;
  const rows = new Map<string, StorageConfigsTable>();
  const published: CacheNote[] = [];
  const bus = { publish: (note: CacheNote) => void published.push(note) } as unknown as CacheBus;
  let pool: DriverPool;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cubby-pool-'));
    pool = new DriverPool({
      findConfig: (id) => Promise.resolve(rows.get(id)),
      openSecrets: () => {
        throw new Error('a local config has no credentials');
      },
      publicBaseUrl: 'http://127.0.0.1:1',
      secretKey: 'pool-test-secret-key-0123456789abcdef',
      clock: new TestClock(),
      bus,
    });
  });
  after(async () => {
    await pool.close();
    await rm(root, { recursive: true, force: true });
  });

  const config = (updatedAt: string) => {
    const row = storageConfigRow({
      id: 'disk-1',
      settings: JSON.stringify({ root_path: root }),
      updated_at: updatedAt,
    });
    rows.set(row.id, row);
    return row;
  };

  it('keeps a driver while the config is unchanged, and builds a new one once it changed', async () => {
    config('2026-01-01T00:00:00.000Z');
    const first = await pool.driver('disk-1');
    assert.equal(await pool.driver('disk-1'), first, 'the same driver on every use');
    assert.equal(await pool.driver((await pool.find('disk-1'))!), first, 'by record as by id');
    config('2026-01-01T00:00:01.000Z');
    const second = await pool.driver('disk-1');
    assert.notEqual(second, first, 'a config with a newer updated_at gets a new driver');
    assert.equal(await pool.driver('disk-1'), second);
  });

  it('forgets a config here and tells the other instances; drop forgets here only', async () => {
    config('2026-01-01T00:00:02.000Z');
    const kept = await pool.driver('disk-1');
    published.length = 0;
    pool.forget('disk-1');
    assert.deepEqual(published, [{ kind: 'storage-config', id: 'disk-1' }]);
    const rebuilt = await pool.driver('disk-1');
    assert.notEqual(rebuilt, kept, 'built again after forget, the config unchanged');
    pool.drop('disk-1');
    assert.notEqual(await pool.driver('disk-1'), rebuilt, 'built again after drop');
    assert.equal(published.length, 1, 'drop (a note from another instance) is not sent on');
  });

  it('gives the local driver of a local config, none for an unknown one, and 404 for its driver', async () => {
    config('2026-01-01T00:00:03.000Z');
    assert.equal((await pool.localDriver('disk-1'))?.kind, 'local');
    assert.equal(await pool.localDriver('nowhere'), undefined);
    await assert.rejects(pool.driver('nowhere'), (error: { status?: number }) => error.status === 404);
  });
});
