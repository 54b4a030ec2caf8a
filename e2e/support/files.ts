/**
 * File shares for browser tests: made through the API (`POST /api/upload`, as the admin or a key),
 * read back without counting a view, and small valid files of each preview type built in memory
 * (PNG, WAV, PDF; a WebM is recorded by the browser itself). Also the upload-related settings.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { expect, request as requestFactory, type APIRequestContext, type Page } from '@playwright/test';
import { BASE_URL } from './env.ts';
import type { Api, CreatedKey } from './fixtures.ts';

export interface ShareOptions {
  name: string;
  mimeType?: string;
  body: Buffer;
  slug?: string;
  password?: string;
  remark?: string;
  maxViews?: number;
  expiresIn?: number;
  /** Another storage than the default. */
  storageConfigId?: string;
  /** false: direct mode (the view and download links redirect to storage). */
  useProxy?: boolean;
}

export interface FileShareData {
  id: string;
  slug: string;
  filename: string;
  mimetype: string;
  size: number;
  views: number;
  max_views: number;
  requires_password: boolean;
  use_proxy: number;
  expires_at: string | null;
  previewUrl: string | null;
  downloadUrl: string | null;
}

async function authorization(api: Api, key?: CreatedKey): Promise<string> {
  return key ? `ApiKey ${key.key}` : `Bearer ${await api.adminToken()}`;
}

/** Uploads a file share through the API (streamed form upload); returns the share. */
export async function uploadShare(
  request: APIRequestContext,
  api: Api,
  options: ShareOptions,
  key?: CreatedKey,
): Promise<FileShareData> {
  const fields: Record<string, string> = {};
  if (options.slug) fields.slug = options.slug;
  if (options.password) fields.password = options.password;
  if (options.remark) fields.remark = options.remark;
  if (options.maxViews !== undefined) fields.max_views = String(options.maxViews);
  if (options.expiresIn !== undefined) fields.expires_in = String(options.expiresIn);
  if (options.storageConfigId) fields.s3_config_id = options.storageConfigId;
  if (options.useProxy !== undefined) fields.use_proxy = options.useProxy ? '1' : '0';
  const response = await request.post(`${BASE_URL}/api/upload`, {
    headers: { Authorization: await authorization(api, key) },
    multipart: {
      ...fields,
      file: {
        name: options.name,
        mimeType: options.mimeType ?? 'application/octet-stream',
        buffer: options.body,
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: FileShareData }).data;
}

/** A share's public details (never counts a view), or the HTTP status when there is none. */
export async function publicFile(request: APIRequestContext, slug: string): Promise<FileShareData | number> {
  const response = await request.get(`${BASE_URL}/api/public/files/${encodeURIComponent(slug)}`);
  if (response.status() !== 200) return response.status();
  return ((await response.json()) as { data: FileShareData }).data;
}

/**
 * Creates a record with a fixed link suffix unless it `exists`. Walk parts run side by side and
 * seed the same records: when another worker made it in the meantime (the creation fails on the
 * taken suffix), the record exists afterwards and that is fine.
 */
export async function createOnce(exists: () => Promise<boolean>, create: () => Promise<unknown>) {
  if (await exists()) return;
  try {
    await create();
  } catch (error) {
    // The other worker's record may still be on its way (an upload holds its suffix while its bytes
    // are sent, and is not public until they are all there): wait for it rather than fail.
    const appeared = await expect
      .poll(exists, { timeout: 15_000 })
      .toBe(true)
      .then(
        () => true,
        () => false,
      );
    if (!appeared) throw error;
  }
}

/**
 * A share with a fixed link suffix, made once per server (later calls find it); for screens that
 * only get the `Api` fixture. Returns the page path.
 */
export async function ensureShare(api: Api, options: ShareOptions & { slug: string }): Promise<string> {
  const request = await requestFactory.newContext();
  try {
    await createOnce(
      async () => (await publicFile(request, options.slug)) !== 404,
      () => uploadShare(request, api, options),
    );
  } finally {
    await request.dispose();
  }
  return `/file/${options.slug}`;
}

/** A share that has used up its only view (a fresh one each call); returns the page path. */
export async function usedUpShare(api: Api): Promise<string> {
  const request = await requestFactory.newContext();
  try {
    const share = await uploadShare(request, api, {
      name: 'once.txt',
      mimeType: 'text/plain',
      body: Buffer.from('once'),
      maxViews: 1,
    });
    await downloadBytes(request, share.slug);
    return `/file/${share.slug}`;
  } finally {
    await request.dispose();
  }
}

/** The bytes of a share, downloaded through its API link (counts a view). */
export async function downloadBytes(request: APIRequestContext, slug: string): Promise<Buffer> {
  const response = await request.get(`${BASE_URL}/api/file-download/${encodeURIComponent(slug)}`);
  expect(response.status()).toBe(200);
  return response.body();
}

/** The admin's file list entries matching `search`. */
export async function adminFiles(
  request: APIRequestContext,
  api: Api,
  search: string,
): Promise<{ id: string; slug: string; filename: string }[]> {
  const response = await request.get(
    `${BASE_URL}/api/admin/files?limit=50&search=${encodeURIComponent(search)}`,
    {
      headers: { Authorization: await authorization(api) },
    },
  );
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: { files: { id: string; slug: string; filename: string }[] } })
    .data.files;
}

/** Changes system settings as the admin (max upload size, URL allowlist…). */
export async function putSystemSettings(
  request: APIRequestContext,
  api: Api,
  settings: Record<string, unknown>,
): Promise<void> {
  const response = await request.put(`${BASE_URL}/api/admin/system-settings`, {
    headers: { Authorization: await authorization(api) },
    data: settings,
  });
  expect(response.status(), await response.text()).toBe(200);
}

export const sha256 = (data: Buffer | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Deterministic pseudo-random bytes (incompressible, so sizes are real). */
export function randomBytesOf(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A valid PNG of `width` × `height` pixels in one colour. */
export function pngOf(width: number, height: number, rgb: [number, number, number] = [79, 70, 229]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3]!)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 16-bit mono WAV of a sine tone. */
export function wavOf(seconds = 0.5, hz = 440, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A one-page PDF saying `text`. */
export function pdfOf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A short WebM video recorded by the page's browser from a canvas (nothing to ship in the repo). */
export async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(10), { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 8; frame++) {
      context.fillStyle = `hsl(${frame * 40}, 70%, 50%)`;
      context.fillRect(0, 0, 64, 48);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

export interface SourceServer {
  /** `127.0.0.1:<port>`, for the URL allowlist. */
  host: string;
  url(path: string): string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for a remote site in URL-upload tests: serves `files` by path,
 * with CORS headers (so the browser may read it directly) or without (so it must use the proxy);
 * an `unsized` file is sent chunked, without Content-Length, as a generated download is.
 */
export async function startSourceServer(
  files: Record<string, { body: Buffer; type: string; unsized?: boolean }>,
  cors: boolean,
) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(`${req.method} ${path}`);
    const file = files[path];
    const headers: Record<string, string> = cors
      ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Content-Length' }
      : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...headers, 'Access-Control-Allow-Methods': 'GET, HEAD' }).end();
      return;
    }
    if (!file) {
      res.writeHead(404, headers).end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': file.type,
      ...(file.unsized ? {} : { 'Content-Length': String(file.body.length) }),
    });
    if (req.method === 'HEAD') res.end();
    else if (file.unsized) {
      // Two writes: a chunked body of no announced size.
      const half = Math.floor(file.body.length / 2);
      res.write(file.body.subarray(0, half));
      res.end(file.body.subarray(half));
    } else res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies SourceServer;
}
