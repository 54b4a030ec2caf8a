/**
 * The admin dashboard's figures on a large instance (issue 14): 100,000 pastes and 100,000 file shares
 * spread over a year, on SQLite (a fresh file) and on PostgreSQL when DATABASE_URL names one (a
 * throwaway database created there); times `DashboardService.stats()` — every figure, one query each —
 * median of 15 runs after a warm-up. Prints figures and writes them to bench/RESULTS.md.
 *
 *   node --import tsx bench/dashboard.bench.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, migrate, openDatabase } from '../packages/server/src/db/database.ts';
import type { FilesTable, PastesTable } from '../packages/server/src/db/schema.ts';
import { DashboardRepository } from '../packages/server/src/modules/dashboard/dashboard.repository.ts';
import { DashboardService } from '../packages/server/src/modules/dashboard/dashboard.service.ts';
import { machine, writeSection } from './lib/harness.ts';

const ROWS = 100_000;
const ROUNDS = 15;
const YEAR_MS = 365 * 24 * 3600_000;
const clock = { now: () => new Date() };

export async function seed(db: Db): Promise<void> {
  const now = Date.now();
  const configId = randomUUID();
  const stamp = new Date(now).toISOString();
  await db.kysely
    .insertInto('storage_configs')
    .values({
      id: configId,
      name: 'bench',
      driver: 'local',
      provider_type: 'Local',
      settings: JSON.stringify({ root_path: '/tmp/none' }),
      secrets: null,
      is_public: 0,
      is_default: 0,
      total_storage_bytes: 10 * 1024 ** 3,
      signature_expires_in: 3600,
      admin_id: null,
      created_at: stamp,
      updated_at: stamp,
      last_used: null,
    })
    .execute();
  const at = (i: number) => new Date(now - ((i * 7919) % ROWS) * (YEAR_MS / ROWS)).toISOString();
  for (let start = 0; start < ROWS; start += 1000) {
    const pastes: PastesTable[] = [];
    const files: FilesTable[] = [];
    for (let i = start; i < start + 1000; i++) {
      const created = at(i);
      const expires = i % 3 === 0 ? new Date(Date.parse(created) + 30 * 24 * 3600_000).toISOString() : null;
      pastes.push({
        id: randomUUID(),
        slug: `b${i}${randomBytes(3).toString('hex')}`,
        content: 'x',
        format: 'text',
        remark: null,
        password_hash: null,
        expires_at: expires,
        max_views: i % 5 === 0 ? 3 : 0,
        views: i % 10,
        created_by: null,
        owner_id: null,
        created_at: created,
        updated_at: created,
        title: null,
        is_public: 0,
        revoked_at: null,
        file_count: 0,
      });
      files.push({
        id: randomUUID(),
        slug: `f${i}${randomBytes(3).toString('hex')}`,
        filename: 'a.bin',
        storage_config_id: configId,
        storage_path: `/b/${i}.bin`,
        mimetype: 'application/octet-stream',
        size: 1000 + i,
        etag: null,
        status: 'ready',
        remark: null,
        password_hash: null,
        expires_at: expires,
        max_views: 0,
        views: 0,
        use_proxy: 1,
        keep_object: 0,
        source: 'share',
        created_by: null,
        owner_id: null,
        created_at: created,
        updated_at: created,
        revoked_at: null,
      });
    }
    await db.kysely.insertInto('pastes').values(pastes).execute();
    await db.kysely.insertInto('files').values(files).execute();
  }
}

async function measure(db: Db): Promise<{ seedS: number; medianMs: number }> {
  await migrate(db);
  const t0 = performance.now();
  await seed(db);
  const seedS = (performance.now() - t0) / 1000;
  // What autovacuum does on a live PostgreSQL: planner statistics and the visibility map.
  if (db.dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db.kysely);
  const service = new DashboardService(new DashboardRepository(db.kysely), clock);
  const stats = await service.stats();
  if (stats.totalPastes !== ROWS || stats.totalFiles !== ROWS) throw new Error('seed count mismatch');
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await service.stats();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { seedS, medianMs: samples[Math.floor(ROUNDS / 2)]! };
}

export async function benchDashboard(): Promise<void> {
  const rows: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-dash-'));
  const sqlite = openDatabase({ dataDir: dir });
  try {
    const r = await measure(sqlite);
    rows.push(`| SQLite | ${r.seedS.toFixed(1)} | ${r.medianMs.toFixed(1)} |`);
  } finally {
    await sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `cubby_dash_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const db = openDatabase({ databaseUrl: target.toString(), dataDir: os.tmpdir() });
    try {
      const r = await measure(db);
      rows.push(`| PostgreSQL | ${r.seedS.toFixed(1)} | ${r.medianMs.toFixed(1)} |`);
    } finally {
      await db.close();
      await admin.query(`DROP DATABASE ${name}`);
      await admin.end();
    }
  }
  const table = ['| database | seed s | all figures, median ms |', '|---|---|---|', ...rows].join('\n');
  console.log(table);
  writeSection(
    'Dashboard figures on 100,000 pastes and 100,000 files',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. \`DashboardService.stats()\` (what ` +
      `GET /api/admin/dashboard/stats answers: totals, ended shares, storage per config, 7 days per day), ` +
      `median of ${ROUNDS} after a warm-up; rows spread over a year, a third with an expiry.\n\n${table}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDashboard();
