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
import {
  BUILT_IN_STORAGE_NAME,
  type Principal,
  type S3ProviderLabel,
  type StorageConfigInput,
  storageConfigCreateSchema,
  type StorageConfigUpdate,
  type StorageConfigView,
} from '@cubby/shared';
import type { StorageConfigsTable } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors/app-error.ts';
import { validate } from '../../http/validate.ts';
import type { CacheBus } from '../../lib/cache-bus.ts';
import type { Clock } from '../../lib/clock.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import type { StorageDriver } from '../../storage/driver.ts';
import type { Capacity, StorageQuota } from '../../vfs/quota.ts';
import type { MountsRepository } from '../mounts/mounts.repository.ts';
import { createLocalDriver, type LocalDriver } from '../../storage/drivers/local.ts';
import { createS3Driver, type S3Provider } from '../../storage/drivers/s3.ts';
import { isForeignKeyViolation, type StorageConfigsRepository } from './storage-configs.repository.ts';

/** CloudPaste's provider labels, and the driver preset each maps to. */
export const S3_PROVIDER_TYPES = {
  'Cloudflare R2': 'cloudflare-r2',
  'Backblaze B2': 'backblaze-b2',
  'AWS S3': 'aws-s3',
  'Other S3 Compatible': 'other',
} as const satisfies Record<S3ProviderLabel, S3Provider>;
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
  /** The mounts on a config (a config that mounts use cannot be deleted). */
  mounts: Pick<MountsRepository, 'usingConfig'>;
  /** Told when a config changed or went: the listings cached from it are stale (its root may have moved). */
  onChanged?: (id: string) => void;
  /** Tells the other instances to drop their driver of a changed config. */
  bus?: CacheBus;
  /** Each config's quota and what counts towards it (vfs/quota.ts). */
  quota?: StorageQuota;
}

/** 409: mounts use the config; the message names them and `data.mounts` lists them. */
export class ConfigUsedByMountsError extends AppError {
  override readonly data: { mounts: Array<{ id: string; name: string; mount_path: string }> };

  constructor(mounts: Array<{ id: string; name: string; mount_path: string }>) {
    super(409, 'CONFLICT', 'storage.in_use_mounts', {
      mounts: mounts.map((m) => `${m.name} (${m.mount_path})`).join(', '),
    });
    this.data = { mounts: mounts.map(({ id, name, mount_path }) => ({ id, name, mount_path })) };
  }
}

export function parseConfigRow(row: StorageConfigsTable): StorageConfigRecord {
  const settings = JSON.parse(row.settings) as LocalSettings | S3Settings;
  return { ...row, settings } as StorageConfigRecord;
}

/** "AKIA…WXYZ": the first and last four characters of a key of 16 or more, else only "…". */
export function maskAccessKey(key: string): string {
  return key.length >= 16 ? `${key.slice(0, 4)}…${key.slice(-4)}` : '…';
}

/** The stored columns of a checked config (credentials sealed by the caller). */
function columnsOf(
  input: StorageConfigInput,
): Pick<
  StorageConfigsTable,
  | 'name'
  | 'driver'
  | 'provider_type'
  | 'settings'
  | 'is_public'
  | 'total_storage_bytes'
  | 'signature_expires_in'
> {
  const settings: LocalSettings | S3Settings =
    input.driver === 'local'
      ? { root_path: input.root_path }
      : {
          endpoint_url: input.endpoint_url,
          bucket_name: input.bucket_name,
          region: input.region,
          path_style: input.path_style,
          default_folder: input.default_folder,
          custom_host: input.custom_host,
        };
  return {
    name: input.name,
    driver: input.driver,
    provider_type: input.provider_type,
    settings: JSON.stringify(settings),
    is_public: input.is_public ? 1 : 0,
    total_storage_bytes: input.total_storage_bytes,
    signature_expires_in: input.signature_expires_in,
  };
}

/** A stored config as update input, for merging a change over it (credentials apart). */
function inputOf(record: StorageConfigRecord): StorageConfigUpdate {
  const common = {
    name: record.name,
    is_public: record.is_public === 1,
    signature_expires_in: record.signature_expires_in,
    total_storage_bytes: record.total_storage_bytes,
  };
  if (record.driver === 'local') {
    return { ...common, provider_type: 'Local', root_path: record.settings.root_path };
  }
  return {
    ...common,
    provider_type: record.provider_type as S3ProviderLabel,
    ...record.settings,
    custom_host: record.settings.custom_host ?? '',
  };
}

/** The folder of a local config exists (created when missing) and the server may write there. */
async function prepareRoot(rootPath: string): Promise<void> {
  try {
    await fs.mkdir(rootPath, { recursive: true });
    await fs.access(rootPath, fs.constants.W_OK);
  } catch {
    throw badRequest('validation.root_path_unusable', { root_path: 'validation.root_path_unusable' });
  }
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
   * Space left for uploads: the quota (`total_storage_bytes`) less what the config holds and what
   * writes under way reserved (vfs/quota.ts), and for local disk also what the file system has
   * free. Null when unlimited.
   */
  async capacity(config: StorageConfigRecord): Promise<Capacity | null> {
    let limit = (await this.options.quota?.capacity(config)) ?? null;
    if (config.driver === 'local') {
      await fs.mkdir(config.settings.root_path, { recursive: true });
      const stats = await fs.statfs(config.settings.root_path);
      const disk = { totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize };
      if (!limit || disk.freeBytes < limit.freeBytes) limit = disk;
    }
    return limit;
  }

  /** 507 unless `config` holds no more than its quota, `asked` bytes reserved already included. */
  async checkQuota(config: StorageConfigRecord, asked: number): Promise<void> {
    await this.options.quota?.check(config, asked);
  }

  /**
   * A config as answers show it. Admins also get the local folder, `last_used` and a masked access
   * key; never the secret or the sealed column.
   */
  view(record: StorageConfigRecord, principal: Principal): StorageConfigView {
    const s3 = record.driver === 's3' ? record.settings : null;
    const view: StorageConfigView = {
      id: record.id,
      name: record.name,
      driver: record.driver,
      provider_type: record.provider_type,
      endpoint_url: s3?.endpoint_url ?? null,
      bucket_name: s3?.bucket_name ?? null,
      region: s3?.region ?? null,
      path_style: s3?.path_style ? 1 : 0,
      default_folder: s3?.default_folder ?? null,
      custom_host: s3?.custom_host ?? null,
      is_public: record.is_public ? 1 : 0,
      is_default: record.is_default ? 1 : 0,
      total_storage_bytes: record.total_storage_bytes,
      signature_expires_in: record.signature_expires_in,
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
    if (principal.type !== 'admin') return view;
    let masked: string | null = null;
    let hasSecret = false;
    if (record.driver === 's3') {
      try {
        const secrets = this.openSecrets(record);
        masked = maskAccessKey(secrets.access_key_id);
        hasSecret = secrets.secret_access_key !== '';
      } catch {
        // Sealed under another SECRET_KEY (or altered): shown as missing, to be entered again.
      }
    }
    return {
      ...view,
      root_path: record.driver === 'local' ? record.settings.root_path : null,
      last_used: record.last_used,
      access_key_id_masked: masked,
      has_secret: hasSecret,
    };
  }

  /** Stores a new config; the first one (while there is no default) becomes the default. */
  async create(input: StorageConfigInput, adminId: string | null): Promise<StorageConfigRecord> {
    if (input.driver === 'local') await prepareRoot(input.root_path);
    const id = randomUUID();
    const now = this.clock.now().toISOString();
    const row = await this.repo.insertFirstAsDefault({
      id,
      ...columnsOf(input),
      secrets:
        input.driver === 's3'
          ? this.sealSecrets(id, {
              access_key_id: input.access_key_id,
              secret_access_key: input.secret_access_key,
            })
          : null,
      is_default: 0,
      admin_id: adminId,
      created_at: now,
      updated_at: now,
      last_used: null,
    });
    return parseConfigRow(row);
  }

  /**
   * Applies a partial change: merged over the stored config and checked as a whole. An empty or
   * absent credential keeps the stored one. `updated_at` always moves forward and the cached
   * driver is dropped, so the next use builds one with the new settings.
   */
  async update(id: string, patch: StorageConfigUpdate): Promise<StorageConfigRecord> {
    const current = await this.find(id);
    if (!current) throw notFound('storage.not_found');
    const given = Object.fromEntries(
      Object.entries(patch).filter(([, value]) => value !== undefined),
    ) as StorageConfigUpdate;
    if (Object.keys(given).length === 0) throw badRequest('storage.nothing_to_update');
    if (
      given.provider_type !== undefined &&
      (given.provider_type === LOCAL_PROVIDER_TYPE) !== (current.driver === 'local')
    ) {
      throw badRequest('validation.driver_change', { provider_type: 'validation.driver_change' });
    }
    const newKey = given.access_key_id || undefined;
    const newSecret = given.secret_access_key || undefined;
    let stored: S3Secrets | undefined;
    if (current.driver === 's3' && !(newKey && newSecret)) {
      try {
        stored = this.openSecrets(current);
      } catch {
        throw badRequest('storage.secrets_unreadable', {
          [newKey ? 'secret_access_key' : 'access_key_id']: 'storage.secrets_unreadable',
        });
      }
    }
    const merged: StorageConfigUpdate = {
      ...inputOf(current),
      ...given,
      access_key_id: newKey ?? stored?.access_key_id,
      secret_access_key: newSecret ?? stored?.secret_access_key,
    };
    const next = validate(storageConfigCreateSchema, merged);
    if (
      next.driver === 'local' &&
      (current.driver !== 'local' || next.root_path !== current.settings.root_path)
    ) {
      await prepareRoot(next.root_path);
    }
    const secrets =
      next.driver === 's3' && (newKey || newSecret)
        ? this.sealSecrets(id, {
            access_key_id: next.access_key_id,
            secret_access_key: next.secret_access_key,
          })
        : current.secrets;
    const now = this.clock.now().getTime();
    const updatedAt = new Date(Math.max(now, Date.parse(current.updated_at) + 1)).toISOString();
    if (!(await this.repo.update(id, { ...columnsOf(next), secrets, updated_at: updatedAt }))) {
      throw notFound('storage.not_found');
    }
    this.forget(id);
    return (await this.find(id))!;
  }

  /**
   * Deletes a config no mount and no file share uses (409 naming the mounts, or with the count of
   * files, otherwise). The default can only go when it is the last config: with others left, one
   * of them must be made default first. The bytes in the storage itself are left alone.
   */
  async delete(id: string): Promise<void> {
    const current = await this.repo.findById(id);
    if (!current) throw notFound('storage.not_found');
    const usedByMounts = async () => {
      const mounts = await this.options.mounts.usingConfig(id);
      if (mounts.length > 0) throw new ConfigUsedByMountsError(mounts);
    };
    await usedByMounts();
    const inUse = (count: number) => new AppError(409, 'CONFLICT', 'storage.in_use', { count });
    const files = await this.repo.fileCount(id);
    if (files > 0) throw inUse(files);
    if (current.is_default && (await this.repo.count()) > 1) throw conflict('storage.default_delete');
    let deleted: boolean;
    try {
      deleted = await this.repo.delete(id);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      // A mount, a file or an upload arrived since the checks.
      await usedByMounts();
      const count = await this.repo.fileCount(id);
      throw count > 0 ? inUse(count) : conflict('storage.in_use_uploads');
    }
    if (!deleted) throw notFound('storage.not_found');
    this.forget(id);
  }

  /** Makes `id` the one default. */
  async setDefault(id: string): Promise<StorageConfigRecord> {
    if (!(await this.repo.setDefault(id, this.clock.now().toISOString()))) {
      throw notFound('storage.not_found');
    }
    return (await this.find(id))!;
  }

  /** Notes that a config was used (a test, an upload); cached drivers stay valid. */
  async touch(id: string): Promise<void> {
    await this.repo.touchLastUsed(id, this.clock.now().toISOString());
  }

  /** Seals credentials for storing on the config `id` (the id is bound in, so they only open there). */
  sealSecrets(id: string, secrets: S3Secrets): string {
    return this.box.seal(JSON.stringify(secrets), id);
  }

  openSecrets(config: Pick<StorageConfigsTable, 'id' | 'secrets'>): S3Secrets {
    if (!config.secrets) throw new Error(`storage config ${config.id} has no credentials`);
    return JSON.parse(this.box.open(config.secrets, config.id)) as S3Secrets;
  }

  /** Forgets (and closes) a config's driver, after it was changed or deleted, here and on other instances. */
  forget(id: string): void {
    this.dropDriver(id);
    this.options.bus?.publish({ kind: 'storage-config', id });
    this.options.onChanged?.(id);
  }

  /**
   * Closes this instance's driver of a config (another instance changed it). A driver is also
   * checked against the config's `updated_at` on each use, so none outlives a change even unheard.
   */
  dropDriver(id: string): void {
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
      name: BUILT_IN_STORAGE_NAME,
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
