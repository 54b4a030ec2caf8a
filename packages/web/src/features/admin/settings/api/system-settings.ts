/**
 * GET and PUT /admin/system-settings: the largest upload (bytes; sent back as a number and a unit),
 * the WebDAV upload mode, the URL-upload allowlist, whether Office preview is on and whether uploads
 * into mounts publish file shares, how many days the audit log keeps entries, and who must sign in
 * with two factors. The server answers a list of `{key, value}` rows (CloudPaste's
 * shape); this turns it into one typed object.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_MAX_UPLOAD_BYTES,
  TWO_FACTOR_POLICIES,
  WEBDAV_UPLOAD_MODES,
  type TwoFactorPolicy,
  type systemSettingsUpdateSchema,
} from '@cubby/shared';
import type { z } from 'zod';
import { api } from '../../../../lib/api/index.ts';
import { maxUploadSizeQueryOptions, sharePolicyQueryOptions } from '../../../upload/index.ts';
import { refreshAfterChange } from '../../../../lib/query/refresh.ts';

export type WebdavUploadMode = (typeof WEBDAV_UPLOAD_MODES)[number];
export type SystemSettingsUpdate = z.input<typeof systemSettingsUpdateSchema>;

export interface SystemSettings {
  maxUploadBytes: number;
  webdavUploadMode: WebdavUploadMode;
  /** One entry per line. */
  urlAllowlist: string;
  /** File pages offer Office preview (sends the file to Microsoft's online viewer). */
  officePreviewEnabled: boolean;
  /** Whether public pastes are listed at /pastes/public (docs/api.md, "Public pastes"). */
  publicPastesEnabled: boolean;
  /** Uploads into mounts through the explorer or the API publish a file share (on unless turned off). */
  fsUploadShare: boolean;
  /** Uploads into mounts over WebDAV publish a file share (off unless turned on). */
  webdavUploadShare: boolean;
  /** Days the audit log keeps an entry; 0 keeps every entry. */
  auditRetentionDays: number;
  /** Who must sign in with two factors (docs/accounts.md "Two-factor sign-in"). */
  requireTwoFactor: TwoFactorPolicy;
  /** Signed-out visitors browse the guest folders (docs/accounts.md "Guests"). */
  guestEnabled: boolean;
  /** The guest folders, one per line. */
  guestPaths: string;
  /** Guests may also write there. */
  guestWrite: boolean;
}

interface SettingRow {
  key: string;
  value: string;
}

export const systemSettingsKeys = {
  all: ['system-settings'] as const,
  detail: () => [...systemSettingsKeys.all, 'detail'] as const,
};

/** The settings from the server's rows; unknown or missing values fall back to the defaults. */
export function toSystemSettings(rows: unknown): SystemSettings {
  const list = Array.isArray(rows) ? (rows as SettingRow[]) : [];
  const value = (key: string) => list.find((row) => row?.key === key)?.value;
  const bytes = Number(value('max_upload_bytes'));
  const mode = value('webdav_upload_mode') ?? '';
  const policy = value('require_two_factor') ?? '';
  return {
    maxUploadBytes: Number.isSafeInteger(bytes) && bytes > 0 ? bytes : DEFAULT_MAX_UPLOAD_BYTES,
    webdavUploadMode: (WEBDAV_UPLOAD_MODES as readonly string[]).includes(mode)
      ? (mode as WebdavUploadMode)
      : 'auto',
    urlAllowlist: value('url_allowlist') ?? '',
    officePreviewEnabled: value('office_preview_enabled') === 'true',
    publicPastesEnabled: value('public_pastes_enabled') === 'true',
    fsUploadShare: value('fs_upload_share') !== 'false',
    webdavUploadShare: value('webdav_upload_share') === 'true',
    auditRetentionDays: retention(value('audit_retention_days')),
    requireTwoFactor: (TWO_FACTOR_POLICIES as readonly string[]).includes(policy)
      ? (policy as TwoFactorPolicy)
      : 'off',
    guestEnabled: value('guest_enabled') === 'true',
    guestPaths: value('guest_paths') ?? '',
    guestWrite: value('guest_write') === 'true',
  };
}

function retention(value: string | undefined): number {
  const days = Number(value);
  return value !== undefined && Number.isSafeInteger(days) && days >= 0 ? days : DEFAULT_AUDIT_RETENTION_DAYS;
}

export async function getSystemSettings(signal?: AbortSignal): Promise<SystemSettings> {
  return toSystemSettings(await api.get<SettingRow[]>('/admin/system-settings', { signal }));
}

export async function updateSystemSettings(input: SystemSettingsUpdate): Promise<SystemSettings> {
  return toSystemSettings(await api.put<SettingRow[]>('/admin/system-settings', input));
}

export const systemSettingsQueryOptions = () =>
  queryOptions({ queryKey: systemSettingsKeys.detail(), queryFn: ({ signal }) => getSystemSettings(signal) });

export function useSystemSettings() {
  return useQuery(systemSettingsQueryOptions());
}

export function useUpdateSystemSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSystemSettings,
    onSuccess: (settings) => queryClient.setQueryData(systemSettingsKeys.detail(), settings),
    onSettled: () =>
      Promise.all([
        refreshAfterChange(queryClient, { queryKey: systemSettingsKeys.all }),
        // The upload page shows the limit: let it read the new one.
        refreshAfterChange(queryClient, { queryKey: maxUploadSizeQueryOptions().queryKey }),
        // The upload page, Home and this section show the share policy.
        refreshAfterChange(queryClient, { queryKey: sharePolicyQueryOptions().queryKey }),
        // File pages say whether they offer Office preview.
        refreshAfterChange(queryClient, { queryKey: ['files', 'public'] }),
      ]),
  });
}
