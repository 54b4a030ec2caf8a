/**
 * Bundles (docs/api.md "Bundles"): one link for several file shares, pastes and mount files. The
 * request shapes server and web both check, and the answers the web reads.
 */
import { z } from 'zod';
import { maxViewsSchema, type ShareState } from './shares.ts';

/** Most items in one bundle (a zip of them stays one request's bounded work). */
export const BUNDLE_MAX_ITEMS = 1000;
export const BUNDLE_TITLE_MAX = 200;
/** expires_in is in hours, as for pastes and uploads; 100 years at most. */
export const BUNDLE_MAX_EXPIRES_HOURS = 876_000;

/** What an item names: a file share's slug, a paste's slug, or a file's path in the mounts. */
export const BUNDLE_ITEM_TYPES = ['file', 'paste', 'path'] as const;
export type BundleItemType = (typeof BUNDLE_ITEM_TYPES)[number];

export const bundleItemSchema = z.object(
  {
    type: z.enum(BUNDLE_ITEM_TYPES, { error: 'bundle_item_invalid' }),
    value: z
      .string({ error: 'bundle_item_invalid' })
      .trim()
      .min(1, { message: 'bundle_item_invalid' })
      .max(4096, { message: 'bundle_item_invalid' }),
  },
  { error: 'bundle_item_invalid' },
);
export type BundleItemInput = z.infer<typeof bundleItemSchema>;

const itemsSchema = z
  .array(bundleItemSchema, { error: 'bundle_items_required' })
  .min(1, { message: 'bundle_items_required' })
  .max(BUNDLE_MAX_ITEMS, { message: 'bundle_too_many_items' });

const titleSchema = z
  .string()
  .trim()
  .max(BUNDLE_TITLE_MAX, { message: 'bundle_title_too_long' })
  .nullish()
  .transform((v) => v || null);

const expiresInSchema = z
  .number({ error: 'expires_in_invalid' })
  .min(0, { message: 'expires_in_invalid' })
  .max(BUNDLE_MAX_EXPIRES_HOURS, { message: 'expires_in_invalid' });

/** POST /api/bundles. */
export const bundleCreateSchema = z.object({
  items: itemsSchema,
  title: titleSchema.optional(),
  password: z.string().max(200).nullish(),
  /** Hours from now; 0 or absent for never. */
  expires_in: expiresInSchema.optional(),
  max_views: maxViewsSchema.optional(),
});
export type BundleCreateInput = z.input<typeof bundleCreateSchema>;

/** PUT /api/bundles/:slug; every field optional. */
export const bundleUpdateSchema = z.object({
  /** Replaces every item. */
  items: itemsSchema.optional(),
  title: titleSchema.optional(),
  /** A new password; "", null or false removes it. */
  password: z.union([z.string().max(200), z.null(), z.literal(false)]).optional(),
  /** Hours from now; 0 for never. */
  expires_in: expiresInSchema.optional(),
  max_views: maxViewsSchema.optional(),
});
export type BundleUpdateInput = z.input<typeof bundleUpdateSchema>;

export type BundleState = ShareState;

/** One item of a bundle as its public page shows it. */
export interface BundleItemView {
  /** The item's position: `/api/public/bundles/:slug/items/:n`. */
  n: number;
  kind: 'file' | 'paste' | 'mount';
  /** Unique within the bundle (the zip's entry name). */
  name: string;
  size: number;
  /** The type it is served with. */
  type: string;
  /** A paste's format. */
  format?: 'markdown' | 'text';
  preview_url: string;
  download_url: string;
}

/** GET /api/public/bundles/:slug and its verify. Items and links are absent while a password is needed. */
export interface BundleView {
  slug: string;
  title: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  has_password: boolean;
  requires_password: boolean;
  created_at: string;
  items?: BundleItemView[];
  total_size?: number;
  zip_url?: string;
  /** The visit's token (good for FILE_TOKEN_TTL: 30 minutes), carried by every link above. */
  token?: string;
}

/** A bundle in its owner's list. */
export interface BundleSummary {
  id: string;
  slug: string;
  url: string;
  title: string | null;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  state: BundleState;
  item_count: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

/** GET /api/bundles/:slug for its owner: the summary and what its items name. */
export interface BundleDetail extends BundleSummary {
  items: Array<{
    position: number;
    kind: 'file' | 'paste' | 'mount';
    ref: string;
    name: string;
    /** The item as a PUT names it (`{type, value}`); `value` is null for a share that is gone. */
    type: BundleItemType;
    value: string | null;
  }>;
}
