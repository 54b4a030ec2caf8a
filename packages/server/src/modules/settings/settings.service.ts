/**
 * System settings: the largest upload (bytes; every upload path enforces it), the WebDAV upload
 * mode, the URL-upload allowlist, whether Office preview is on (off until an admin turns it on:
 * it sends files to Microsoft's viewer), and whether uploads into mounts are also published as file
 * shares — through the explorer and the fs API (on by default: CloudPaste does so, and its clients
 * read the share's fields) and over WebDAV (off by default, as in CloudPaste), and how many days the
 * audit log keeps its entries (90 by default; 0 for ever), and whether public pastes are listed on
 * the public page (off by default: docs/api.md, "Public pastes"). Answers in
 * CloudPaste's shape too: `max_upload_size` in MB.
 */
import {
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_MAX_UPLOAD_BYTES,
  WEBDAV_UPLOAD_MODES,
  parseUrlAllowlist,
  canonicalType,
  NO_SHARE_POLICY,
  policyDefaultsFit,
  type Principal,
  type SharePolicy,
  splitAllowedTypes,
  splitGuestPaths,
  splitUrlAllowlist,
  toBytes,
  type systemSettingsUpdateSchema,
  TWO_FACTOR_POLICIES,
  type TwoFactorPolicy,
} from '@cubby/shared';
import type { z } from 'zod';
import { badRequest, invalidFields } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SettingsRepository } from './settings.repository.ts';

const MAX_UPLOAD_KEY = 'max_upload_bytes';
const WEBDAV_MODE_KEY = 'webdav_upload_mode';
const URL_ALLOWLIST_KEY = 'url_allowlist';
const OFFICE_PREVIEW_KEY = 'office_preview_enabled';
const FS_UPLOAD_SHARE_KEY = 'fs_upload_share';
const WEBDAV_UPLOAD_SHARE_KEY = 'webdav_upload_share';
const AUDIT_RETENTION_KEY = 'audit_retention_days';
const REQUIRE_TWO_FACTOR_KEY = 'require_two_factor';
const PUBLIC_PASTES_KEY = 'public_pastes_enabled';
const GUEST_ENABLED_KEY = 'guest_enabled';
const GUEST_PATHS_KEY = 'guest_paths';
const GUEST_WRITE_KEY = 'guest_write';
const MB = 1024 ** 2;
/** The share policy's settings (docs/api.md, "Share policy"); absent: no limit. */
const POLICY_NUMBER_KEYS = {
  default_expiry_hours: 'share_default_expiry_hours',
  max_expiry_hours: 'share_max_expiry_hours',
  default_max_views: 'share_default_max_views',
  max_views: 'share_max_views',
  max_bytes: 'share_max_bytes',
} as const;
const POLICY_TYPES_KEY = 'share_allowed_types';
const KEYS_PERMANENT_KEY = 'keys_may_make_permanent';
const KEYS_UNPROTECTED_KEY = 'keys_may_make_unprotected';
const POLICY_DESCRIPTIONS: Record<string, string> = {
  share_default_expiry_hours: 'Hours a new share lasts when it names no expiry (empty: never)',
  share_max_expiry_hours: 'Latest expiry a share may have, in hours from now (empty: no limit)',
  share_default_max_views: 'Views a new share allows when it names no limit (empty: unlimited)',
  share_max_views: 'Most views a share may allow (empty: no limit)',
  share_max_bytes: 'Largest share, in bytes: a file, a paste, the files of a bundle (empty: no limit)',
  [POLICY_TYPES_KEY]: 'File types shares may hold, extensions or MIME patterns (empty: all)',
  [KEYS_PERMANENT_KEY]: 'Let API keys make shares that never expire',
  [KEYS_UNPROTECTED_KEY]: 'Let API keys make shares without a password',
};

/** Bytes as CloudPaste's `max_upload_size`: megabytes, to three decimals. */
export function toMegabytes(bytes: number): number {
  return Math.round((bytes / MB) * 1000) / 1000;
}

export type WebdavUploadMode = (typeof WEBDAV_UPLOAD_MODES)[number];

export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly clock: Clock,
  ) {}

  async maxUploadBytes(): Promise<number> {
    const stored = Number(await this.repo.get(MAX_UPLOAD_KEY));
    return Number.isSafeInteger(stored) && stored > 0 ? stored : DEFAULT_MAX_UPLOAD_BYTES;
  }

  async webdavUploadMode(): Promise<WebdavUploadMode> {
    const stored = await this.repo.get(WEBDAV_MODE_KEY);
    return (WEBDAV_UPLOAD_MODES as readonly string[]).includes(stored ?? '')
      ? (stored as WebdavUploadMode)
      : 'auto';
  }

  /** URL-upload allowlist entries (hosts, host:port, CIDR ranges); empty unless an admin set some. */
  async urlAllowlist(): Promise<string[]> {
    return splitUrlAllowlist((await this.repo.get(URL_ALLOWLIST_KEY)) ?? '');
  }

  /** Whether file shares may be sent to the online Office viewer (GET /api/office-preview/:slug). */
  async officePreviewEnabled(): Promise<boolean> {
    return (await this.repo.get(OFFICE_PREVIEW_KEY)) === 'true';
  }

  /** Whether GET /api/public/pastes and the web's public page list public pastes. */
  async publicPastesEnabled(): Promise<boolean> {
    return (await this.repo.get(PUBLIC_PASTES_KEY)) === 'true';
  }

  /** Whether a file uploaded into a mount publishes a file share: through fs (explorer, API) or WebDAV. */
  async uploadShares(): Promise<{ fs: boolean; webdav: boolean }> {
    const [fs, webdav] = await Promise.all([
      this.repo.get(FS_UPLOAD_SHARE_KEY),
      this.repo.get(WEBDAV_UPLOAD_SHARE_KEY),
    ]);
    return { fs: fs !== 'false', webdav: webdav === 'true' };
  }

  /** The share policy (modules/shares/share-policy.ts enforces it); an absent setting is no limit. */
  async sharePolicy(): Promise<SharePolicy> {
    const rows = new Map((await this.repo.all()).map((r) => [r.key, r.value]));
    const policy: SharePolicy = { ...NO_SHARE_POLICY };
    for (const [field, key] of Object.entries(POLICY_NUMBER_KEYS)) {
      const value = Number(rows.get(key) ?? '');
      policy[field as keyof typeof POLICY_NUMBER_KEYS] =
        rows.get(key) && Number.isSafeInteger(value) && value > 0 ? value : null;
    }
    policy.allowed_types = splitAllowedTypes(rows.get(POLICY_TYPES_KEY) ?? '').flatMap(
      (t) => canonicalType(t) ?? [],
    );
    policy.keys_may_make_permanent = rows.get(KEYS_PERMANENT_KEY) !== 'false';
    policy.keys_may_make_unprotected = rows.get(KEYS_UNPROTECTED_KEY) !== 'false';
    return policy;
  }

  /** Days the audit log keeps an entry; 0 keeps every entry (modules/audit/). */
  /** Who must sign in with two factors (docs/accounts.md); `off` unless an admin chose. */
  async requireTwoFactor(): Promise<TwoFactorPolicy> {
    const stored = await this.repo.get(REQUIRE_TWO_FACTOR_KEY);
    return (TWO_FACTOR_POLICIES as readonly string[]).includes(stored ?? '')
      ? (stored as TwoFactorPolicy)
      : 'off';
  }

  async auditRetentionDays(): Promise<number> {
    const stored = await this.repo.get(AUDIT_RETENTION_KEY);
    const days = Number(stored);
    return stored !== undefined && Number.isSafeInteger(days) && days >= 0
      ? days
      : DEFAULT_AUDIT_RETENTION_DAYS;
  }

  /** Guest browsing (docs/accounts.md, "Guests"): off, no folders and read only unless an admin chose. */
  async guestAccess(): Promise<{ enabled: boolean; paths: string[]; write: boolean }> {
    const [enabled, paths, write] = await Promise.all([
      this.repo.get(GUEST_ENABLED_KEY),
      this.repo.get(GUEST_PATHS_KEY),
      this.repo.get(GUEST_WRITE_KEY),
    ]);
    return {
      enabled: enabled === 'true',
      paths: splitGuestPaths(paths ?? '') ?? [],
      write: write === 'true',
    };
  }

  /** The guest principal while guests may browse some folder, else null (http/auth.ts). */
  async guest(): Promise<Principal | null> {
    const access = await this.guestAccess();
    if (!access.enabled || access.paths.length === 0) return null;
    return {
      type: 'guest',
      id: 'guest',
      grants: access.paths.map((path) => ({ path, write: access.write })),
    };
  }

  /** The settings as a list of rows (CloudPaste's shape), computed values included. */
  async list() {
    const rows = await this.repo.all();
    const updated = (key: string) => rows.find((r) => r.key === key)?.updated_at ?? null;
    const bytes = await this.maxUploadBytes();
    const shares = await this.uploadShares();
    const guest = await this.guestAccess();
    const policy = await this.sharePolicy();
    const policyRow = (key: string, value: string) => ({
      key,
      value,
      description: POLICY_DESCRIPTIONS[key]!,
      updated_at: updated(key),
      group: 'share_policy',
    });
    return [
      {
        key: 'max_upload_size',
        value: String(toMegabytes(bytes)),
        description: 'Largest upload, in MB',
        updated_at: updated(MAX_UPLOAD_KEY),
      },
      {
        key: MAX_UPLOAD_KEY,
        value: String(bytes),
        description: 'Largest upload, in bytes',
        updated_at: updated(MAX_UPLOAD_KEY),
      },
      {
        key: WEBDAV_MODE_KEY,
        value: await this.webdavUploadMode(),
        description: 'How WebDAV uploads reach storage',
        updated_at: updated(WEBDAV_MODE_KEY),
      },
      {
        key: URL_ALLOWLIST_KEY,
        value: (await this.urlAllowlist()).join('\n'),
        description: 'Internal hosts, host:port pairs and CIDR ranges URL uploads may fetch',
        updated_at: updated(URL_ALLOWLIST_KEY),
      },
      {
        key: OFFICE_PREVIEW_KEY,
        value: String(await this.officePreviewEnabled()),
        description: "Offer Office preview on file pages (sends the file to Microsoft's online viewer)",
        updated_at: updated(OFFICE_PREVIEW_KEY),
      },
      {
        key: FS_UPLOAD_SHARE_KEY,
        value: String(shares.fs),
        description: 'Publish files uploaded into mounts through the explorer or the API as file shares',
        updated_at: updated(FS_UPLOAD_SHARE_KEY),
      },
      {
        key: WEBDAV_UPLOAD_SHARE_KEY,
        value: String(shares.webdav),
        description: 'Publish files uploaded into mounts over WebDAV as file shares',
        updated_at: updated(WEBDAV_UPLOAD_SHARE_KEY),
      },
      {
        key: AUDIT_RETENTION_KEY,
        value: String(await this.auditRetentionDays()),
        description: 'Days the audit log keeps an entry (0 keeps every entry)',
        updated_at: updated(AUDIT_RETENTION_KEY),
      },
      {
        key: PUBLIC_PASTES_KEY,
        value: String(await this.publicPastesEnabled()),
        description: 'List public pastes on the public page',
        updated_at: updated(PUBLIC_PASTES_KEY),
      },
      {
        key: GUEST_ENABLED_KEY,
        value: String(guest.enabled),
        description: 'Let signed-out visitors browse the guest folders',
        updated_at: updated(GUEST_ENABLED_KEY),
      },
      {
        key: GUEST_PATHS_KEY,
        value: guest.paths.join('\n'),
        description: 'The folders guests may browse, one per line',
        updated_at: updated(GUEST_PATHS_KEY),
      },
      {
        key: GUEST_WRITE_KEY,
        value: String(guest.write),
        description: 'Let guests also upload, rename and delete in those folders',
        updated_at: updated(GUEST_WRITE_KEY),
      },
      {
        key: REQUIRE_TWO_FACTOR_KEY,
        value: await this.requireTwoFactor(),
        description: 'Who must sign in with two factors: off, admins or everyone',
        updated_at: updated(REQUIRE_TWO_FACTOR_KEY),
      },
      ...Object.entries(POLICY_NUMBER_KEYS).map(([field, key]) =>
        policyRow(key, String(policy[field as keyof typeof POLICY_NUMBER_KEYS] ?? '')),
      ),
      policyRow(POLICY_TYPES_KEY, policy.allowed_types.join(', ')),
      policyRow(KEYS_PERMANENT_KEY, String(policy.keys_may_make_permanent)),
      policyRow(KEYS_UNPROTECTED_KEY, String(policy.keys_may_make_unprotected)),
    ];
  }

  async update(input: z.output<typeof systemSettingsUpdateSchema>): Promise<void> {
    const now = this.clock.now().toISOString();
    const allowlist = input.url_allowlist === undefined ? undefined : parseUrlAllowlist(input.url_allowlist);
    if (allowlist?.invalid[0] !== undefined) {
      throw badRequest('validation.url_allowlist_entry_invalid', {
        entry: allowlist.invalid[0].slice(0, 100),
      });
    }
    await this.updatePolicy(input, now);
    if (input.max_upload_size !== undefined) {
      await this.repo.set(
        MAX_UPLOAD_KEY,
        String(toBytes(input.max_upload_size, input.max_upload_size_unit ?? 'MB')),
        now,
      );
    }
    if (input.webdav_upload_mode !== undefined)
      await this.repo.set(WEBDAV_MODE_KEY, input.webdav_upload_mode, now);
    if (input.url_allowlist !== undefined) {
      await this.repo.set(URL_ALLOWLIST_KEY, splitUrlAllowlist(input.url_allowlist).join('\n'), now);
    }
    if (input.office_preview_enabled !== undefined) {
      await this.repo.set(OFFICE_PREVIEW_KEY, String(input.office_preview_enabled), now);
    }
    if (input.fs_upload_share !== undefined) {
      await this.repo.set(FS_UPLOAD_SHARE_KEY, String(input.fs_upload_share), now);
    }
    if (input.webdav_upload_share !== undefined) {
      await this.repo.set(WEBDAV_UPLOAD_SHARE_KEY, String(input.webdav_upload_share), now);
    }
    if (input.public_pastes_enabled !== undefined) {
      await this.repo.set(PUBLIC_PASTES_KEY, String(input.public_pastes_enabled), now);
    }
    if (input.require_two_factor !== undefined) {
      await this.repo.set(REQUIRE_TWO_FACTOR_KEY, input.require_two_factor, now);
    }
    if (input.guest_enabled !== undefined)
      await this.repo.set(GUEST_ENABLED_KEY, String(input.guest_enabled), now);
    if (input.guest_paths !== undefined) {
      await this.repo.set(GUEST_PATHS_KEY, (splitGuestPaths(input.guest_paths) ?? []).join('\n'), now);
    }
    if (input.guest_write !== undefined) await this.repo.set(GUEST_WRITE_KEY, String(input.guest_write), now);
    if (input.audit_retention_days !== undefined) {
      await this.repo.set(AUDIT_RETENTION_KEY, String(input.audit_retention_days), now);
    }
  }

  /** The share-policy fields of an update: a default above its maximum (as they will be) is refused. */
  private async updatePolicy(input: z.output<typeof systemSettingsUpdateSchema>, now: string): Promise<void> {
    const current = await this.sharePolicy();
    const next = { ...current };
    for (const [field, key] of Object.entries(POLICY_NUMBER_KEYS)) {
      const value = input[key];
      if (value !== undefined) next[field as keyof typeof POLICY_NUMBER_KEYS] = value;
    }
    const misfit = policyDefaultsFit(next);
    if (misfit)
      throw invalidFields('common.validation', { [misfit]: 'validation.share_policy_default_over_max' });
    for (const [, key] of Object.entries(POLICY_NUMBER_KEYS)) {
      const value = input[key];
      if (value !== undefined) await this.repo.set(key, value === null ? '' : String(value), now);
    }
    if (input.share_allowed_types !== undefined) {
      const types = splitAllowedTypes(input.share_allowed_types).map((t) => canonicalType(t)!);
      await this.repo.set(POLICY_TYPES_KEY, [...new Set(types)].join(','), now);
    }
    if (input.keys_may_make_permanent !== undefined) {
      await this.repo.set(KEYS_PERMANENT_KEY, String(input.keys_may_make_permanent), now);
    }
    if (input.keys_may_make_unprotected !== undefined) {
      await this.repo.set(KEYS_UNPROTECTED_KEY, String(input.keys_may_make_unprotected), now);
    }
  }
}
