/**
 * Storage for the explorer's browser tests: a mount over a fresh local-disk folder and one over a
 * fresh radosgw bucket (with the CORS rule browsers need), and files put into them through the fs
 * API as a script would.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { expect, type APIRequestContext } from '@playwright/test';
import { BASE_URL } from './env.ts';
import { allowBrowserAccess, freshBucket, removeBucket, s3ConfigFields } from './s3.ts';

export interface TestMount {
  kind: 'local' | 's3';
  /** The mount path, e.g. `/e2e-local-1a2b3c4d`. */
  path: string;
  mountId: string;
  configId: string;
  /** The folder on disk behind a local mount. */
  root?: string;
  /** Puts a text file straight into the storage, behind the server's back (`sub/name.txt`). */
  writeBehind(subPath: string, content: string): Promise<void>;
  /** Deletes the mount, its storage config and what is behind it. */
  cleanup(request: APIRequestContext): Promise<void>;
}

async function adminPost(request: APIRequestContext, token: string, route: string, data: unknown) {
  const response = await request.post(`${BASE_URL}/api${route}`, {
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(response.status(), `${route}: ${await response.text()}`).toBeLessThan(300);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

/** How long the mount keeps listings (seconds; 0, the default here, keeps none). */
export interface MountOptions {
  cacheTtl?: number;
}

async function mountOn(
  request: APIRequestContext,
  token: string,
  kind: TestMount['kind'],
  configId: string,
  options: MountOptions,
  writeBehind: TestMount['writeBehind'],
  cleanup: () => Promise<void>,
): Promise<TestMount> {
  const mountPath = `/e2e-${kind}-${randomUUID().slice(0, 8)}`;
  const mount = await adminPost(request, token, '/admin/mounts', {
    name: mountPath.slice(1),
    storage_config_id: configId,
    mount_path: mountPath,
    cache_ttl: options.cacheTtl ?? 0,
  });
  return {
    kind,
    path: mountPath,
    mountId: String(mount.id),
    configId,
    writeBehind,
    async cleanup(request: APIRequestContext) {
      const headers = { Authorization: `Bearer ${token}` };
      await request.delete(`${BASE_URL}/api/admin/mounts/${String(mount.id)}`, { headers });
      await request.delete(`${BASE_URL}/api/s3-configs/${configId}`, { headers });
      await cleanup();
    },
  };
}

export async function localMount(
  request: APIRequestContext,
  token: string,
  options: MountOptions = {},
): Promise<TestMount> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-e2e-explorer-'));
  const config = await adminPost(request, token, '/s3-configs', {
    name: `explorer-local-${randomUUID().slice(0, 6)}`,
    provider_type: 'Local',
    root_path: root,
  });
  const writeBehind = async (subPath: string, content: string) => {
    const file = path.join(root, ...subPath.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  const mount = await mountOn(request, token, 'local', String(config.id), options, writeBehind, async () =>
    fs.rmSync(root, { recursive: true, force: true }),
  );
  return { ...mount, root };
}

export async function s3Mount(
  request: APIRequestContext,
  token: string,
  options: MountOptions = {},
): Promise<TestMount> {
  const { client, bucket } = await freshBucket('cubby-explorer');
  await allowBrowserAccess(client, bucket);
  const config = await adminPost(
    request,
    token,
    '/s3-configs',
    s3ConfigFields(bucket, `explorer-s3-${randomUUID().slice(0, 6)}`),
  );
  const writeBehind = async (subPath: string, content: string) => {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: subPath, Body: content }));
  };
  return mountOn(request, token, 's3', String(config.id), options, writeBehind, () =>
    removeBucket(client, bucket),
  );
}

/** Writes a text file through the fs API (folders on the way are made). */
export async function putText(request: APIRequestContext, token: string, filePath: string, content: string) {
  return adminPost(request, token, '/admin/fs/update', { path: filePath, content });
}

/** Uploads bytes into a folder through the fs API's form upload. */
export async function putFile(
  request: APIRequestContext,
  token: string,
  folder: string,
  name: string,
  body: Buffer,
  mimeType = 'application/octet-stream',
) {
  const response = await request.post(`${BASE_URL}/api/admin/fs/upload`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { path: folder, file: { name, mimeType, buffer: body } },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function makeFolder(request: APIRequestContext, token: string, folder: string) {
  return adminPost(request, token, '/admin/fs/mkdir', { path: folder });
}

/** Names in a folder as the API lists them. */
export async function listNames(
  request: APIRequestContext,
  token: string,
  folder: string,
): Promise<string[]> {
  const response = await request.get(`${BASE_URL}/api/admin/fs/list?path=${encodeURIComponent(folder)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { data: { items: { name: string }[] } };
  return body.data.items.map((item) => item.name).sort();
}

/** A file's bytes through the fs API. */
export async function readFile(request: APIRequestContext, token: string, filePath: string): Promise<Buffer> {
  const response = await request.get(
    `${BASE_URL}/api/admin/fs/download?path=${encodeURIComponent(filePath)}`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  expect(response.status(), filePath).toBe(200);
  return response.body();
}

/** The explorer's address of a folder. */
export const explorerHref = (folder: string) =>
  `/mount-explorer${folder
    .split('/')
    .filter(Boolean)
    .map((segment) => `/${encodeURIComponent(segment)}`)
    .join('')}`;
