/**
 * URL upload, the server-side fetches: POST /api/url/info (what a URL would deliver) and
 * GET /api/url/proxy?url= (its bytes, for browsers the source's CORS policy keeps out). Unlike
 * CloudPaste both need credentials with `file`, every fetch goes through safeFetch (no internal
 * addresses unless allowlisted), and the proxy serves the bytes as a sandboxed attachment limited to
 * the largest upload size, so nothing it relays can run on our origin.
 */
import type { ServerResponse } from 'node:http';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AppEnv } from '../../http/context.ts';
import { ok } from '../../http/envelope.ts';
import { route } from '../../http/route-docs.ts';
import { type Resolver, type SafeResponse, safeFetch, UrlFetchError } from '../../lib/safe-fetch.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { contentTypeFor, filenameFor, probeUrl, urlFetchAppError } from './url-probe.ts';

const infoBody = z.object({
  url: z.string({ error: 'url_required' }).trim().min(1, { message: 'url_required' }).max(8192),
});
const proxyQuery = z.object({
  url: z.string({ error: 'url_required' }).trim().min(1, { message: 'url_required' }).max(8192),
});

const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+\s*(;.*)?$/;

export interface UrlUploadOptions {
  /** Tests resolve host names themselves. */
  resolver?: Resolver;
}

/**
 * The source's bytes on their way to the client. When the source fails midway (over the limit, stalled,
 * cut), the failure is logged and the client's connection is cut, so the download reads as broken
 * rather than complete; without a Node response (tests) the stream errors instead.
 */
function relay(
  body: ReadableStream<Uint8Array>,
  log: Logger | undefined,
  outgoing: ServerResponse | undefined,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        log?.warn({ code: (error as UrlFetchError).code }, 'url proxy: the source failed midway');
        if (outgoing) outgoing.destroy();
        else controller.error(error);
      }
    },
    cancel(reason) {
      reader.cancel(reason).catch(() => {});
    },
  });
}

export function urlUploadRoutes(settings: SettingsService, options: UrlUploadOptions = {}) {
  const app = new Hono<AppEnv>();
  const limits = async () => ({
    allowlist: await settings.urlAllowlist(),
    maxBytes: await settings.maxUploadBytes(),
  });

  const tag = 'URL upload';

  app.post(
    '/url/info',
    route(
      {
        tag,
        summary: 'What a URL would deliver: name, type, size (fetched by the server, SSRF-guarded)',
        auth: 'file',
        body: infoBody,
      },
      async (c, { body: { url } }) => {
        const { allowlist, maxBytes } = await limits();
        try {
          const info = await probeUrl(url, {
            allowlist,
            maxBytes,
            origin: c.req.header('origin') ?? new URL(c.req.url).origin,
            signal: c.req.raw.signal,
            resolver: options.resolver,
          });
          return ok(c, 'url.info_ok', info);
        } catch (error) {
          throw urlFetchAppError(error, maxBytes);
        }
      },
    ),
  );

  app.get(
    '/url/proxy',
    route(
      {
        tag,
        summary: "A URL's bytes, as a sandboxed attachment, for browsers its CORS policy keeps out",
        auth: 'file',
        query: proxyQuery,
        produces: 'bytes',
      },
      async (c, { query: { url } }) => {
        const { allowlist, maxBytes } = await limits();
        let upstream: SafeResponse;
        try {
          upstream = await safeFetch(url, {
            allowlist,
            maxBytes,
            signal: c.req.raw.signal,
            resolver: options.resolver,
          });
          if (upstream.status < 200 || upstream.status >= 300) {
            await upstream.body.cancel();
            throw new UrlFetchError('HTTP_STATUS', `the source answered ${upstream.status}`, upstream.status);
          }
        } catch (error) {
          throw urlFetchAppError(error, maxBytes);
        }
        const filename = filenameFor(upstream.headers.get('content-disposition'), upstream.url);
        const declared = upstream.headers.get('content-type');
        const headers = new Headers({
          'Content-Type': declared && MEDIA_TYPE.test(declared) ? declared : contentTypeFor(null, filename),
          'Content-Disposition': contentDisposition('attachment', filename),
          'Content-Security-Policy': 'sandbox',
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-store',
        });
        const length = upstream.headers.get('content-length');
        if (length && /^\d+$/.test(length)) headers.set('Content-Length', length);
        const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
        return new Response(relay(upstream.body, c.get('log'), outgoing), { status: 200, headers });
      },
    ),
  );

  return app;
}
