/**
 * The driver pool (docs/architecture.md, "The driver pool"): the one place a storage config becomes a
 * ready driver. A driver is built on first use, kept by config id with the `updated_at` it was built
 * for, and rebuilt (the old one closed) when the config changed; `forget` closes it after a change
 * here and tells the other instances to drop theirs (`drop`), and since every use also compares
 * `updated_at`, no driver outlives a change even when that note is missed. The config's CRUD and
 * validation stay with the storage-configs module, which tells the pool to forget a config.
 */
import type { StorageConfigsTable } from '../db/schema.ts';
import { notFound } from '../errors/app-error.ts';
import type { CacheBus } from '../lib/cache-bus.ts';
import type { Clock } from '../lib/clock.ts';
import { STORAGE_TYPE_OF_DRIVER } from '@cubby/shared';
import type { PresignGetOptions, StorageDriver } from '../storage/driver.ts';
import { buildLocalPresignUrl, type LocalSignedParams } from '../storage/drivers/local/local-signature.ts';
import type { LocalDriver } from '../storage/drivers/local/local-driver.ts';
import {
  createDriver,
  type FtpSettings,
  type LocalSettings,
  type S3Secrets,
  type S3Settings as RegistryS3Settings,
  type SftpSettings,
  type StoredDriverConfig,
  type WebdavSettings,
} from '../storage/registry.ts';

/** A stored S3 config's settings (its provider label is a column of its own). */
export type S3Settings = Omit<RegistryS3Settings, 'provider_type'>;
export type { LocalSettings, S3Secrets };

/** A config row with its settings parsed (credentials stay sealed until a driver is built). */
export type StorageConfigRecord = Omit<StorageConfigsTable, 'settings'> &
  (
    | { driver: 'local'; settings: LocalSettings }
    | { driver: 's3'; settings: S3Settings }
    | { driver: 'webdav'; settings: WebdavSettings }
    | { driver: 'sftp'; settings: SftpSettings }
    | { driver: 'ftp'; settings: FtpSettings }
  );

export function parseConfigRow(row: StorageConfigsTable): StorageConfigRecord {
  const settings = JSON.parse(row.settings) as StorageConfigRecord['settings'];
  return { ...row, settings } as StorageConfigRecord;
}

export interface DriverPoolDeps {
  /** A stored config by id (the storage-configs repository). */
  findConfig(id: string): Promise<StorageConfigsTable | undefined>;
  /** Opens a config's sealed credentials (the storage-configs service holds the key they are sealed with). */
  openSecrets(config: Pick<StorageConfigsTable, 'id' | 'secrets'>): Record<string, string>;
  /** Base URL local presigned URLs point at (PUBLIC_URL, or the listen address). */
  publicBaseUrl: string;
  /** Secret the local presigned URLs are signed with (SECRET_KEY). */
  secretKey: string;
  clock: Clock;
  /** Tells the other instances to drop their driver of a changed config. */
  bus?: CacheBus;
}

export class DriverPool {
  /** Drivers by config id, with the `updated_at` they were built for. */
  private readonly drivers = new Map<string, { updatedAt: string; driver: StorageDriver }>();

  constructor(private readonly deps: DriverPoolDeps) {}

  /** The base local presigned URLs are made against (see http/public-origin.ts `rebaseUrl`). */
  get internalBaseUrl(): string {
    return this.deps.publicBaseUrl;
  }

  async find(id: string): Promise<StorageConfigRecord | undefined> {
    const row = await this.deps.findConfig(id);
    return row && parseConfigRow(row);
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
   * A URL that streams a file of a config through this server until it expires, on every kind of
   * storage: the signed download links of local disk (modules/storage-links), which read through
   * the config's driver. What a mount without `direct` links hands out (vfs.ts, `downloadUrl`).
   */
  proxyGetUrl(configId: string, key: string, options: PresignGetOptions): URL {
    const exp = Math.floor(this.deps.clock.now().getTime() / 1000) + options.expiresIn;
    const params: LocalSignedParams = {
      op: 'get',
      configId,
      key,
      exp,
      disposition: options.disposition ?? 'attachment',
      filename: options.filename ?? key.split('/').pop() ?? '',
      ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
    };
    return buildLocalPresignUrl(this.deps.publicBaseUrl, params, this.deps.secretKey);
  }

  /** Forgets (and closes) a config's driver, after it was changed or deleted, here and on other instances. */
  forget(id: string): void {
    this.drop(id);
    this.deps.bus?.publish({ kind: 'storage-config', id });
  }

  /**
   * Closes this instance's driver of a config (another instance changed it). A driver is also
   * checked against the config's `updated_at` on each use, so none outlives a change even unheard.
   */
  drop(id: string): void {
    const cached = this.drivers.get(id);
    this.drivers.delete(id);
    void cached?.driver.close?.();
  }

  async close(): Promise<void> {
    const drivers = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(drivers.map((d) => d.driver.close?.()));
  }

  /** Builds the driver of a config through the registry (storage/registry.ts). */
  private build(record: StorageConfigRecord): StorageDriver {
    const deps = {
      configId: record.id,
      publicBaseUrl: this.deps.publicBaseUrl,
      signingSecret: this.deps.secretKey,
      clock: this.deps.clock,
    };
    // An S3 config's provider label is a column of its own; the driver takes it with the settings.
    const settings =
      record.driver === 's3' ? { ...record.settings, provider_type: record.provider_type } : record.settings;
    const secrets = record.secrets ? this.deps.openSecrets(record) : undefined;
    const stored = { type: STORAGE_TYPE_OF_DRIVER[record.driver], settings, secrets } as StoredDriverConfig;
    return createDriver(stored, deps);
  }
}
