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

/** Whether a share can still be opened: revoked by its owner first, then expiry, then its view limit. */
export type ShareState = 'active' | 'expired' | 'used_up' | 'revoked';

/** Most files in one paste (docs/api.md, "Multi-file pastes"). */
export const PASTE_MAX_FILES = 20;
export const PASTE_TITLE_MAX = 200;
export const PASTE_FILE_NAME_MAX = 100;

/** The languages a paste file may name: the ones the web app highlights, plus plain text and Markdown. */
export const PASTE_LANGUAGES = [
  'text',
  'markdown',
  'bash',
  'c',
  'cpp',
  'css',
  'diff',
  'go',
  'java',
  'javascript',
  'json',
  'python',
  'rust',
  'sql',
  'typescript',
  'xml',
  'yaml',
] as const;
export type PasteLanguage = (typeof PASTE_LANGUAGES)[number];

/**
 * A paste file's name: shown, and offered as the download name of its raw text, so no path
 * separators, control characters, or names of the dot folders.
 */
export const pasteFileNameSchema = z
  .string({ error: 'paste_file_name_invalid' })
  .trim()
  .min(1, { message: 'paste_file_name_invalid' })
  .max(PASTE_FILE_NAME_MAX, { message: 'paste_file_name_invalid' })
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name) && name !== '.' && name !== '..', {
    message: 'paste_file_name_invalid',
  });

/** Several named files; names unique (case-insensitively, as a downloaded set would need). */
export const pasteFilesSchema = z
  .array(
    z.object({
      name: pasteFileNameSchema,
      language: z.enum(PASTE_LANGUAGES, { error: 'paste_language_invalid' }).nullish(),
      content: z.string({ error: 'content_required' }),
    }),
    { error: 'paste_files_invalid' },
  )
  .min(1, { message: 'paste_files_invalid' })
  .max(PASTE_MAX_FILES, { message: 'paste_files_too_many' })
  .refine((files) => new Set(files.map((f) => f.name.toLowerCase())).size === files.length, {
    message: 'paste_file_names_repeat',
  })
  .refine((files) => files.some((f) => f.content.trim() !== ''), { message: 'content_required' });

/** CloudPaste clients send booleans; some send 0/1. */
const publicFlagSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'is_public_invalid' })
  .transform((v) => v === true || v === 1);

const pasteTitleSchema = z.string().trim().max(PASTE_TITLE_MAX, { message: 'title_too_long' }).nullish();

/** An optional expiry: an ISO date-time, or null / "" for none. */
export const optionalExpirySchema = z.union(
  [z.null(), z.literal(''), z.iso.datetime({ offset: true, error: 'invalid_expiry' })],
  { error: 'invalid_expiry' },
);

const pasteContentSchema = z
  .string({ error: 'content_required' })
  .refine((c) => c.trim() !== '', { message: 'content_required' });

/** `content` for a one-file paste (as CloudPaste 0.6), or `files` for several. */
export const pasteCreateSchema = z
  .object({
    content: pasteContentSchema.optional(),
    files: pasteFilesSchema.optional(),
    title: pasteTitleSchema,
    is_public: publicFlagSchema.optional(),
    remark: z.string().max(500, { message: 'remark_too_long' }).nullish(),
    slug: z.union([z.literal(''), z.null(), slugSchema]).optional(),
    password: z.string().max(200).nullish(),
    expiresAt: optionalExpirySchema.optional(),
    maxViews: maxViewsSchema.optional(),
    format: z.enum(PASTE_FORMATS).optional(),
  })
  .refine((input) => input.content !== undefined || input.files !== undefined, {
    message: 'content_required',
    path: ['content'],
  });

export const pasteUpdateSchema = z.object({
  content: pasteContentSchema.optional(),
  /** Replaces every file of the paste. */
  files: pasteFilesSchema.optional(),
  title: pasteTitleSchema,
  is_public: publicFlagSchema.optional(),
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
  title: string | null;
  is_public: boolean;
  /** Present on a paste made of named files (`files` on create): each file, in order. */
  files?: PasteFile[];
}

/** One named file of a paste. */
export interface PasteFile {
  name: string;
  language: PasteLanguage;
  content: string;
}

/** A listed public paste (GET /api/public/pastes): never its content. */
export interface PublicPasteItem {
  slug: string;
  title: string | null;
  created_at: string;
  languages: PasteLanguage[];
  /** UTF-8 bytes of all its text. */
  size: number;
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
  title: string | null;
  is_public: boolean;
  revoked_at: string | null;
  /** How many named files it holds; 0 for a paste of one unnamed text. */
  file_count: number;
  content_preview: string;
  size: number;
  created_by: string | null;
  key_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface PasteDetail extends PasteSummary {
  content: string;
  files?: PasteFile[];
}
