/**
 * The share policy's defaults on Home's paste settings (docs/api.md, "Share policy"): a preset
 * expiry when the default hours match one, else a custom time that many hours from now; the views.
 */
import type { SharePolicy } from '@cubby/shared';
import type { PasteSettingsValues } from '../pastes/index.ts';
import { expiryPresetOf } from '../upload/index.ts';

/** `date` as a datetime-local field's value, in the browser's time zone. */
function localDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function pasteDefaults(policy: SharePolicy, now = Date.now()): Partial<PasteSettingsValues> {
  const out: Partial<PasteSettingsValues> = {};
  const hours = policy.default_expiry_hours;
  if (hours !== null) {
    const preset = expiryPresetOf(hours);
    Object.assign(
      out,
      preset
        ? { expiry: preset }
        : { expiry: 'custom', customExpiry: localDateTime(new Date(now + hours * 3600_000)) },
    );
  }
  if (policy.default_max_views !== null) out.maxViews = String(policy.default_max_views);
  return out;
}
