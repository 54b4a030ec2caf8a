/**
 * Mounts (docs/product.md §3 Mount, §5; docs/compatibility.md §5): a virtual path such as `/photos` that
 * shows the root of one storage config in the file explorer and over WebDAV. The input rules, used by the
 * server to validate and by the web form to answer inline, and the answer shape.
 */
import { STORAGE_KIND_NAME, type StorageKindName } from './storage-fields.ts';
import { z } from 'zod';
import { normalizePath } from './paths.ts';

export const MOUNT_NAME_MAX = 50;
export const MOUNT_PATH_MAX = 100;
export const MOUNT_REMARK_MAX = 500;
export const CACHE_TTL_MAX = 86_400;
export const CACHE_TTL_DEFAULT = 300;
/** Sort orders are small integers; the bound keeps them inside a 32-bit column. */
export const SORT_ORDER_LIMIT = 1_000_000;

/** Paths of the host system a mount may not take (the reference's list). */
export const SYSTEM_RESERVED_MOUNT_PATHS = [
  '/bin',
  '/etc',
  '/lib',
  '/root',
  '/sys',
  '/proc',
  '/dev',
  '/tmp',
  '/opt',
  '/var',
] as const;
/** Paths the app itself uses (the reference's list). */
export const APP_RESERVED_MOUNT_PATHS = [
  '/api',
  '/admin',
  '/user',
  '/auth',
  '/public',
  '/static',
  '/assets',
  '/upload',
] as const;

/** ASCII letters, digits, `_`, `-`, `/`, and any character from U+0080 (Chinese included). */
const MOUNT_PATH_CHARS = /^[A-Za-z0-9_\-/\u0080-\u{10ffff}]+$/u;

/** The reserved prefix a path equals or lies under (case-insensitive), or null. */
export function reservedMountPrefix(path: string): { prefix: string; kind: 'system' | 'app' } | null {
  const lower = path.toLowerCase();
  const hit = (prefix: string) => lower === prefix || lower.startsWith(`${prefix}/`);
  const system = SYSTEM_RESERVED_MOUNT_PATHS.find(hit);
  if (system) return { prefix: system, kind: 'system' };
  const app = APP_RESERVED_MOUNT_PATHS.find(hit);
  return app ? { prefix: app, kind: 'app' } : null;
}

/**
 * A mount path: starts with `/`, no `//`, no trailing `/` (except `/` itself), only the allowed
 * characters, canonical (no `.`/`..` segments), at most 100 characters, not reserved — checked in
 * the reference's order, so a path breaking several rules gets the message it would get there. A
 * reserved path's issue carries the prefix it hit (`params.prefix`) for the message.
 */
export const mountPathSchema = z
  .string({ error: 'mount_path_required' })
  .trim()
  .min(1, { message: 'mount_path_required' })
  .superRefine((path, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!path.startsWith('/')) return fail('mount_path_leading_slash');
    if (path.length > 1 && path.endsWith('/')) return fail('mount_path_trailing_slash');
    if (path.includes('//')) return fail('mount_path_double_slash');
    if (!MOUNT_PATH_CHARS.test(path) || normalizePath(path) !== path) return fail('mount_path_chars');
    if (path.length > MOUNT_PATH_MAX) return fail('mount_path_too_long');
    const reserved = reservedMountPrefix(path);
    if (reserved) {
      ctx.addIssue({
        code: 'custom',
        message: reserved.kind === 'system' ? 'mount_path_system_reserved' : 'mount_path_app_reserved',
        params: { prefix: reserved.prefix },
      });
    }
  });

/** CloudPaste clients send booleans; some send 0/1. */
const activeFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'flag_invalid' })
  .transform((v) => v === true || v === 1);

const nameSchema = z
  .string({ error: 'mount_name_required' })
  .trim()
  .min(1, { message: 'mount_name_required' })
  .max(MOUNT_NAME_MAX, { message: 'mount_name_too_long' });

const cacheTtlSchema = z
  .number({ error: 'cache_ttl_invalid' })
  .int({ message: 'cache_ttl_invalid' })
  .min(0, { message: 'cache_ttl_invalid' })
  .max(CACHE_TTL_MAX, { message: 'cache_ttl_invalid' });

const sortOrderSchema = z
  .number({ error: 'sort_order_invalid' })
  .int({ message: 'sort_order_invalid' })
  .min(-SORT_ORDER_LIMIT, { message: 'sort_order_invalid' })
  .max(SORT_ORDER_LIMIT, { message: 'sort_order_invalid' });

/**
 * `storage_type`: CloudPaste clients send "S3" (the only type they know). It, or any other kind's
 * name, is accepted, or left out; what a mount really is comes from its storage config.
 */
const storageTypeSchema = z
  .string()
  .max(20)
  .refine(
    (v) =>
      v === '' || Object.values(STORAGE_KIND_NAME).some((name) => name.toLowerCase() === v.toLowerCase()),
    { message: 'storage_type_invalid' },
  );

/** How a mount's downloads leave (docs/storage.md, "Download links"). */
export const LINK_POLICIES = ['proxy', 'direct', 'custom_host'] as const;
export type LinkPolicy = (typeof LINK_POLICIES)[number];

const linkPolicySchema = z.enum(LINK_POLICIES, { error: 'link_policy_invalid' });

/** An http(s) address without query or fragment, trailing slashes dropped; "" or null for none. */
const customHostSchema = z
  .union([z.null(), z.string({ error: 'custom_host_invalid' })], { error: 'custom_host_invalid' })
  .transform((value, ctx) => {
    const trimmed = (value ?? '').trim();
    if (trimmed === '') return null;
    let url: URL | null = null;
    try {
      url = new URL(trimmed);
    } catch {
      url = null;
    }
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.search ||
      url.hash ||
      url.username ||
      trimmed.length > 2048
    ) {
      ctx.addIssue({ code: 'custom', message: 'custom_host_invalid' });
      return z.NEVER;
    }
    return trimmed.replace(/\/+$/, '');
  });

const fields = {
  name: nameSchema,
  link_policy: linkPolicySchema.optional(),
  custom_host: customHostSchema.optional(),
  storage_type: storageTypeSchema.nullish(),
  storage_config_id: z
    .string({ error: 'storage_config_required' })
    .trim()
    .min(1, { message: 'storage_config_required' })
    .max(200, { message: 'storage_config_required' }),
  mount_path: mountPathSchema,
  remark: z.string().max(MOUNT_REMARK_MAX, { message: 'remark_too_long' }).nullish(),
  is_active: activeFlag.optional(),
  sort_order: sortOrderSchema.optional(),
  cache_ttl: cacheTtlSchema.optional(),
};

/** A custom-host mount needs its address. */
const hostGiven = (value: {
  link_policy?: LinkPolicy | undefined;
  custom_host?: string | null | undefined;
}) => value.link_policy !== 'custom_host' || Boolean(value.custom_host);
const hostRule = { message: 'custom_host_required', path: ['custom_host'] };

export const mountCreateSchema = z.object(fields).refine(hostGiven, hostRule);
/** Any subset; the server checks the custom host again against the stored mount. */
export const mountUpdateSchema = z.object(fields).partial();

export type MountCreateInput = z.input<typeof mountCreateSchema>;
export type MountUpdateInput = z.input<typeof mountUpdateSchema>;

/**
 * A mount as the API answers it: CloudPaste's fields (`storage_type` "S3" or "Local", from the
 * config), plus the config's name for lists.
 */
export interface Mount {
  id: string;
  name: string;
  storage_type: StorageKindName;
  storage_config_id: string;
  mount_path: string;
  remark: string | null;
  is_active: boolean;
  created_by: string | null;
  sort_order: number;
  cache_ttl: number;
  /** How downloads leave: through this server, straight from the storage, or from `custom_host`. */
  link_policy: LinkPolicy;
  custom_host: string | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
  /** The storage config's name (ours; CloudPaste clients ignore it). */
  storage_config_name: string;
}
