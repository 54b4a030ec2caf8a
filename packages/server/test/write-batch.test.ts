/**
 * SQLite group commit (db/write-batch.ts): statements queued in one turn commit together, each
 * caller learns its own row, a failing statement does not sink the others, and a write lock held by
 * the main connection across an `await` delays the batch instead of blocking the event loop.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { SqliteWriteBatch } from '../src/db/write-batch.ts';

describe('SQLite write batch', () => {
  let dir: string;
  let main: SQLite.Database;
  let batch: SqliteWriteBatch;
  const bump = 'update counters set n = n + 1 where id = ? and n < lim returning n';

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-batch-'));
    main = new SQLite(path.join(dir, 'db.sqlite'));
    main.pragma('journal_mode = WAL');
    main.exec('create table counters (id text primary key, n integer not null, lim integer not null)');
    main.exec(`insert into counters values ('a', 0, 1000), ('b', 0, 5)`);
    batch = new SqliteWriteBatch(path.join(dir, 'db.sqlite'));
  });

  after(() => {
    batch.close();
    main.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives each of many concurrent callers its own row, and exactly the limit succeed', async () => {
    const rows = await Promise.all(Array.from({ length: 50 }, () => batch.get<{ n: number }>(bump, ['b'])));
    const counted = rows.filter((r) => r !== undefined).map((r) => r!.n);
    assert.deepEqual(
      counted.sort((x, y) => x - y),
      [1, 2, 3, 4, 5],
    );
    assert.equal((main.prepare('select n from counters where id = ?').get('b') as { n: number }).n, 5);
  });

  it('rejects only the statement that fails', async () => {
    const [good, bad] = await Promise.allSettled([
      batch.get(bump, ['a']),
      batch.get('update no_such_table set x = 1 returning x', []),
    ]);
    assert.equal(good.status, 'fulfilled');
    assert.equal(bad.status, 'rejected');
  });

  it('waits for a write lock held across an await, without blocking the event loop', async () => {
    const before = (main.prepare('select n from counters where id = ?').get('a') as { n: number }).n;
    main.exec('begin immediate');
    main.exec(`update counters set lim = lim + 1 where id = 'a'`);
    const pending = batch.get<{ n: number }>(bump, ['a']);
    let settled = false;
    void pending.then(() => (settled = true));
    // The event loop keeps turning while the lock is held: timers fire, the count waits.
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(Date.now() - started < 1000, 'the event loop was not blocked by a wait inside SQLite');
    assert.equal(settled, false, 'the count waits for the lock');
    main.exec('commit');
    const row = await pending;
    assert.equal(row?.n, before + 1);
  });
});
