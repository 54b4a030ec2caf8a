/**
 * Input rules for API keys (docs/product.md §5, §7 "API keys"), used by the server to validate and by the
 * web form to give the same answers inline.
 */
import { z } from 'zod';
import { normalizePath } from './paths.ts';

export const API_KEY_NAME_MAX = 50;
export const CUSTOM_KEY_MIN = 16;
export const CUSTOM_KEY_MAX = 128;
export const CUSTOM_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Far-future expiry recorded for keys that never expire (the reference client shows year ≥ 9999 as "never"). */
export const NEVER_EXPIRES = '9999-12-31T23:59:59.000Z';

export const basicPathSchema = z
  .string()
  .trim()
  .min(1)
  .transform((value, ctx) => {
    const normalized = normalizePath(value.startsWith('/') ? value : '/' + value);
    if (normalized === null) {
      ctx.addIssue({ code: 'custom', message: 'invalid_path' });
      return z.NEVER;
    }
    return normalized;
  });

export const customKeySchema = z
  .string()
  .min(CUSTOM_KEY_MIN, { message: 'custom_key_too_short' })
  .max(CUSTOM_KEY_MAX, { message: 'custom_key_too_long' })
  .regex(CUSTOM_KEY_PATTERN, { message: 'custom_key_invalid' });

/** `expires_at`: an ISO date, or `null` / `"never"` for a key that never expires. */
export const expiresAtSchema = z.union(
  [z.null(), z.literal('never'), z.iso.datetime({ offset: true, error: 'invalid_expiry' })],
  {
    error: 'invalid_expiry',
  },
);

/** Accepts the reference client's booleans and the 0/1 integers some clients send. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);

export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: 'name_required' })
    .trim()
    .min(1, { message: 'name_required' })
    .max(API_KEY_NAME_MAX),
  expires_at: expiresAtSchema.optional(),
  text_permission: flag.optional(),
  file_permission: flag.optional(),
  mount_permission: flag.optional(),
  custom_key: z.union([z.null(), z.literal(''), customKeySchema]).optional(),
  basic_path: basicPathSchema.optional(),
});

export const apiKeyUpdateSchema = z.object({
  name: z
    .string({ error: 'name_required' })
    .trim()
    .min(1, { message: 'name_required' })
    .max(API_KEY_NAME_MAX)
    .optional(),
  expires_at: z.union([expiresAtSchema, z.literal('')]).optional(),
  text_permission: flag.optional(),
  file_permission: flag.optional(),
  mount_permission: flag.optional(),
  basic_path: basicPathSchema.optional(),
});

export type ApiKeyCreateInput = z.input<typeof apiKeyCreateSchema>;
export type ApiKeyUpdateInput = z.input<typeof apiKeyUpdateSchema>;

/** An API key as lists show it: never the key itself, only a masked form. */
export interface ApiKeyView {
  id: string;
  name: string;
  key_masked: string;
  text_permission: boolean;
  file_permission: boolean;
  mount_permission: boolean;
  basic_path: string;
  created_at: string;
  expires_at: string;
  last_used: string | null;
  /** The person the key belongs to (docs/accounts.md); null for a key older than accounts. */
  owner_id: string | null;
  /** Their username, in an admin's list. */
  owner_name?: string | null;
}
