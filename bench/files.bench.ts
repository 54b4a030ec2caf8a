/**
 * File shares end to end (issue 5): a large file uploaded through the server (POST /api/upload, a
 * streamed multipart/form-data body) and downloaded through the proxy route, on local disk and on
 * S3 (radosgw); the same object read straight from storage in the same run; and how much the
 * server's resident memory grows meanwhile (target: < 64 MiB whatever the size; proxied download
 * ≥ 90 % of direct). Prints figures and writes them to bench/RESULTS.md; never passes or fails.
 *
 *   node --import tsx bench/files.bench.ts [MiB]      (default 1024)
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type BenchServer, adminToken, machine, median, startServer, writeSection } from './lib/harness.ts';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startRelay } from './lib/relay.ts';
import { drain, formBody, generated, measure, MiB, type Step } from './lib/streams.ts';
import { type S3Server, s3Client, withBucket, withS3Server } from './lib/s3.ts';

/** Download rounds: proxied and direct alternate, so both see the same load on a shared machine. */
const ROUNDS = 3;

interface Row {
  storage: string;
  upload: Step;
  /** Median round of each. */
  proxied: Step;
  direct: Step;
  /** Median over the rounds of proxied / direct speed, each pair taken back to back. */
  ratio: number;
  /** S3 only: the object read through a bare TCP relay (lib/relay.ts); cpuMs is the relay's. */
  relay?: Step;
  /** Median over the rounds of proxied / relay speed. */
  relayRatio?: number;
}

async function api<T>(server: BenchServer, token: string, route: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.base}${route}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...init.headers },
  });
  const body = (await res.json()) as { data: T; message: string };
  if (!res.ok) throw new Error(`${route}: ${res.status} ${body.message}`);
  return body.data;
}

async function run(server: BenchServer, size: number, storage: string, s3?: S3Server & { bucket: string }) {
  const token = await adminToken(server.base);
  const pid = server.child.pid!;
  await api(server, token, '/api/admin/system-settings', {
    method: 'PUT',
    body: JSON.stringify({ max_upload_size: Math.ceil((size * 2) / MiB), max_upload_size_unit: 'MB' }),
  });
  let configId: string;
  if (s3) {
    const created = await api<{ id: string }>(server, token, '/api/s3-configs', {
      method: 'POST',
      body: JSON.stringify({
        name: 'bench',
        provider_type: 'Other S3 Compatible',
        endpoint_url: s3.endpoint,
        bucket_name: s3.bucket,
        region: s3.region,
        access_key_id: s3.accessKeyId,
        secret_access_key: s3.secretAccessKey,
        path_style: true,
      }),
    });
    configId = created.id;
  } else {
    const configs = await api<{ id: string; is_default: number }[]>(server, token, '/api/s3-configs');
    configId = configs.find((c) => c.is_default)!.id;
  }

  let slug = '';
  let fileId = '';
  const upload = await measure(pid, async () => {
    const { body, contentType } = formBody({ s3_config_id: configId }, 'large.bin', generated(size));
    const res = await fetch(`${server.base}/api/upload`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'Content-Type': contentType, Authorization: `Bearer ${token}` },
    } as RequestInit);
    const answer = (await res.json()) as {
      data: { slug: string; id: string; size: number };
      message: string;
    };
    if (!res.ok) throw new Error(`upload: ${res.status} ${answer.message}`);
    if (answer.data.size !== size) throw new Error(`upload stored ${answer.data.size} bytes, sent ${size}`);
    slug = answer.data.slug;
    fileId = answer.data.id;
  });

  const download = () =>
    measure(pid, async () => {
      const res = await fetch(`${server.base}/api/file-download/${slug}`);
      const n = await drain(res.body);
      if (!res.ok || n !== size) throw new Error(`proxied download: ${res.status}, ${n} bytes`);
    });

  // Straight from storage: the file on disk, or the object through a presigned URL (direct mode).
  const file = await api<{ storage_path: string }>(server, token, `/api/admin/files/${fileId}`);
  const directUrl = async (): Promise<string> => {
    await api(server, token, `/api/admin/files/${fileId}`, {
      method: 'PUT',
      body: JSON.stringify({ use_proxy: 0 }),
    });
    const redirect = await fetch(`${server.base}/api/file-download/${slug}`, { redirect: 'manual' });
    const location = redirect.headers.get('location');
    if (redirect.status !== 302 || !location) throw new Error(`direct mode answered ${redirect.status}`);
    await api(server, token, `/api/admin/files/${fileId}`, {
      method: 'PUT',
      body: JSON.stringify({ use_proxy: 1 }),
    });
    return location;
  };
  const read = async (): Promise<Step> => {
    const url = s3 ? await directUrl() : undefined;
    return measure(pid, async () => {
      const n = url
        ? await drain((await fetch(url)).body)
        : await drain(
            Readable.toWeb(
              fs.createReadStream(
                path.join(server.dataDir, 'storage', file.storage_path.replace(/^\/+/, '')),
              ),
            ) as ReadableStream<Uint8Array>,
          );
      if (n !== size) throw new Error(`direct read: ${n} bytes`);
    });
  };
  // S3: the same object through a bare TCP relay, the most a Node proxy on this machine can do. The
  // URL is signed for the relay's address, which the relay passes on unchanged as the Host.
  const relay = s3 ? await startRelay(s3.endpoint) : undefined;
  const relayUrl = async (): Promise<string> => {
    const direct = new URL(await directUrl());
    const key = decodeURIComponent(direct.pathname.slice(`/${s3!.bucket}/`.length));
    const client = s3Client(s3!, relay!.endpoint);
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: s3!.bucket, Key: key }), {
      expiresIn: 3600,
    });
    client.destroy();
    return url;
  };
  const throughRelay = async (): Promise<Step> => {
    const url = await relayUrl();
    return measure(relay!.child.pid!, async () => {
      const n = await drain((await fetch(url)).body);
      if (n !== size) throw new Error(`relay read: ${n} bytes`);
    });
  };
  const rounds: Array<{ proxied: Step; direct: Step; relay?: Step }> = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      rounds.push({
        proxied: await download(),
        direct: await read(),
        ...(relay ? { relay: await throughRelay() } : {}),
      });
    }
  } finally {
    await relay?.stop();
  }
  const middle = (pick: (r: (typeof rounds)[number]) => Step) =>
    rounds.map(pick).sort((a, b) => a.seconds - b.seconds)[rounds.length >> 1]!;
  const proxied = middle((r) => r.proxied);
  const direct = middle((r) => r.direct);
  const ratio = median(rounds.map((r) => r.direct.seconds / r.proxied.seconds));
  const row: Row = { storage, upload, proxied, direct, ratio };
  if (relay) {
    row.relay = middle((r) => r.relay!);
    row.relayRatio = median(rounds.map((r) => r.relay!.seconds / r.proxied.seconds));
  }
  await api(server, token, `/api/admin/files/${fileId}`, { method: 'DELETE' });
  return row;
}

export async function benchFiles(sizeMiB = 1024): Promise<void> {
  const size = sizeMiB * MiB;
  const rows: Row[] = [];
  const local = await startServer();
  try {
    rows.push(await run(local, size, 'local disk'));
  } finally {
    await local.stop();
  }
  await withS3Server((s3) =>
    withBucket(s3, async (bucket) => {
      const server = await startServer();
      try {
        rows.push(await run(server, size, 'S3 (radosgw)', { ...s3, bucket }));
      } finally {
        await server.stop();
      }
    }),
  );

  const rate = (s: number) => `${(sizeMiB / s).toFixed(0)}`;
  const cpu = (step: Step) => (step.cpuMs / sizeMiB).toFixed(1);
  const table = [
    '| storage | upload MiB/s | upload RSS growth MiB | upload server CPU ms/MiB | proxied download MiB/s | download RSS growth MiB | download server CPU ms/MiB | direct read MiB/s | proxied / direct | bare relay MiB/s | relay CPU ms/MiB | proxied / relay |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.storage} | ${rate(r.upload.seconds)} | ${r.upload.growthMiB.toFixed(0)} | ${cpu(r.upload)} | ` +
        `${rate(r.proxied.seconds)} | ${r.proxied.growthMiB.toFixed(0)} | ${cpu(r.proxied)} | ` +
        `${rate(r.direct.seconds)} | ${r.ratio.toFixed(2)} | ` +
        (r.relay
          ? `${rate(r.relay.seconds)} | ${cpu(r.relay)} | ${r.relayRatio!.toFixed(2)} |`
          : '– | – | – |'),
    ),
  ].join('\n');
  console.log(table);
  writeSection(
    'File shares: large upload and download',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. One ${sizeMiB} MiB file of random bytes, ` +
      'uploaded with POST /api/upload (a streamed multipart/form-data body) and downloaded through ' +
      '/api/file-download/:slug (proxy mode), against the real server on SQLite; "direct" reads the same object ' +
      'straight from storage (the file on disk; for S3 a presigned GET from direct mode). RSS growth is the ' +
      "server process's peak resident memory over its level before each step, sampled every 20 ms; " +
      'server CPU is its user + system time per MiB moved (steadier than speed on a busy machine). ' +
      `Downloads run ${ROUNDS} rounds, proxied and direct back to back; the table gives the median ` +
      'round and the median of the per-round ratios. For S3 each round also reads the object through a ' +
      'bare TCP relay in a process of its own (bench/lib/relay.ts: bytes in, bytes out, nothing parsed), ' +
      'the most a proxy written in Node can do on this machine; "relay CPU" is that process\'s. ' +
      'Targets: proxied ≥ 90 % of direct; growth < 64 MiB whatever the size.\n\n' +
      table,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFiles(Number(process.argv[2] ?? 1024));
