/**
 * Rules for shares (pastes now, files later) that server and web both apply: the link suffix
 * (slug), view limits and sizes.
 */
import { z } from 'zod';

export const SLUG_MAX = 50;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Suffixes that would shadow a route or confuse a reader; compared case-insensitively. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin',
  'api',
  'assets',
  'dav',
  'file',
  'files',
  'health',
  'index',
  'login',
  'logout',
  'mount-explorer',
  'new',
  'paste',
  'pastes',
  'public',
  'raw',
  'settings',
  'static',
  'upload',
  'user',
  'version',
]);

export const slugSchema = z
  .string({ error: 'slug_invalid' })
  .trim()
  .min(1, { message: 'slug_invalid' })
  .max(SLUG_MAX, { message: 'slug_too_long' })
  .regex(SLUG_PATTERN, { message: 'slug_invalid' })
  .refine((slug) => !RESERVED_SLUGS.has(slug.toLowerCase()), { message: 'slug_reserved' });

/** The largest view limit (it fits the 32-bit integer columns that store it). */
export const MAX_VIEWS = 1_000_000_000;

/** `maxViews`: a whole number from 0 to MAX_VIEWS, where 0 (or null) means unlimited. */
export const maxViewsSchema = z
  .union([z.number(), z.null()], { error: 'max_views_invalid' })
  .transform((v) => v ?? 0)
  .pipe(
    z
      .number()
      .int({ message: 'max_views_invalid' })
      .min(0, { message: 'max_views_invalid' })
      .max(MAX_VIEWS, { message: 'max_views_invalid' }),
  );

/** Largest paste, in UTF-8 bytes. */
export const PASTE_MAX_BYTES = 5 * 1024 * 1024;

export const PASTE_FORMATS = ['markdown', 'text'] as const;
export type PasteFormat = (typeof PASTE_FORMATS)[number];

/** Whether a share can still be opened: expiry first, then its view limit. */
export type ShareState = 'active' | 'expired' | 'used_up';

/** An optional expiry: an ISO date-time, or null / "" for none. */
export const optionalExpirySchema = z.union(
  [z.null(), z.literal(''), z.iso.datetime({ offset: true, error: 'invalid_expiry' })],
  { error: 'invalid_expiry' },
);

export const pasteCreateSchema = z.object({
  content: z
    .string({ error: 'content_required' })
    .refine((c) => c.trim() !== '', { message: 'content_required' }),
  remark: z.string().max(500, { message: 'remark_too_long' }).nullish(),
  slug: z.union([z.literal(''), z.null(), slugSchema]).optional(),
  password: z.string().max(200).nullish(),
  expiresAt: optionalExpirySchema.optional(),
  maxViews: maxViewsSchema.optional(),
  format: z.enum(PASTE_FORMATS).optional(),
});

export const pasteUpdateSchema = z.object({
  content: z
    .string({ error: 'content_required' })
    .refine((c) => c.trim() !== '', { message: 'content_required' })
    .optional(),
  remark: z.string().max(500, { message: 'remark_too_long' }).nullish(),
  expiresAt: optionalExpirySchema.optional(),
  maxViews: maxViewsSchema.optional(),
  password: z.string().max(200).nullish(),
  clearPassword: z.boolean().optional(),
  /** Present: change the slug; empty or null picks a new random one. */
  newSlug: z.union([z.literal(''), z.null(), slugSchema]).optional(),
  format: z.enum(PASTE_FORMATS).optional(),
});

export type PasteCreateInput = z.input<typeof pasteCreateSchema>;
export type PasteUpdateInput = z.input<typeof pasteUpdateSchema>;

/** A paste as the public view route answers it. `content` is absent until the password is given. */
export interface PasteView {
  slug: string;
  content?: string;
  format: PasteFormat;
  remark: string | null;
  hasPassword: boolean;
  requiresPassword?: boolean;
  expiresAt: string | null;
  maxViews: number;
  views: number;
  /** Views left after this one, or null when unlimited. */
  remainingViews: number | null;
  createdAt: string;
  updatedAt: string;
  created_by: string | null;
}

/** A paste as management lists show it. */
export interface PasteSummary {
  id: string;
  slug: string;
  remark: string | null;
  format: PasteFormat;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  view_count: number;
  status: ShareState;
  content_preview: string;
  size: number;
  created_by: string | null;
  key_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface PasteDetail extends PasteSummary {
  content: string;
}
