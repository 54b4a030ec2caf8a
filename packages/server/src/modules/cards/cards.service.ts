/**
 * Link cards (docs/api.md "Link cards"): the OpenGraph, Twitter card and oEmbed description of a
 * share page, so a link posted in a chat app shows a card.
 *
 * A card is built from the share's database row alone — never a storage call, never a counted view
 * — and says no more than a stranger may know: a protected share's card says only that it is
 * protected (no name, no size); an expired, used-up or unknown one says it is unavailable. Only a
 * public image (no password, no view limit, a raster type, at most CARD_IMAGE_MAX_BYTES) gets a
 * picture, served by GET /api/public/files/:slug/card-image without counting a view: a share with
 * a view limit gets none, as every fetch of its bytes is a view its owner counts.
 *
 * Share kinds plug in by page: `register(kind, '/paste/:slug', load)` (one line per kind in app.ts).
 */
import { formatBytes } from '@cubby/shared';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml } from '../../lib/html.ts';
import { shareState } from '../shares/share-rules.ts';
import { servingHeaders } from '../files/files.serving.ts';
import type { CardRow, CardsRepository, FileCardRow } from './cards.repository.ts';

/** The largest image a card shows (chat apps refuse bigger ones: Twitter and Discord take 5 MB). */
export const CARD_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const SITE_NAME = 'Cubby';
/** Raster types every preview fetcher draws (SVG never: it is a document that may run script). */
const CARD_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export type CardStatus = 'open' | 'protected' | 'unavailable';

/** What the card of a share that cannot be shown says: nothing of the share itself. */
const CLOSED_CARDS: Record<Exclude<CardStatus, 'open'>, { title: string; description: string }> = {
  protected: {
    title: 'Protected share',
    description: 'This share is protected by a password. Open the link to enter it.',
  },
  unavailable: {
    title: 'Share unavailable',
    description: 'This link has expired, has been used up, or does not exist.',
  },
};

/** What a share tells a card, in the units it shows them. */
export interface ShareFacts {
  status: CardStatus;
  /** For an open share only. */
  title?: string;
  what?: string;
  size?: number;
  type?: string;
  expiresAt?: string | null;
  /** Path (on this origin) of the picture of a public image. */
  imagePath?: string;
}

/** A share page's card, ready to be written as tags or oEmbed. */
export interface LinkCard {
  kind: string;
  status: CardStatus;
  title: string;
  description: string;
  /** The share page's absolute URL. */
  url: string;
  image?: string;
}

type Loader = (slug: string) => Promise<ShareFacts>;

interface CardPage {
  kind: string;
  prefix: string;
  load: Loader;
}

export class LinkCards {
  private readonly pages: CardPage[] = [];

  constructor(private readonly clock: Clock) {}

  /** A share kind whose page is `pattern` (one `:slug` segment at its end, as the web app names it). */
  register(kind: string, pattern: string, load: Loader): this {
    if (!pattern.endsWith('/:slug')) throw new Error(`a card page ends with /:slug: ${pattern}`);
    this.pages.push({ kind, prefix: pattern.slice(0, -':slug'.length), load });
    return this;
  }

  /** The card of the share page at `pathname`; undefined for any other page. */
  async forPath(pathname: string, origin: string): Promise<LinkCard | undefined> {
    for (const page of this.pages) {
      if (!pathname.startsWith(page.prefix)) continue;
      const rest = pathname.slice(page.prefix.length);
      if (!rest || rest.includes('/')) continue;
      let slug: string;
      try {
        slug = decodeURIComponent(rest);
      } catch {
        continue;
      }
      const url = origin + page.prefix + encodeURIComponent(slug);
      return this.card(page.kind, url, origin, await page.load(slug));
    }
    return undefined;
  }

  /** The card of the share of `kind` (a bytes route names its share this way). */
  async forShare(kind: string, slug: string, origin: string): Promise<LinkCard | undefined> {
    const page = this.pages.find((p) => p.kind === kind);
    if (!page) return undefined;
    return this.forPath(page.prefix + encodeURIComponent(slug), origin);
  }

  /** Whether a share row may be shown (and which way), by the rules every share kind follows. */
  status(row: CardRow | undefined): CardStatus {
    if (!row || shareState(row, this.clock.now()) !== 'active') return 'unavailable';
    return row.password_hash ? 'protected' : 'open';
  }

  /** Whether a file share's bytes may be a card's picture (see above). */
  hasCardImage(row: FileCardRow): boolean {
    return (
      this.status(row) === 'open' &&
      row.max_views === 0 &&
      row.size <= CARD_IMAGE_MAX_BYTES &&
      CARD_IMAGE_TYPES.has(servingHeaders(row.filename, row.mimetype, 'view').contentType)
    );
  }

  private card(kind: string, url: string, origin: string, facts: ShareFacts): LinkCard {
    if (facts.status !== 'open') return { kind, url, status: facts.status, ...CLOSED_CARDS[facts.status] };
    const expiry = facts.expiresAt
      ? `expires ${facts.expiresAt.slice(0, 16).replace('T', ' ')} UTC`
      : 'never expires';
    const parts = [facts.what, facts.size === undefined ? undefined : formatBytes(facts.size), facts.type];
    return {
      kind,
      status: 'open',
      url,
      title: facts.title ?? SITE_NAME,
      description: [...parts.filter(Boolean), expiry].join(' · '),
      ...(facts.imagePath ? { image: origin + facts.imagePath } : {}),
    };
  }
}

/**
 * A share kind's card loader: `find` reads its row, `describe` says what an open one shows (a
 * protected or unavailable share shows nothing of its own, whatever its kind).
 */
function shareCards<R extends CardRow>(
  cards: LinkCards,
  find: (slug: string) => Promise<R | undefined>,
  describe: (row: R) => Omit<ShareFacts, 'status'>,
): Loader {
  return async (slug) => {
    const row = await find(slug);
    const status = cards.status(row);
    return status === 'open' && row
      ? { status, expiresAt: row.expires_at, size: row.size, ...describe(row) }
      : { status };
  };
}

/** Text shares: their remark (or slug) as the title, their format as the type. */
export const pasteCards = (repo: CardsRepository, cards: LinkCards): Loader =>
  shareCards(
    cards,
    (slug) => repo.paste(slug),
    (row) => ({
      title: row.title || row.remark || `Text share ${row.slug}`,
      what: 'Text',
      type: row.format,
    }),
  );

/** File shares: the file's name and type; a public image gets its picture. */
export const fileCards = (repo: CardsRepository, cards: LinkCards): Loader =>
  shareCards(
    cards,
    (slug) => repo.file(slug),
    (row) => ({
      title: row.filename,
      what: 'File',
      type: row.mimetype,
      ...(cards.hasCardImage(row)
        ? { imagePath: `/api/public/files/${encodeURIComponent(row.slug)}/card-image` }
        : {}),
    }),
  );

/** Bundles: their title and how many items they list. */
export const bundleCards = (repo: CardsRepository, cards: LinkCards): Loader =>
  shareCards(
    cards,
    (slug) => repo.bundle(slug),
    (row) => ({
      title: row.title || `Bundle ${row.slug}`,
      what: 'Bundle',
      type: row.items === 1 ? '1 item' : `${row.items} items`,
    }),
  );

/** Folder shares: their title, else the folder's name, as the share page shows it. */
export const folderCards = (repo: CardsRepository, cards: LinkCards): Loader =>
  shareCards(
    cards,
    // A deleted folder's link is gone for good (its page answers 410).
    async (slug) => {
      const row = await repo.folder(slug);
      return row && row.folder_gone_at === null ? row : undefined;
    },
    (row) => ({
      title: row.title || row.virtual_path.split('/').filter(Boolean).pop() || `Folder ${row.slug}`,
      what: 'Folder',
    }),
  );

/** The oEmbed discovery URL of a share page. */
export function oembedUrl(origin: string, pageUrl: string): string {
  return `${origin}/api/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
}

/** The <head> tags of a card: OpenGraph, Twitter card and oEmbed discovery. */
export function cardTags(card: LinkCard, origin: string): string {
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  const tags = [
    meta('property', 'og:title', card.title),
    meta('property', 'og:description', card.description),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:url', card.url),
    meta('property', 'og:type', 'website'),
    meta('name', 'twitter:card', card.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', card.title),
    meta('name', 'twitter:description', card.description),
    meta('name', 'description', card.description),
  ];
  if (card.image) {
    tags.push(meta('property', 'og:image', card.image), meta('name', 'twitter:image', card.image));
  }
  tags.push(
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembedUrl(origin, card.url))}" title="${escapeHtml(card.title)}">`,
  );
  return tags.join('');
}

/** A page of the card alone: what a preview fetcher gets from a share's bytes route. */
export function cardPage(card: LinkCard, origin: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(card.title)}</title>${cardTags(card, origin)}</head><body></body></html>`;
}

/**
 * oEmbed 1.0 (https://oembed.com): always a `link` — a `photo` (or a thumbnail) must state the
 * picture's size in pixels, which only reading the image would tell; the page's og:image shows it.
 */
export function oembed(card: LinkCard, origin: string) {
  return {
    version: '1.0',
    type: 'link',
    title: card.title,
    description: card.description,
    provider_name: SITE_NAME,
    provider_url: origin + '/',
    cache_age: 300,
  };
}
