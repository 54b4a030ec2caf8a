/**
 * The share policy on the web forms (docs/api.md, "Share policy"): the expiry preset its default
 * hours match, and what a file the policy refuses is told (the server's own words, in locales).
 */
import { fileRefusal, formatBytes, type SharePolicy } from '@cubby/shared';
import type { UploadSettingsValues } from './upload-form.ts';

const PRESETS = { '1h': 1, '1d': 24, '7d': 168, '30d': 720 } as const;
export type ExpiryPreset = keyof typeof PRESETS;

/** The preset of `hours`, or null when none is exactly that long. */
export function expiryPresetOf(hours: number): ExpiryPreset | null {
  return (Object.keys(PRESETS) as ExpiryPreset[]).find((preset) => PRESETS[preset] === hours) ?? null;
}

/** Why the policy refuses this file, as a locale key and its values; null when it does not. */
export function policyRefusal(
  policy: SharePolicy | null,
  file: { name: string; size: number | null },
):
  | { key: 'upload.errors.policyTooLarge'; values: { limit: string; size: string } }
  | { key: 'upload.errors.policyType'; values: { name: string; types: string } }
  | null {
  if (!policy) return null;
  const refusal = fileRefusal(policy, { name: file.name, size: file.size ?? undefined });
  if (refusal?.reason === 'too_large') {
    return {
      key: 'upload.errors.policyTooLarge',
      values: { limit: formatBytes(refusal.limit), size: formatBytes(file.size ?? 0) },
    };
  }
  if (refusal?.reason === 'type_not_allowed') {
    return { key: 'upload.errors.policyType', values: { name: file.name, types: refusal.types } };
  }
  return null;
}

/**
 * The largest file a share upload may be: the largest upload, or the policy's largest share when
 * smaller; null while neither is known.
 */
export function largestFile(maxBytes: number | null, policy: SharePolicy | null): number | null {
  const shareMax = policy?.max_bytes ?? null;
  if (shareMax === null) return maxBytes;
  return maxBytes === null ? shareMax : Math.min(maxBytes, shareMax);
}

/** The upload settings the policy's defaults preselect (nothing for a default it does not set). */
export function uploadDefaults(policy: SharePolicy): Partial<UploadSettingsValues> {
  const out: Partial<UploadSettingsValues> = {};
  const hours = policy.default_expiry_hours;
  if (hours !== null) {
    const preset = expiryPresetOf(hours);
    Object.assign(out, preset ? { expiry: preset } : { expiry: 'custom', customHours: String(hours) });
  }
  if (policy.default_max_views !== null) out.maxViews = String(policy.default_max_views);
  return out;
}
