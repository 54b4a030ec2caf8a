/**
 * GET /api/admin/dashboard/stats on both databases: totals, live and ended shares, storage used per
 * config against its quota, the 7-day series (UTC days, oldest first, empty days 0), admin only; and
 * on SQLite the per-day query uses the created_at index.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { PastesTable } from '../src/db/schema.ts';
import { DIALECTS } from './support/databases.ts';
import { bearer, createTestApp, fileRow, storageConfigRow, type TestApp } from './support/test-app.ts';

const DAY = 24 * 60 * 60 * 1000;
const GiB = 1024 ** 3;

for (const dialect of DIALECTS) {
  describe(`dashboard stats (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;

    before(async () => {
      t = await createTestApp(dialect);
      admin = bearer(await t.adminToken());
    });
    after(() => t.close());

    const at = (daysAgo: number, hour = 12) => {
      const now = t.clock.now();
      const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysAgo * DAY;
      return new Date(day + hour * 3600_000).toISOString();
    };
    const paste = (created_at: string, fields: Partial<PastesTable> = {}): PastesTable => ({
      id: randomUUID(),
      slug: `p${randomBytes(5).toString('hex')}`,
      content: 'x',
      format: 'text',
      remark: null,
      password_hash: null,
      expires_at: null,
      max_views: 0,
      views: 0,
      created_by: null,
      owner_id: null,
      created_at,
      updated_at: created_at,
      title: null,
      is_public: 0,
      revoked_at: null,
      file_count: 0,
      ...fields,
    });

    it('answers totals, live and ended shares, storage per config and the 7-day series', async () => {
      const db = t.database.db.kysely;
      const quota = await t.json('/api/s3-configs', {
        method: 'POST',
        headers: admin,
        json: {
          name: 'a-quota',
          provider_type: 'Local',
          root_path: `${t.database.dataDir}/q-${randomUUID()}`,
          total_storage_bytes: 1000,
        },
      });
      assert.equal(quota.status, 201, JSON.stringify(quota.body));
      const quotaId = quota.body.data.id as string;
      await db
        .insertInto('pastes')
        .values([
          paste(at(0, 1)),
          paste(at(0, 23)),
          paste(at(2)),
          paste(at(6)),
          paste(at(7)), // eight days ago counts in the totals, not in the week
          paste(at(1), { expires_at: t.clock.now().toISOString() }), // expired now
          paste(at(1), { max_views: 2, views: 2 }), // used up
        ])
        .execute();
      await db
        .insertInto('files')
        .values([
          fileRow({ storage_config_id: quotaId, size: 300, created_at: at(0) }),
          fileRow({ storage_config_id: quotaId, size: 200, created_at: at(3), expires_at: at(1) }),
          fileRow({ storage_config_id: quotaId, size: 999, created_at: at(3), status: 'pending' }),
        ])
        .execute();

      const res = await t.json('/api/admin/dashboard/stats', { headers: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const s = res.body.data;
      assert.equal(s.totalPastes, 7);
      assert.equal(s.expiredPastes, 2);
      assert.equal(s.activePastes, 5);
      assert.equal(s.totalFiles, 2, 'ready files only');
      assert.equal(s.activeFiles, 1);
      assert.equal(s.expiredFiles, 1);
      assert.equal(s.totalS3Configs, 2);
      assert.equal(s.totalMounts, 0);
      assert.deepEqual(s.lastWeekPastes, [1, 0, 0, 0, 1, 2, 2]);
      assert.deepEqual(s.lastWeekFiles, [0, 0, 0, 1, 0, 0, 1]);
      assert.equal(s.lastWeekDays.length, 7);
      assert.equal(s.lastWeekDays[6], t.clock.now().toISOString().slice(0, 10));
      const bucket = s.s3Buckets.find((b: { id: string }) => b.id === quotaId);
      assert.deepEqual(
        {
          used: bucket.usedStorage,
          files: bucket.fileCount,
          total: bucket.totalStorage,
          pct: bucket.usagePercent,
        },
        { used: 500, files: 2, total: 1000, pct: 50 },
      );
      assert.deepEqual({ quota: bucket.quotaBytes, pct: bucket.quotaPercent }, { quota: 1000, pct: 50 });
      // No quota: CloudPaste's stand-in capacity for its client's arithmetic; ours says "none".
      const plain = s.s3Buckets.find((b: { id: string }) => b.id !== quotaId);
      assert.deepEqual(
        {
          total: plain.totalStorage,
          pct: plain.usagePercent,
          quota: plain.quotaBytes,
          quotaPct: plain.quotaPercent,
        },
        { total: 5 * GiB, pct: 0, quota: null, quotaPct: null },
      );
      assert.equal(s.totalStorageUsed, 500);
      assert.equal(typeof s.version, 'string');
    });

    it("answers numbers where CloudPaste's dashboard computes: a capacity per provider without a quota, a percentage, their sums", async () => {
      const db = t.database.db.kysely;
      const config = (name: string, provider_type: string, total_storage_bytes: number | null) =>
        storageConfigRow({
          name,
          driver: 's3',
          provider_type,
          settings: JSON.stringify({ bucket_name: name, endpoint_url: 'http://127.0.0.1:9', region: 'auto' }),
          total_storage_bytes,
        });
      const r2 = config('cp-r2', 'Cloudflare R2', null);
      const b2 = config('cp-b2', 'Backblaze B2', null);
      const aws = config('cp-aws', 'AWS S3', null);
      const full = config('cp-full', 'Other S3 Compatible', 100);
      await db.insertInto('storage_configs').values([r2, b2, aws, full]).execute();
      await db
        .insertInto('files')
        .values([
          fileRow({ storage_config_id: r2.id, size: 2 * GiB }),
          fileRow({ storage_config_id: full.id, size: 150 }),
        ])
        .execute();

      const res = await t.json('/api/admin/dashboard/stats', { headers: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const s = res.body.data;
      const of = (id: string) => s.s3Buckets.find((b: { id: string }) => b.id === id);
      assert.deepEqual(
        [r2, b2, aws, full].map((c) => [of(c.id).totalStorage, of(c.id).usagePercent]),
        [
          [10 * GiB, 20],
          [102 * GiB, 0],
          [5 * GiB, 0],
          [100, 100], // over its quota: at most 100
        ],
      );
      for (const bucket of s.s3Buckets) {
        for (const field of ['usedStorage', 'totalStorage', 'fileCount', 'usagePercent']) {
          assert.ok(Number.isFinite(bucket[field]), `${bucket.name}.${field} = ${bucket[field]}`);
        }
      }
      // What its dashboard computes from them: a finite total and percentage.
      const total = s.s3Buckets.reduce((n: number, b: { totalStorage: number }) => n + b.totalStorage, 0);
      assert.ok(Number.isFinite(Math.round((s.totalStorageUsed / total) * 100)));
      assert.deepEqual(
        [of(r2.id).quotaBytes, of(full.id).quotaBytes, of(full.id).quotaPercent],
        [null, 100, 100],
      );
    });

    it('is for the admin only', async () => {
      assert.equal((await t.json('/api/admin/dashboard/stats')).status, 401);
      const key = await t.createKey({
        name: 'k',
        text_permission: true,
        file_permission: true,
        mount_permission: true,
      });
      const res = await t.json('/api/admin/dashboard/stats', {
        headers: { Authorization: `ApiKey ${key.key}` },
      });
      assert.equal(res.status, 403);
    });

    if (dialect === 'sqlite') {
      it('reads the week through the created_at indexes and storage use from a covering index', async () => {
        const plan = async (query: string) =>
          (
            await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(t.database.db.kysely)
          ).rows
            .map((r) => r.detail)
            .join(' | ');
        const week = await plan(
          "SELECT substr(created_at, 1, 10), count(*) FROM pastes WHERE created_at >= '2026-01-01' GROUP BY 1",
        );
        assert.match(week, /INDEX pastes_created_at/, week);
        const files = await plan(
          "SELECT substr(created_at, 1, 10), count(case when status = 'ready' then 1 end) FROM files WHERE created_at >= '2026-01-01' GROUP BY 1",
        );
        assert.match(files, /INDEX files_created_at/, files);
        const use = await plan(
          "SELECT storage_config_id, sum(size), count(*) FROM files WHERE status = 'ready' GROUP BY storage_config_id",
        );
        assert.match(use, /COVERING INDEX files_status_config_size/, use);
      });
    }
  });
}
