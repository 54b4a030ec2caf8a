/**
 * Share policy (docs/api.md, "Share policy"): the limits an admin sets once for every new or changed
 * share, whichever door it comes through. The server enforces them (modules/shares/share-policy.ts);
 * GET /api/public/share-policy hands them to the upload forms, which show them and refuse a file the
 * policy refuses before a byte is sent (`fileRefusal` below, the rule both sides apply).
 */
import { z } from 'zod';
import { canonicalType, typeAllowed, UPLOAD_REQUEST_MAX_TYPES } from './upload-requests.ts';

/** Null: no limit (what an absent setting means). */
export interface SharePolicy {
  default_expiry_hours: number | null;
  max_expiry_hours: number | null;
  default_max_views: number | null;
  max_views: number | null;
  max_bytes: number | null;
  /** Canonical entries (`.pdf`, `image/*`); empty allows every type. */
  allowed_types: string[];
  keys_may_make_permanent: boolean;
  keys_may_make_unprotected: boolean;
}

export const NO_SHARE_POLICY: SharePolicy = {
  default_expiry_hours: null,
  max_expiry_hours: null,
  default_max_views: null,
  max_views: null,
  max_bytes: null,
  allowed_types: [],
  keys_may_make_permanent: true,
  keys_may_make_unprotected: true,
};

/** Ten years of hours: the longest expiry a policy may name. */
export const SHARE_POLICY_MAX_HOURS = 87_600;
export const SHARE_POLICY_MAX_VIEWS = 1_000_000;

/** The entries of an `allowed_types` text (commas, spaces or newlines between them). */
export function splitAllowedTypes(text: string): string[] {
  return text.split(/[\s,]+/).filter((t) => t !== '');
}

/** A limit: a positive whole number, or null to remove it. */
const limit = (message: string, max: number) =>
  z
    .number({ error: message })
    .int({ message })
    .min(1, { message })
    .max(max, { message })
    .nullable()
    .optional();

/** The share-policy fields of PUT /api/admin/system-settings (its group `share_policy`). */
export const sharePolicyUpdateFields = {
  share_default_expiry_hours: limit('share_policy_hours_invalid', SHARE_POLICY_MAX_HOURS),
  share_max_expiry_hours: limit('share_policy_hours_invalid', SHARE_POLICY_MAX_HOURS),
  share_default_max_views: limit('share_policy_views_invalid', SHARE_POLICY_MAX_VIEWS),
  share_max_views: limit('share_policy_views_invalid', SHARE_POLICY_MAX_VIEWS),
  share_max_bytes: limit('share_policy_bytes_invalid', Number.MAX_SAFE_INTEGER),
  /** Extensions or MIME patterns as upload requests spell them (canonicalType); "" allows all. */
  share_allowed_types: z
    .string({ error: 'share_policy_types_invalid' })
    .max(UPLOAD_REQUEST_MAX_TYPES * 101, { message: 'share_policy_types_invalid' })
    .refine(
      (text) => {
        const entries = splitAllowedTypes(text);
        return entries.length <= UPLOAD_REQUEST_MAX_TYPES && entries.every((e) => canonicalType(e) !== null);
      },
      { message: 'share_policy_types_invalid' },
    )
    .optional(),
  keys_may_make_permanent: z.boolean({ error: 'keys_may_make_permanent_invalid' }).optional(),
  keys_may_make_unprotected: z.boolean({ error: 'keys_may_make_unprotected_invalid' }).optional(),
};

/** A default above its maximum could never be used: refused (the same fields, as stored after the change). */
export function policyDefaultsFit(
  policy: Pick<SharePolicy, 'default_expiry_hours' | 'max_expiry_hours' | 'default_max_views' | 'max_views'>,
): 'share_default_expiry_hours' | 'share_default_max_views' | null {
  const over = (value: number | null, max: number | null) => value !== null && max !== null && value > max;
  if (over(policy.default_expiry_hours, policy.max_expiry_hours)) return 'share_default_expiry_hours';
  if (over(policy.default_max_views, policy.max_views)) return 'share_default_max_views';
  return null;
}

/** Why the policy refuses a file of this name and size (the limit, in bytes; the types allowed); null when it does not. */
export function fileRefusal(
  policy: Pick<SharePolicy, 'max_bytes' | 'allowed_types'>,
  file: { name: string; size?: number | undefined },
): { reason: 'too_large'; limit: number } | { reason: 'type_not_allowed'; types: string } | null {
  if (policy.max_bytes !== null && file.size !== undefined && file.size > policy.max_bytes) {
    return { reason: 'too_large', limit: policy.max_bytes };
  }
  if (!typeAllowed(file.name, policy.allowed_types)) {
    return { reason: 'type_not_allowed', types: policy.allowed_types.join(', ') };
  }
  return null;
}

/** The system-settings update that removes every limit of the share policy (today's behaviour). */
export const CLEAR_SHARE_POLICY = {
  share_default_expiry_hours: null,
  share_max_expiry_hours: null,
  share_default_max_views: null,
  share_max_views: null,
  share_max_bytes: null,
  share_allowed_types: '',
  keys_may_make_permanent: true,
  keys_may_make_unprotected: true,
} as const;
