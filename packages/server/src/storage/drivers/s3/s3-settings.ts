/**
 * What an S3 config holds and what it resolves to: the providers CloudPaste clients name, each
 * provider's preset (region, endpoint, path style, timeouts), and the driver's settings as the
 * storage config stores them (docs/storage.md, "Adding an S3 bucket").
 */
import type { S3ProviderLabel } from '@cubby/shared';
import type { Clock } from '../../../lib/clock.ts';
import { type DriverDeps, StorageError } from '../../driver.ts';
import type { S3Tuning } from './s3-tuning.ts';

export type S3Provider = 'cloudflare-r2' | 'backblaze-b2' | 'aws-s3' | 'other';

/** CloudPaste's provider labels, and the driver preset each maps to. */
export const S3_PROVIDER_TYPES = {
  'Cloudflare R2': 'cloudflare-r2',
  'Backblaze B2': 'backblaze-b2',
  'AWS S3': 'aws-s3',
  'Other S3 Compatible': 'other',
} as const satisfies Record<S3ProviderLabel, S3Provider>;

/** The preset of a stored provider label (the S3-compatible catch-all for one it does not know). */
export const s3ProviderOf = (label: string): S3Provider =>
  S3_PROVIDER_TYPES[label as S3ProviderLabel] ?? 'other';

/** An S3 config's settings as the storage config stores them, with its provider label. */
export interface S3Settings {
  provider_type: string;
  endpoint_url: string;
  bucket_name: string;
  region: string;
  path_style: boolean;
  default_folder: string;
  custom_host: string | null;
}

/** The credentials, stored sealed apart from the settings. */
export interface S3Secrets {
  access_key_id: string;
  secret_access_key: string;
}

/** The driver's settings for a stored config. */
export function s3DriverConfig(settings: S3Settings, secrets: S3Secrets, deps: DriverDeps): S3DriverConfig {
  return {
    endpoint: settings.endpoint_url || undefined,
    region: settings.region,
    bucket: settings.bucket_name,
    accessKeyId: secrets.access_key_id,
    secretAccessKey: secrets.secret_access_key,
    pathStyle: settings.path_style,
    rootPrefix: settings.default_folder,
    customHost: settings.custom_host ?? undefined,
    provider: s3ProviderOf(settings.provider_type),
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
}

export interface S3DriverConfig {
  /** Service URL; optional for AWS (standard endpoints) and B2 (derived from the region). */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  /** Folder inside the bucket the config is confined to ("" = the whole bucket). */
  rootPrefix?: string;
  /** Public base URL of the bucket (a CDN or custom domain) for `publicUrl`. */
  customHost?: string;
  provider: S3Provider;
  /** Signing time of presigned URLs. */
  clock?: Clock;
  tuning?: Partial<S3Tuning>;
}

export interface S3ProviderPreset {
  /** Region the SDK signs with when the config leaves it empty, or always (`forceRegion`). */
  region?: string;
  forceRegion?: boolean;
  /** Endpoint from the region, when the config gives none. */
  endpoint?: (region: string) => string;
  /** Path-style addressing regardless of the config. */
  forcePathStyle?: boolean;
  /** Whether the config must name the endpoint. */
  endpointRequired: boolean;
  /** Idle socket timeout. */
  socketTimeoutMs: number;
  maxAttempts: number;
}

/** What each provider needs beyond the config fields. */
export const S3_PROVIDER_PRESETS: Record<S3Provider, S3ProviderPreset> = {
  // R2 signs with region "auto" and serves path-style at https://<account>.r2.cloudflarestorage.com.
  'cloudflare-r2': {
    region: 'auto',
    forceRegion: true,
    forcePathStyle: true,
    endpointRequired: true,
    socketTimeoutMs: 30_000,
    maxAttempts: 3,
  },
  // B2's S3 endpoint is per region; it is slower to answer, hence the longer timeout and extra retry.
  'backblaze-b2': {
    endpoint: (region) => `https://s3.${region}.backblazeb2.com`,
    endpointRequired: false,
    socketTimeoutMs: 60_000,
    maxAttempts: 4,
  },
  'aws-s3': { region: 'us-east-1', endpointRequired: false, socketTimeoutMs: 30_000, maxAttempts: 3 },
  other: { region: 'us-east-1', endpointRequired: true, socketTimeoutMs: 30_000, maxAttempts: 3 },
};

export interface S3ClientSettings {
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  socketTimeoutMs: number;
  maxAttempts: number;
}

/** The SDK settings a config resolves to, after its provider's preset. */
export function resolveS3ClientSettings(
  config: Pick<S3DriverConfig, 'endpoint' | 'region' | 'pathStyle' | 'provider'>,
): S3ClientSettings {
  const preset = S3_PROVIDER_PRESETS[config.provider];
  if (!preset) throw new StorageError('UNAVAILABLE', `unknown S3 provider ${String(config.provider)}`);
  let region = config.region?.trim() ?? '';
  const endpointInput = config.endpoint?.trim() ?? '';
  if (config.provider === 'backblaze-b2' && !region) {
    region = /^https?:\/\/s3\.([a-z0-9-]+)\.backblazeb2\.com/i.exec(endpointInput)?.[1] ?? '';
    if (!region) {
      throw new StorageError(
        'UNAVAILABLE',
        'a Backblaze B2 config needs its region (e.g. us-west-004) or endpoint',
      );
    }
  }
  if (preset.forceRegion || !region) region = preset.region ?? region;
  const endpoint = endpointInput || preset.endpoint?.(region) || undefined;
  if (preset.endpointRequired && !endpoint) {
    throw new StorageError('UNAVAILABLE', `an endpoint is required for ${config.provider}`);
  }
  const settings: S3ClientSettings = {
    region,
    forcePathStyle: preset.forcePathStyle ?? config.pathStyle,
    socketTimeoutMs: preset.socketTimeoutMs,
    maxAttempts: preset.maxAttempts,
  };
  if (endpoint) settings.endpoint = endpoint.replace(/\/+$/, '');
  return settings;
}
