/**
 * The share policy's limits, shown near a form's share options before the user starts (docs/api.md,
 * "Share policy"): "Expires within 7 days at most · at most 100 views · up to 100 MB · only .pdf, .jpg".
 * Nothing when no limit is set.
 */
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { useSharePolicy } from '../api/share-policy.ts';

export function SharePolicyNote({
  className = '',
  types = true,
}: {
  className?: string;
  /** Whether the allowed file types are named (not where no file is shared). */
  types?: boolean;
}) {
  const { t } = useTranslation();
  const policy = useSharePolicy();
  if (!policy) return null;
  const hours = policy.max_expiry_hours;
  const parts = [
    hours !== null &&
      (hours % 24 === 0
        ? t('sharePolicy.note.expiryDays', { count: hours / 24 })
        : t('sharePolicy.note.expiryHours', { count: hours })),
    policy.max_views !== null && t('sharePolicy.note.views', { count: policy.max_views }),
    policy.max_bytes !== null && t('sharePolicy.note.size', { size: formatBytes(policy.max_bytes) }),
    types &&
      policy.allowed_types.length > 0 &&
      t('sharePolicy.note.types', { types: policy.allowed_types.join(', ') }),
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0) return null;
  return (
    <p className={`text-sm text-fg-muted ${className}`} data-testid="share-policy-note">
      {/* One element a limit: each is its own translated text (the key-mode walk reads them so). */}
      {parts.map((part, index) => (
        <Fragment key={part}>
          {index > 0 && ' · '}
          <span>{part}</span>
        </Fragment>
      ))}
    </p>
  );
}
