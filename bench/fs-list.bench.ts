/**
 * Listing a mounted folder of 1,000 files (issue 11): `GET /api/admin/fs/list` cold (directory cache
 * cleared before each request) and cached (autocannon, 32 connections), on local disk and on S3
 * (radosgw), next to the storage's own listing of the same folder (readdir + stat on disk, one
 * ListObjectsV2 on S3) and a bare node:http server answering the same JSON bytes. Goals: cold ≤ 1.2×
 * the storage's own list; cached ≥ 0.25 of the bare server's requests per second. Prints figures and
 * writes them to bench/RESULTS.md; never passes or fails.
 *
 *   node --import tsx bench/fs-list.bench.ts
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { bareServer } from './lib/bare-server.ts';
import {
  type BenchServer,
  adminApi as api,
  adminToken,
  load,
  localFolderOfFiles,
  machine,
  startServer,
  timeMs,
  writeSection,
} from './lib/harness.ts';
import { s3Client, s3ConfigBody, withBucket, withS3Server } from './lib/s3.ts';

const FILES = 1000;
const COLD_ROUNDS = 15;

interface Row {
  storage: string;
  ownMs: number;
  coldMs: number;
  cachedRps: number;
  cachedCpuUs: number | undefined;
  bareRps: number;
  bytes: number;
}

async function measure(
  server: BenchServer,
  token: string,
  storage: string,
  configId: string,
  ownList: () => Promise<unknown>,
): Promise<Row> {
  const mountPath = `/bench-${storage.toLowerCase().replace(/\W+/g, '-')}`;
  const mount = await api<{ id: string }>(server, token, '/api/admin/mounts', {
    name: `bench ${storage}`,
    storage_config_id: configId,
    mount_path: mountPath,
    cache_ttl: 3600,
  });
  const listUrl = `${server.base}/api/admin/fs/list?path=${encodeURIComponent(`${mountPath}/many`)}`;
  const headers = { Authorization: `Bearer ${token}` };
  const list = async () => {
    const res = await fetch(listUrl, { headers });
    if (!res.ok) throw new Error(`list: ${res.status}`);
    return res.text();
  };
  const sample = await list();
  const count = (JSON.parse(sample) as { data: { items: unknown[] } }).data.items.length;
  if (count !== FILES) throw new Error(`expected ${FILES} entries, got ${count}`);

  const ownMs = await timeMs(COLD_ROUNDS, ownList);
  const coldMs = await timeMs(COLD_ROUNDS, list, () =>
    api(server, token, '/api/admin/cache/clear', { mountId: mount.id }),
  );
  await list();
  const cached = await load({ url: listUrl, headers, duration: 5 }, server.child.pid);
  const bare = await bareServer(sample, 'application/json');
  const ceiling = await load({ url: bare.url, duration: 5 });
  await bare.close();
  return {
    storage,
    ownMs,
    coldMs,
    cachedRps: cached.rps,
    cachedCpuUs: cached.cpuUs,
    bareRps: ceiling.rps,
    bytes: Buffer.byteLength(sample),
  };
}

export async function benchFsList(): Promise<void> {
  const rows: Row[] = [];
  const server = await startServer();
  try {
    const token = await adminToken(server.base);
    const { configId: localId, dir } = await localFolderOfFiles(server, token, 'many', FILES);
    // What the storage itself does for a listing: the names, then a stat of each.
    const ownLocal = async () => {
      const names = await fs.readdir(dir);
      await Promise.all(names.map((n) => fs.stat(path.join(dir, n))));
    };
    rows.push(await measure(server, token, 'Local disk', localId, ownLocal));

    await withS3Server((s3) =>
      withBucket(s3, async (bucket) => {
        const client = s3Client(s3);
        for (let i = 0; i < FILES; i += 50) {
          await Promise.all(
            Array.from({ length: Math.min(50, FILES - i) }, (_, j) =>
              client.send(
                new PutObjectCommand({
                  Bucket: bucket,
                  Key: `many/file-${String(i + j).padStart(4, '0')}.txt`,
                  Body: `file ${i + j}\n`,
                }),
              ),
            ),
          );
        }
        const created = await api<{ id: string }>(server, token, '/api/s3-configs', s3ConfigBody(s3, bucket));
        const ownS3 = () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'many/', Delimiter: '/' }));
        rows.push(await measure(server, token, 'S3 (radosgw)', created.id, ownS3));
        client.destroy();
      }),
    );
  } finally {
    await server.stop();
  }

  const table = [
    '| storage | storage own list ms | cold list ms | cold / own | cached req/s | server CPU µs/req | bare node:http req/s | cached / bare | answer bytes |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.storage} | ${r.ownMs.toFixed(1)} | ${r.coldMs.toFixed(1)} | ${(r.coldMs / r.ownMs).toFixed(2)} | ${r.cachedRps.toLocaleString('en')} | ${r.cachedCpuUs ?? '–'} | ${r.bareRps.toLocaleString('en')} | ${(r.cachedRps / r.bareRps).toFixed(2)} | ${r.bytes.toLocaleString('en')} |`,
    ),
  ].join('\n');
  console.log(table);
  writeSection(
    'Listing a mounted folder of 1,000 files',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. \`GET /api/admin/fs/list\` of a folder ` +
      `of ${FILES} files on a mount: cold = directory cache cleared before each request (median of ` +
      `${COLD_ROUNDS}); cached = autocannon, 32 connections, 5 s. The storage's own list: readdir + stat ` +
      `(local disk), one ListObjectsV2 (S3). Bare node:http: a separate process answering the same bytes. ` +
      `Goals (issue 11): cold ≤ 1.2 × own; cached ≥ 0.25 × bare.\n\n${table}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFsList();
