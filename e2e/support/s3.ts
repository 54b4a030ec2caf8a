/**
 * The shared radosgw for browser tests: a client, a fresh bucket per suite, the CORS rule browsers
 * need to talk to it, and removing the bucket with everything in it.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { expect } from '@playwright/test';
import { BASE_URL } from './env.ts';

export const S3 = {
  endpoint: process.env.S3_ENDPOINT ?? '',
  accessKeyId: process.env.S3_ACCESS_KEY_ID ?? '',
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? '',
  region: process.env.S3_REGION || 'us-east-1',
};

/** A client of the test S3 server and a new empty bucket on it. */
export async function freshBucket(prefix: string): Promise<{ client: S3Client; bucket: string }> {
  expect(
    S3.endpoint,
    'S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must name an S3 server',
  ).not.toBe('');
  const client = new S3Client({
    endpoint: S3.endpoint,
    region: S3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: S3.accessKeyId, secretAccessKey: S3.secretAccessKey },
  });
  const bucket = `${prefix}-${randomUUID().slice(0, 8)}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return { client, bucket };
}

/** The CORS rule that lets this app's pages read from and upload to the bucket. */
export async function allowBrowserAccess(client: S3Client, bucket: string): Promise<void> {
  await client.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedOrigins: [new URL(BASE_URL).origin],
            AllowedMethods: ['GET', 'PUT', 'HEAD'],
            AllowedHeaders: ['*'],
            ExposeHeaders: ['ETag'],
            MaxAgeSeconds: 3600,
          },
        ],
      },
    }),
  );
}

export async function removeBucket(client: S3Client, bucket: string): Promise<void> {
  for (;;) {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (keys.length === 0) break;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  client.destroy();
}

/** The fields of `POST /api/s3-configs` for `bucket` on the test S3 server. */
export function s3ConfigFields(bucket: string, name: string) {
  return {
    name,
    provider_type: 'Other S3 Compatible',
    endpoint_url: S3.endpoint,
    bucket_name: bucket,
    region: S3.region,
    access_key_id: S3.accessKeyId,
    secret_access_key: S3.secretAccessKey,
    path_style: true,
  };
}
