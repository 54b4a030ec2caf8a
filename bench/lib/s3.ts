/**
 * An S3 server for the benchmarks: the one S3_ENDPOINT / S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY
 * name, else a throwaway radosgw started with .ci/start-ceph.sh (as `npm test` does) when Ceph is
 * installed; plus a throwaway bucket emptied and removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { REPO_ROOT, freePort } from './harness.ts';

export interface S3Server {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Runs `fn` with an S3 server, or returns undefined (and says why) when there is none. */
export async function withS3Server<T>(fn: (server: S3Server) => Promise<T>): Promise<T | undefined> {
  if (process.env.S3_ENDPOINT) {
    return fn({
      endpoint: process.env.S3_ENDPOINT,
      region: process.env.S3_REGION || 'us-east-1',
      accessKeyId: process.env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? '',
    });
  }
  if (spawnSync('sh', ['-c', 'command -v radosgw']).status !== 0) {
    console.log('s3 skipped: set S3_ENDPOINT, or install radosgw (see docs/testing.md)');
    return undefined;
  }
  const env = {
    CEPH_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-bench-ceph-')),
    RGW_PORT: String(await freePort()),
    MON_PORT: String(await freePort()),
    S3_AK: 'cubbybenchaccess',
    S3_SK: 'cubbybenchsecret',
  };
  const started = spawnSync('bash', [path.join(REPO_ROOT, '.ci/start-ceph.sh')], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  try {
    if (started.status !== 0) {
      console.log(`s3 skipped: radosgw did not start\n${started.stderr.trim()}`);
      return undefined;
    }
    return await fn({
      endpoint: `http://127.0.0.1:${env.RGW_PORT}`,
      region: 'us-east-1',
      accessKeyId: env.S3_AK,
      secretAccessKey: env.S3_SK,
    });
  } finally {
    spawnSync('bash', [path.join(REPO_ROOT, '.ci/stop-ceph.sh')], { env: { ...process.env, ...env } });
    fs.rmSync(env.CEPH_DIR, { recursive: true, force: true });
  }
}

/** An SDK client for `server`, reached at `endpoint` (another address in front of it, say). */
export function s3Client(server: S3Server, endpoint = server.endpoint): S3Client {
  return new S3Client({
    endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Runs `fn` with a fresh bucket on `server`, removed with everything in it afterwards. */
export async function withBucket<T>(server: S3Server, fn: (bucket: string) => Promise<T>): Promise<T> {
  const client = s3Client(server);
  const bucket = `cubby-bench-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  try {
    return await fn(bucket);
  } finally {
    for (;;) {
      const left = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (left.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    client.destroy();
  }
}

/** The body of `POST /api/s3-configs` for `bucket` on this S3 server. */
export function s3ConfigBody(server: S3Server, bucket: string, name = 'bench s3') {
  return {
    name,
    provider_type: 'Other S3 Compatible',
    endpoint_url: server.endpoint,
    bucket_name: bucket,
    region: server.region,
    access_key_id: server.accessKeyId,
    secret_access_key: server.secretAccessKey,
    path_style: true,
  };
}
