/**
 * Link-card routes (docs/api.md "Link cards"): GET /api/oembed, GET /api/public/files/:slug/card-image
 * (a public image's picture, never a counted view), and the guard that answers a link-preview
 * fetcher on a share's bytes routes with the share's card instead of its bytes — so a chat app
 * reading a posted download link counts no view, and nobody gets bytes uncounted by calling
 * themselves a robot.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';
import { notFound, notImplemented } from '../../errors/app-error.ts';
import { answer } from '../../http/answer.ts';
import type { AppEnv } from '../../http/context.ts';
import { json } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import { route } from '../../http/route-docs.ts';
import { isLinkPreviewAgent } from '../../lib/link-preview-agents.ts';
import type { FilesService } from '../files/files.service.ts';
import { servingHeaders } from '../files/files.serving.ts';
import type { CardsRepository } from './cards.repository.ts';
import { cardPage, type LinkCards, oembed } from './cards.service.ts';

type OriginConfig = Pick<Config, 'publicUrl' | 'trustProxyHops'>;

const oembedQuery = z.object({
  url: z.string({ error: 'cards.url_required' }).min(1, { message: 'cards.url_required' }).max(2048),
  format: z.string().max(10).optional(),
  maxwidth: z.string().max(10).optional(),
  maxheight: z.string().max(10).optional(),
});

/** The bytes routes of each share kind (`kind` as registered with LinkCards). */
const BYTES_ROUTES: Array<{ path: string; kind: string }> = [
  { path: '/file-view/:slug', kind: 'file' },
  { path: '/file-download/:slug', kind: 'file' },
  { path: '/raw/:slug', kind: 'paste' },
];

export function cardsRoutes(
  cards: LinkCards,
  deps: { repo: CardsRepository; files: FilesService; config: OriginConfig },
) {
  const app = new Hono<AppEnv>();
  const tag = 'Link cards';

  // Registered before the share routes: a preview fetcher gets the card and the route never runs.
  for (const { path, kind } of BYTES_ROUTES) app.use(path, previewAgentsGetCards(cards, kind, deps.config));

  app.get(
    '/oembed',
    route(
      {
        tag,
        summary:
          "oEmbed 1.0 of a share page (`url`; `format` json only): the share's card, a `link`; never counts a view",
        auth: 'none',
        query: oembedQuery,
      },
      async (c, { query }) => {
        if (query.format && query.format !== 'json') throw notImplemented('cards.format_json_only');
        const origin = publicOrigin(c, deps.config);
        let target: URL;
        try {
          target = new URL(query.url);
        } catch {
          throw notFound('cards.not_a_share_page');
        }
        const card = target.origin === origin ? await cards.forPath(target.pathname, origin) : undefined;
        if (!card) throw notFound('cards.not_a_share_page');
        // oEmbed consumers read the object itself, not the API's envelope.
        return json(c, oembed(card, origin), 200, { 'cache-control': 'public, max-age=300' });
      },
    ),
  );

  app.get(
    '/public/files/:slug/card-image',
    route(
      {
        tag,
        summary: `The picture of a public image share's card (no password, no view limit, at most 5 MiB); never counts a view`,
        auth: 'none',
        produces: 'bytes',
      },
      async (c) => {
        const row = await deps.repo.file(c.req.param('slug')!);
        if (!row || !cards.hasCardImage(row)) throw notFound('cards.no_card_image');
        const release = deps.files.beginDelivery(row.id);
        return deps.files.objects.serve(c, row.storage_config_id, {
          path: row.storage_path,
          filename: row.filename,
          serve: servingHeaders(row.filename, row.mimetype, 'view'),
          missing: 'files.object_missing',
          done: release,
        });
      },
    ),
  );

  return app;
}

/** A link-preview fetcher asking a share's bytes route gets the card page; anyone else the route. */
function previewAgentsGetCards(
  cards: LinkCards,
  kind: string,
  config: OriginConfig,
): MiddlewareHandler<AppEnv> {
  return async (c: Context<AppEnv>, next) => {
    if (!isLinkPreviewAgent(c.req.header('user-agent'))) return next();
    const origin = publicOrigin(c, config);
    const card = await cards.forShare(kind, c.req.param('slug') ?? '', origin);
    if (!card) return next();
    return answer(c, c.req.method === 'HEAD' ? null : cardPage(card, origin), 200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
  };
}
