/**
 * Zip downloads (issue 12): a folder of about 1 GiB — 8 large files and 1,000 small ones in 10
 * subfolders — downloaded with GET /api/admin/fs/download-zip on local disk and on S3 (radosgw):
 * throughput, time to the first byte (the tree is listed before it), the server's RSS growth (goal
 * < 64 MiB whatever the size) and CPU per MiB. Prints figures and writes them to bench/RESULTS.md.
 *
 *   node --import tsx bench/zip.bench.ts [MiB]      (default 1024)
 */
import {
  adminApi as api,
  adminToken,
  ADMIN_PASSWORD,
  machine,
  ok,
  startServer,
  writeSection,
} from './lib/harness.ts';
import { s3ConfigBody, withBucket, withS3Server } from './lib/s3.ts';
import { drain, generated, measure, MiB, type Step } from './lib/streams.ts';

const BIG_FILES = 8;
const SMALL_FILES = 1000;
const SMALL_BYTES = 16 * 1024;
const BASIC = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

interface Row {
  storage: string;
  bytes: number;
  entries: number;
  firstByteMs: number;
  step: Step;
}

async function run(
  server: Awaited<ReturnType<typeof startServer>>,
  token: string,
  storage: string,
  configId: string,
  totalMiB: number,
): Promise<Row[]> {
  const mountPath = `/zip-${storage.toLowerCase().replace(/\W+/g, '-')}`;
  await api(server, token, '/api/admin/mounts', {
    name: `zip ${storage}`,
    storage_config_id: configId,
    mount_path: mountPath,
  });
  const dav = `${server.base}/dav${mountPath}/folder`;
  const headers = { Authorization: BASIC };
  const bigBytes = Math.floor(((totalMiB * MiB - SMALL_FILES * SMALL_BYTES) / BIG_FILES / 4096) * 4096);
  for (const dir of ['', '/big', ...Array.from({ length: 10 }, (_, i) => `/small-${i}`)]) {
    await ok(await fetch(`${dav}${dir}`, { method: 'MKCOL', headers }), 'MKCOL');
  }
  for (let i = 0; i < BIG_FILES; i++) {
    await ok(
      await fetch(`${dav}/big/video-${i}.mp4`, {
        method: 'PUT',
        headers: { ...headers, 'Content-Length': String(bigBytes) },
        body: generated(bigBytes),
        duplex: 'half',
      } as RequestInit),
      'PUT big',
    );
  }
  const small = Buffer.alloc(SMALL_BYTES, 7);
  for (let i = 0; i < SMALL_FILES; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, SMALL_FILES - i) }, (_, j) =>
        fetch(`${dav}/small-${(i + j) % 10}/photo-${i + j}.jpg`, {
          method: 'PUT',
          headers,
          body: small,
        }).then((r) => ok(r, 'PUT small')),
      ),
    );
  }
  const zip = async (folder: string, label: string, entries: number): Promise<Row> => {
    let firstByteMs = 0;
    let received = 0;
    const step = await measure(server.child.pid!, async () => {
      const start = performance.now();
      const url = `${server.base}/api/admin/fs/download-zip?path=${encodeURIComponent(`${mountPath}/${folder}`)}`;
      const res = await ok(await fetch(url, { headers: { Authorization: `Bearer ${token}` } }), 'zip');
      firstByteMs = performance.now() - start;
      received = await drain(res.body);
      if (received !== Number(res.headers.get('content-length'))) throw new Error('zip: short body');
    });
    return { storage: `${storage}, ${label}`, bytes: received, entries, firstByteMs, step };
  };
  return [
    await zip('folder', 'whole folder', BIG_FILES + SMALL_FILES + 11),
    await zip('folder/big', `${BIG_FILES} large files only`, BIG_FILES),
  ];
}

export async function benchZip(totalMiB = 1024): Promise<void> {
  const rows: Row[] = [];
  const server = await startServer();
  try {
    const token = await adminToken(server.base);
    await api(
      server,
      token,
      '/api/admin/system-settings',
      { max_upload_size: 4, max_upload_size_unit: 'GB' },
      'PUT',
    );
    const configs = await api<Array<{ id: string; is_default: number }>>(server, token, '/api/s3-configs');
    rows.push(...(await run(server, token, 'Local disk', configs.find((c) => c.is_default)!.id, totalMiB)));
    await withS3Server((s3) =>
      withBucket(s3, async (bucket) => {
        const created = await api<{ id: string }>(server, token, '/api/s3-configs', s3ConfigBody(s3, bucket));
        rows.push(...(await run(server, token, 'S3 (radosgw)', created.id, totalMiB)));
      }),
    );
  } finally {
    await server.stop();
  }

  const table = [
    '| storage, folder | archive MiB | entries | first byte ms | zip MiB/s | server RSS growth MiB | server CPU ms/MiB |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.storage} | ${(r.bytes / MiB).toFixed(0)} | ${r.entries} | ${r.firstByteMs.toFixed(0)} | ` +
        `${(r.bytes / MiB / r.step.seconds).toFixed(0)} | ${r.step.growthMiB.toFixed(0)} | ` +
        `${(r.step.cpuMs / (r.bytes / MiB)).toFixed(2)} |`,
    ),
  ].join('\n');
  console.log(table);
  writeSection(
    'Zip downloads',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. GET /api/admin/fs/download-zip of a folder ` +
      `of ${BIG_FILES} large files and ${SMALL_FILES} files of ${SMALL_BYTES / 1024} KiB in 11 subfolders ` +
      `(about ${totalMiB} MiB), read to its end; first byte = until the answer's headers (the whole tree ` +
      `is listed before); RSS growth is the server's peak resident memory over its level before the ` +
      `download (goal < 64 MiB).\n\n${table}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchZip(Number(process.argv[2] ?? 1024));
