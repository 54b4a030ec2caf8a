/**
 * Folder rules (CloudPaste 1.9's `fs_meta`; docs/architecture.md, "Folder rules"): what the admin
 * sends and what the server answers. A rule never answers its password, only `has_password`.
 */
import { z } from 'zod';

/** Most hide patterns in one rule, and the longest: each is matched against every listed name. */
export const FS_META_MAX_PATTERNS = 100;
export const FS_META_MAX_PATTERN_LENGTH = 200;
/** The longest README (header or footer), in characters. */
export const FS_META_MAX_MARKDOWN = 64 * 1024;
/** The longest folder password. */
export const FS_META_MAX_PASSWORD = 1024;

/** What a hide pattern may not hold: it is matched against one name, so never a `/`. */
const patternSchema = z
  .string({ error: 'hide_pattern_invalid' })
  .trim()
  .min(1, { message: 'hide_pattern_invalid' })
  .max(FS_META_MAX_PATTERN_LENGTH, { message: 'hide_pattern_too_long' })
  .refine((p) => !p.includes('/'), { message: 'hide_pattern_slash' });

const markdown = z
  .string({ error: 'markdown_invalid' })
  .max(FS_META_MAX_MARKDOWN, { message: 'markdown_too_long' })
  .nullish();
const flag = (name: string) => z.boolean({ error: `${name}_invalid` }).optional();

/**
 * A rule as POST /api/fs-meta/create and PUT /api/fs-meta/:id take it. `password`: a new one sets
 * it; `""` or null removes it; absent (or the mask the list shows) keeps the stored one.
 */
export const fsMetaBodySchema = z.object({
  path: z.string({ error: 'path_required' }).min(1, { message: 'path_required' }).max(4096).optional(),
  header_markdown: markdown,
  header_inherit: flag('header_inherit'),
  footer_markdown: markdown,
  footer_inherit: flag('footer_inherit'),
  hide_patterns: z
    .array(patternSchema, { error: 'hide_patterns_invalid' })
    .max(FS_META_MAX_PATTERNS, { message: 'hide_patterns_too_many' })
    .optional(),
  hide_inherit: flag('hide_inherit'),
  password: z.string({ error: 'password_invalid' }).max(FS_META_MAX_PASSWORD).nullish(),
  password_inherit: flag('password_inherit'),
});

export type FsMetaBody = z.input<typeof fsMetaBodySchema>;

/** What a password field shows for a stored password (sending it back keeps that password). */
export const FS_META_PASSWORD_MASK = '********';

/** A rule as the server answers it. */
export interface FsMetaRule {
  id: string;
  path: string;
  header_markdown: string | null;
  header_inherit: boolean;
  footer_markdown: string | null;
  footer_inherit: boolean;
  hide_patterns: string[];
  hide_inherit: boolean;
  has_password: boolean;
  password_inherit: boolean;
  created_at: string;
  updated_at: string;
}

/** POST /api/fs/meta/password/verify's answer (CloudPaste 1.9's fields). */
export interface FsPathPasswordAnswer {
  verified: boolean;
  requiresPassword: boolean;
  token: string | null;
  path: string;
}
