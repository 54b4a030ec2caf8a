/**
 * The real S3 server the suites run against (radosgw, started by `npm test`, or the one S3_ENDPOINT
 * names): its settings, an admin client, throwaway buckets, and a storage config row pointing at one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { storageConfigRow, type TestApp } from './test-app.ts';

export const s3Env = {
  endpoint: process.env.S3_ENDPOINT,
  accessKeyId: process.env.S3_ACCESS_KEY_ID ?? '',
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? '',
  region: process.env.S3_REGION || 'us-east-1',
};

/** `skip` for an S3 suite: false when a server is configured, else how to get one. */
export const S3_SKIP: string | false = s3Env.endpoint
  ? false
  : 'S3_ENDPOINT is not set: run `npm test` (it starts radosgw), or start .ci/start-ceph.sh and set ' +
    'S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY';

export function s3AdminClient(): S3Client {
  return new S3Client({
    endpoint: s3Env.endpoint,
    region: s3Env.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3Env.accessKeyId, secretAccessKey: s3Env.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * A fresh bucket; with `cors`, the rules browser uploads need (GET/PUT/HEAD from anywhere, ETag
 * readable, or not when `exposeEtag` is false).
 */
export async function createBucket(
  client: S3Client,
  prefix: string,
  options: { cors?: boolean; exposeEtag?: boolean } = {},
): Promise<string> {
  const bucket = `${prefix}-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  if (options.cors) {
    await client.send(
      new PutBucketCorsCommand({
        Bucket: bucket,
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedOrigins: ['*'],
              AllowedMethods: ['GET', 'PUT', 'HEAD'],
              AllowedHeaders: ['*'],
              ExposeHeaders: options.exposeEtag === false ? [] : ['ETag'],
              MaxAgeSeconds: 600,
            },
          ],
        },
      }),
    );
  }
  return bucket;
}

/** Empties a bucket (objects and pending multipart uploads) and deletes it. */
export async function deleteBucket(client: S3Client, bucket: string): Promise<void> {
  for (;;) {
    const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1000 }));
    const keys = (out.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (keys.length === 0) break;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
  }
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of uploads.Uploads ?? []) {
    await client.send(
      new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key!, UploadId: upload.UploadId! }),
    );
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}

/** Inserts a storage config for `bucket` straight into the app's database; returns its id. */
/** The body of POST /api/s3-configs for `bucket` on the test's S3 server. */
export function s3ConfigBody(name: string, bucket: string) {
  return {
    name,
    provider_type: 'Other S3 Compatible',
    endpoint_url: s3Env.endpoint,
    bucket_name: bucket,
    region: s3Env.region,
    access_key_id: s3Env.accessKeyId,
    secret_access_key: s3Env.secretAccessKey,
    path_style: true,
  };
}

/** A storage config for `bucket` made through the admin routes, mounted at `mountPath`; its id. */
export async function mountBucket(
  t: TestApp,
  admin: Record<string, string>,
  bucket: string,
  mountPath: string,
): Promise<string> {
  const config = await t.json('/api/s3-configs', {
    method: 'POST',
    headers: admin,
    json: s3ConfigBody(mountPath.slice(1) || 'bucket', bucket),
  });
  if (config.status !== 201) throw new Error(`storage config: ${JSON.stringify(config.body)}`);
  const mount = await t.json('/api/admin/mounts', {
    method: 'POST',
    headers: admin,
    json: {
      name: mountPath.slice(1) || 'root',
      mount_path: mountPath,
      storage_config_id: config.body.data.id,
    },
  });
  if (mount.status !== 201) throw new Error(`mount: ${JSON.stringify(mount.body)}`);
  return config.body.data.id as string;
}

export async function insertS3Config(
  t: TestApp,
  bucket: string,
  options: { name?: string; isPublic?: boolean; defaultFolder?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const now = t.clock.now().toISOString();
  await t.services.storageConfigs.repo.insert(
    storageConfigRow({
      id,
      name: options.name ?? 'radosgw',
      driver: 's3',
      provider_type: 'Other S3 Compatible',
      settings: JSON.stringify({
        endpoint_url: s3Env.endpoint,
        bucket_name: bucket,
        region: s3Env.region,
        path_style: true,
        default_folder: options.defaultFolder ?? '',
        custom_host: null,
      }),
      secrets: t.services.storageConfigs.sealSecrets(id, {
        access_key_id: s3Env.accessKeyId,
        secret_access_key: s3Env.secretAccessKey,
      }),
      is_public: options.isPublic ? 1 : 0,
      created_at: now,
      updated_at: now,
    }),
  );
  return id;
}
