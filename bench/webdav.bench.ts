/**
 * WebDAV (issue 13): a large file PUT and GET through /dav next to the fs API (form upload, download)
 * on local disk and on S3 (radosgw), with the server's RSS growth (goal < 64 MiB whatever the size);
 * and PROPFIND Depth 1 of a folder of 1,000 files next to the fs list of the same folder, both cold
 * (directory cache cleared) and cached. Prints figures and writes them to bench/RESULTS.md; never
 * passes or fails.
 *
 *   node --import tsx bench/webdav.bench.ts [MiB]      (default 1024)
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import {
  type BenchServer,
  ADMIN_PASSWORD,
  adminApi as api,
  adminToken,
  machine,
  ok,
  startServer,
  timeMs,
  writeSection,
} from './lib/harness.ts';
import { s3Client, s3ConfigBody, withBucket, withS3Server } from './lib/s3.ts';
import { drain, formBody, generated, measure, MiB, type Step } from './lib/streams.ts';

const FILES = 1000;
const ROUNDS = 9;
const BASIC = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

interface Row {
  storage: string;
  davPut: Step;
  davGet: Step;
  fsUpload: Step;
  fsDownload: Step;
  propfindCold: number;
  listCold: number;
  propfindCached: number;
  listCached: number;
}

async function run(
  server: BenchServer,
  token: string,
  storage: string,
  configId: string,
  size: number,
  seed: (names: string[]) => Promise<void>,
): Promise<Row> {
  const mountPath = `/bench-${storage.toLowerCase().replace(/\W+/g, '-')}`;
  const mount = await api<{ id: string }>(server, token, '/api/admin/mounts', {
    name: `bench ${storage}`,
    storage_config_id: configId,
    mount_path: mountPath,
    cache_ttl: 3600,
  });
  const pid = server.child.pid!;
  const dav = `${server.base}/dav${mountPath}`;
  const headers = { Authorization: BASIC };
  const davPut = await measure(pid, async () => {
    await ok(
      await fetch(`${dav}/big-dav.bin`, {
        method: 'PUT',
        headers: { ...headers, 'Content-Length': String(size) },
        body: generated(size),
        duplex: 'half',
      } as RequestInit),
      'PUT',
    );
  });
  const davGet = await measure(pid, async () => {
    const res = await ok(await fetch(`${dav}/big-dav.bin`, { headers }), 'GET');
    if ((await drain(res.body)) !== size) throw new Error('GET: short body');
  });
  const form = formBody({ path: mountPath }, 'big-fs.bin', generated(size));
  const fsUpload = await measure(pid, async () => {
    await ok(
      await fetch(`${server.base}/api/admin/fs/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': form.contentType },
        body: form.body,
        duplex: 'half',
      } as RequestInit),
      'fs upload',
    );
  });
  const fsDownload = await measure(pid, async () => {
    const url = `${server.base}/api/admin/fs/download?path=${encodeURIComponent(`${mountPath}/big-fs.bin`)}`;
    const res = await ok(await fetch(url, { headers: { Authorization: `Bearer ${token}` } }), 'fs download');
    if ((await drain(res.body)) !== size) throw new Error('fs download: short body');
  });

  await seed(Array.from({ length: FILES }, (_, i) => `many/file-${String(i).padStart(4, '0')}.txt`));
  const propfind = async () => {
    const res = await ok(
      await fetch(`${dav}/many/`, { method: 'PROPFIND', headers: { ...headers, Depth: '1' } }),
      'PROPFIND',
    );
    const xml = await res.text();
    if (xml.split('<D:response>').length !== FILES + 2) throw new Error('PROPFIND: wrong count');
  };
  const list = async () => {
    const url = `${server.base}/api/admin/fs/list?path=${encodeURIComponent(`${mountPath}/many`)}`;
    await (await ok(await fetch(url, { headers: { Authorization: `Bearer ${token}` } }), 'list')).text();
  };
  const clear = () => api(server, token, '/api/admin/cache/clear', { mountId: mount.id });
  return {
    storage,
    davPut,
    davGet,
    fsUpload,
    fsDownload,
    propfindCold: await timeMs(ROUNDS, propfind, clear),
    listCold: await timeMs(ROUNDS, list, clear),
    propfindCached: await timeMs(ROUNDS, propfind),
    listCached: await timeMs(ROUNDS, list),
  };
}

export async function benchWebdav(sizeMiB = 1024): Promise<void> {
  const size = sizeMiB * MiB;
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
    const local = configs.find((c) => c.is_default)!;
    const davSeed = (mountPath: string) => async (names: string[]) => {
      await fetch(`${server.base}/dav${mountPath}/many`, {
        method: 'MKCOL',
        headers: { Authorization: BASIC },
      });
      for (let i = 0; i < names.length; i += 50) {
        await Promise.all(
          names.slice(i, i + 50).map((name) =>
            fetch(`${server.base}/dav${mountPath}/${name}`, {
              method: 'PUT',
              headers: { Authorization: BASIC },
              body: name,
            }).then((r) => ok(r, 'seed')),
          ),
        );
      }
    };
    rows.push(await run(server, token, 'Local disk', local.id, size, davSeed('/bench-local-disk')));
    await withS3Server((s3) =>
      withBucket(s3, async (bucket) => {
        const client = s3Client(s3);
        const created = await api<{ id: string }>(server, token, '/api/s3-configs', s3ConfigBody(s3, bucket));
        // Straight into the bucket: seeding through WebDAV would record 1,000 shares for nothing.
        const seed = async (names: string[]) => {
          for (let i = 0; i < names.length; i += 50) {
            await Promise.all(
              names
                .slice(i, i + 50)
                .map((name) => client.send(new PutObjectCommand({ Bucket: bucket, Key: name, Body: name }))),
            );
          }
        };
        rows.push(await run(server, token, 'S3 (radosgw)', created.id, size, seed));
        client.destroy();
      }),
    );
  } finally {
    await server.stop();
  }

  const speed = (step: Step) => (size / MiB / step.seconds).toFixed(0);
  const growth = (step: Step) => step.growthMiB.toFixed(0);
  const transfer = [
    '| storage | WebDAV PUT MiB/s | PUT RSS growth MiB | fs upload MiB/s | fs upload RSS growth MiB | WebDAV GET MiB/s | GET RSS growth MiB | fs download MiB/s | fs download RSS growth MiB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.storage} | ${speed(r.davPut)} | ${growth(r.davPut)} | ${speed(r.fsUpload)} | ${growth(r.fsUpload)} | ${speed(r.davGet)} | ${growth(r.davGet)} | ${speed(r.fsDownload)} | ${growth(r.fsDownload)} |`,
    ),
  ].join('\n');
  const listing = [
    '| storage | PROPFIND Depth 1 cold ms | fs list cold ms | PROPFIND cached ms | fs list cached ms |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.storage} | ${r.propfindCold.toFixed(1)} | ${r.listCold.toFixed(1)} | ${r.propfindCached.toFixed(1)} | ${r.listCached.toFixed(1)} |`,
    ),
  ].join('\n');
  console.log(`${transfer}\n\n${listing}`);
  writeSection(
    'WebDAV',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. A ${sizeMiB} MiB file PUT and GET through ` +
      `/dav (admin Basic) next to the fs API (streamed form upload, download) on the same mount; RSS growth ` +
      `is the server's peak resident memory over its level before each step (goal < 64 MiB). Listing: a ` +
      `folder of ${FILES} files, PROPFIND Depth 1 vs GET /api/admin/fs/list, median of ${ROUNDS}; cold = ` +
      `directory cache cleared before each request.\n\n${transfer}\n\n${listing}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWebdav(Number(process.argv[2] ?? 1024));
