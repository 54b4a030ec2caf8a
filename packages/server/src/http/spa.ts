/**
 * Serves the built web app (packages/web/dist) for every GET outside /api and /dav, falling back to
 * index.html so client routes work on reload. Hashed assets are cached for a year; index.html is
 * never cached and carries the strict Content-Security-Policy (its inline scripts allowed by hash).
 * A page may add tags to <head> (`headFor`: a share page's link card, docs/api.md "Link cards"):
 * meta and link tags only, so the policy and its script hashes stay as they are. Serving the app
 * never counts a view.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Headers every page of the app carries. */
export function pageSecurityHeaders(scriptHashes: string[]): Record<string, string> {
  const scriptSrc = ["'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ');
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src ${scriptSrc}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https: http:",
      "media-src 'self' blob: https: http:",
      // The environment switcher and direct-to-storage uploads talk to other origins.
      "connect-src 'self' https: http:",
      "font-src 'self' data:",
      "worker-src 'self' blob:",
      // A PDF preview of a direct-mode share is a frame of the storage's own (signed) address.
      "frame-src 'self' blob: https: http:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}

function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push('sha256-' + createHash('sha256').update(match[1]!).digest('base64'));
  }
  return hashes;
}

export interface SpaOptions {
  /** Tags for the <head> of the page at the request's path (escaped by the caller), if any. */
  headFor?: (c: Context<AppEnv>) => Promise<string | undefined>;
}

export function serveSpa(distDir: string, options: SpaOptions = {}): MiddlewareHandler<AppEnv> {
  const root = path.resolve(distDir);
  let indexCache: { mtimeMs: number; html: string; headers: Record<string, string> } | undefined;

  const loadIndex = async () => {
    const file = path.join(root, 'index.html');
    const stat = await fs.promises.stat(file);
    if (!indexCache || indexCache.mtimeMs !== stat.mtimeMs) {
      const html = await fs.promises.readFile(file, 'utf8');
      indexCache = { mtimeMs: stat.mtimeMs, html, headers: pageSecurityHeaders(inlineScriptHashes(html)) };
    }
    return indexCache;
  };

  return async (c, next) => {
    const method = c.req.method;
    const urlPath = c.req.path;
    if ((method !== 'GET' && method !== 'HEAD') || /^\/(api|dav)(\/|$)/.test(urlPath)) return next();

    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      decoded = '/';
    }
    const file = path.join(root, decoded);
    if (file.startsWith(root + path.sep) && !decoded.includes('\0')) {
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat?.isFile() && path.basename(file) !== 'index.html') {
        const immutable = decoded.startsWith('/assets/');
        return new Response(
          method === 'HEAD' ? null : (Readable.toWeb(fs.createReadStream(file)) as ReadableStream),
          {
            headers: {
              'Content-Type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
              'Content-Length': String(stat.size),
              'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
              'X-Content-Type-Options': 'nosniff',
            },
          },
        );
      }
    }

    const index = await loadIndex().catch(() => null);
    if (!index) {
      return c.text('The web app is not built yet: run `npm run build`.', 503);
    }
    const head = await options.headFor?.(c);
    const html = head ? index.html.replace('</head>', `${head}</head>`) : index.html;
    return new Response(method === 'HEAD' ? null : html, {
      headers: { 'Content-Type': MIME['.html']!, 'Cache-Control': 'no-cache', ...index.headers },
    });
  };
}
