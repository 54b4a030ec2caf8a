/**
 * Storage configurations: where file shares (and later mounts) keep their bytes. A config names a
 * driver ('local' folder or 's3' bucket), its plain settings, and sealed credentials
 * (AES-256-GCM under SECRET_KEY, lib/secret-box.ts). This service turns a config into a ready
 * driver (built once, cached, rebuilt when the config changes), picks the config an upload goes to,
 * and makes sure a fresh install has a local-disk default so uploads work at once.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@cubby/shared';
import type { StorageConfigsTable } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import type { StorageDriver } from '../../storage/driver.ts';
import { createLocalDriver, type LocalDriver } from '../../storage/drivers/local.ts';
import { createS3Driver, type S3Provider } from '../../storage/drivers/s3.ts';
import type { StorageConfigsRepository } from './storage-configs.repository.ts';

/** CloudPaste's provider labels, and the driver preset each maps to. */
export const S3_PROVIDER_TYPES = {
  'Cloudflare R2': 'cloudflare-r2',
  'Backblaze B2': 'backblaze-b2',
  'AWS S3': 'aws-s3',
  'Other S3 Compatible': 'other',
} as const satisfies Record<string, S3Provider>;
export type S3ProviderType = keyof typeof S3_PROVIDER_TYPES;
export const LOCAL_PROVIDER_TYPE = 'Local';

export interface S3Settings {
  endpoint_url: string;
  bucket_name: string;
  region: string;
  path_style: boolean;
  default_folder: string;
  custom_host: string | null;
}

export interface LocalSettings {
  root_path: string;
}

export interface S3Secrets {
  access_key_id: string;
  secret_access_key: string;
}

/** A config row with its settings parsed (credentials stay sealed until a driver is built). */
export type StorageConfigRecord = Omit<StorageConfigsTable, 'settings'> &
  ({ driver: 'local'; settings: LocalSettings } | { driver: 's3'; settings: S3Settings });

export interface StorageServiceOptions {
  /** DATA_DIR; the first-start local config keeps files in DATA_DIR/storage. */
  dataDir: string;
  /** Base URL local presigned URLs point at (PUBLIC_URL, or the listen address). */
  publicBaseUrl: string;
  /** Secret the local presigned URLs are signed with (SECRET_KEY). */
  secretKey: string;
}

export function parseConfigRow(row: StorageConfigsTable): StorageConfigRecord {
  const settings = JSON.parse(row.settings) as LocalSettings | S3Settings;
  return { ...row, settings } as StorageConfigRecord;
}

export class StorageConfigsService {
  private readonly box: SecretBox;
  /** Drivers by config id, with the `updated_at` they were built for. */
  private readonly drivers = new Map<string, { updatedAt: string; driver: StorageDriver }>();

  constructor(
    readonly repo: StorageConfigsRepository,
    private readonly clock: Clock,
    private readonly options: StorageServiceOptions,
  ) {
    this.box = new SecretBox(options.secretKey);
  }

  /** The base local presigned URLs are made against (see http/public-origin.ts `rebaseUrl`). */
  get internalBaseUrl(): string {
    return this.options.publicBaseUrl;
  }

  async find(id: string): Promise<StorageConfigRecord | undefined> {
    const row = await this.repo.findById(id);
    return row && parseConfigRow(row);
  }

  /** The configs a principal may see and use: all for an admin, those usable by keys for a key. */
  async listFor(principal: Principal): Promise<StorageConfigRecord[]> {
    const rows = await this.repo.list({ publicOnly: principal.type === 'apikey' });
    return rows.map(parseConfigRow);
  }

  /**
   * The config an upload by `principal` goes to: `id` when given (404 when unknown; 403 for a key when
   * the config is not usable by keys), else the default — for a key, the default when it is usable by
   * keys, else the first usable one by name. 400 when there is none.
   */
  async resolveForUpload(principal: Principal, id?: string | null): Promise<StorageConfigRecord> {
    if (id) {
      const config = await this.find(id);
      if (!config) throw notFound('storage.not_found');
      if (principal.type === 'apikey' && !config.is_public) throw forbidden('storage.not_usable_by_key');
      return config;
    }
    const fallback = await this.repo.findDefault();
    if (fallback && (principal.type === 'admin' || fallback.is_public)) return parseConfigRow(fallback);
    const [first] = await this.listFor(principal);
    if (!first) throw new AppError(400, 'VALIDATION_FAILED', 'storage.none_available');
    return first;
  }

  /** The ready driver of a config, built on first use and rebuilt after the config changed. */
  async driver(config: StorageConfigRecord | string): Promise<StorageDriver> {
    const record = typeof config === 'string' ? await this.find(config) : config;
    if (!record) throw notFound('storage.not_found');
    const cached = this.drivers.get(record.id);
    if (cached && cached.updatedAt === record.updated_at) return cached.driver;
    if (cached) void cached.driver.close?.();
    const driver = this.build(record);
    this.drivers.set(record.id, { updatedAt: record.updated_at, driver });
    return driver;
  }

  /** The local driver of a config id, for the presigned-URL routes; undefined for unknown or S3 configs. */
  async localDriver(id: string): Promise<LocalDriver | undefined> {
    const record = await this.find(id);
    if (!record || record.driver !== 'local') return undefined;
    return (await this.driver(record)) as LocalDriver;
  }

  /**
   * Space left for uploads: the quota (`total_storage_bytes`) minus what file shares use, and for local
   * disk also what the file system has free. Null when unlimited.
   */
  async capacity(config: StorageConfigRecord): Promise<{ totalBytes: number; freeBytes: number } | null> {
    let limit: { totalBytes: number; freeBytes: number } | null = null;
    if (config.total_storage_bytes !== null && config.total_storage_bytes > 0) {
      const used = await this.repo.usedBytes(config.id);
      limit = {
        totalBytes: config.total_storage_bytes,
        freeBytes: Math.max(0, config.total_storage_bytes - used),
      };
    }
    if (config.driver === 'local') {
      await fs.mkdir(config.settings.root_path, { recursive: true });
      const stats = await fs.statfs(config.settings.root_path);
      const disk = { totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize };
      if (!limit || disk.freeBytes < limit.freeBytes) limit = disk;
    }
    return limit;
  }

  /** Seals credentials for storing on the config `id` (the id is bound in, so they only open there). */
  sealSecrets(id: string, secrets: S3Secrets): string {
    return this.box.seal(JSON.stringify(secrets), id);
  }

  openSecrets(config: Pick<StorageConfigsTable, 'id' | 'secrets'>): S3Secrets {
    if (!config.secrets) throw new Error(`storage config ${config.id} has no credentials`);
    return JSON.parse(this.box.open(config.secrets, config.id)) as S3Secrets;
  }

  /** Forgets (and closes) a config's driver, after it was changed or deleted. */
  forget(id: string): void {
    const cached = this.drivers.get(id);
    this.drivers.delete(id);
    void cached?.driver.close?.();
  }

  /** On first start: a local-disk config in DATA_DIR/storage, made the default, so uploads work at once. */
  async ensureDefault(): Promise<void> {
    if ((await this.repo.count()) > 0) return;
    const now = this.clock.now().toISOString();
    const settings: LocalSettings = { root_path: path.join(this.options.dataDir, 'storage') };
    await fs.mkdir(settings.root_path, { recursive: true });
    await this.repo.insert({
      id: randomUUID(),
      name: 'Local storage',
      driver: 'local',
      provider_type: LOCAL_PROVIDER_TYPE,
      settings: JSON.stringify(settings),
      secrets: null,
      is_public: 1,
      is_default: 1,
      total_storage_bytes: null,
      signature_expires_in: 3600,
      admin_id: null,
      created_at: now,
      updated_at: now,
      last_used: null,
    });
  }

  async close(): Promise<void> {
    const drivers = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(drivers.map((d) => d.driver.close?.()));
  }

  private build(record: StorageConfigRecord): StorageDriver {
    if (record.driver === 'local') {
      return createLocalDriver({
        root: record.settings.root_path,
        configId: record.id,
        publicBaseUrl: this.options.publicBaseUrl,
        signingSecret: this.options.secretKey,
        clock: this.clock,
      });
    }
    const secrets = this.openSecrets(record);
    const s = record.settings;
    return createS3Driver({
      endpoint: s.endpoint_url || undefined,
      region: s.region,
      bucket: s.bucket_name,
      accessKeyId: secrets.access_key_id,
      secretAccessKey: secrets.secret_access_key,
      pathStyle: s.path_style,
      rootPrefix: s.default_folder,
      customHost: s.custom_host ?? undefined,
      provider: S3_PROVIDER_TYPES[record.provider_type as S3ProviderType] ?? 'other',
      clock: this.clock,
    });
  }
}
