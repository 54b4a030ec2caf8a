/**
 * Storage configurations: where file shares (and later mounts) keep their bytes. A config names a
 * driver ('local' folder or 's3' bucket), its plain settings, and sealed credentials
 * (AES-256-GCM under SECRET_KEY, lib/secret-box.ts). This service keeps them (checked, stored,
 * shown), picks the config an upload goes to, and makes sure a fresh install has a local-disk default
 * so uploads work at once. Drivers are built and cached by the driver pool (vfs/driver-pool.ts),
 * which this service tells to forget a config that changed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  BUILT_IN_STORAGE_NAME,
  type Principal,
  SECRET_MASK,
  STORAGE_TYPE_FIELDS,
  STORAGE_TYPE_OF_DRIVER,
  storageTypeOfProvider,
  type StorageConfigInput,
  storageConfigCreateSchema,
  type StorageConfigUpdate,
  type StorageConfigView,
} from '@cubby/shared';
import type { StorageConfigsTable } from '../../db/schema.ts';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  invalidFields,
  notFound,
} from '../../errors/app-error.ts';
import { validate } from '../../http/validate.ts';
import type { Clock } from '../../lib/clock.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import {
  type DriverPool,
  type LocalSettings,
  parseConfigRow,
  type StorageConfigRecord,
} from '../../vfs/driver-pool.ts';
import type { MountsRepository } from '../mounts/mounts.repository.ts';
import { isForeignKeyViolation, type StorageConfigsRepository } from './storage-configs.repository.ts';

export {
  type LocalSettings,
  parseConfigRow,
  type S3Secrets,
  type S3Settings,
  type StorageConfigRecord,
} from '../../vfs/driver-pool.ts';
export const LOCAL_PROVIDER_TYPE = 'Local';

export interface StorageServiceOptions {
  /** DATA_DIR; the first-start local config keeps files in DATA_DIR/storage. */
  dataDir: string;
  /** Secret the credentials are sealed with (SECRET_KEY). */
  secretKey: string;
  /** The mounts on a config (a config that mounts use cannot be deleted). */
  mounts: Pick<MountsRepository, 'usingConfig'>;
  /** The drivers of the configs (vfs/driver-pool.ts), told to forget a config that changed or went. */
  drivers: DriverPool;
  /** Told when a config changed or went: the listings cached from it are stale (its root may have moved). */
  onChanged?: (id: string) => void;
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

/** "AKIA…WXYZ": the first and last four characters of a key of 16 or more, else only "…". */
export function maskAccessKey(key: string): string {
  return key.length >= 16 ? `${key.slice(0, 4)}…${key.slice(-4)}` : '…';
}

type Driver = StorageConfigView['driver'];

/** A type's own fields: its plain settings, and its credentials (sealed apart). */
function typeFields(driver: Driver): { settings: string[]; secrets: string[] } {
  const fields = STORAGE_TYPE_FIELDS[STORAGE_TYPE_OF_DRIVER[driver]];
  return {
    settings: fields.filter((f) => f.kind !== 'secret').map((f) => f.name),
    secrets: fields.filter((f) => f.kind === 'secret').map((f) => f.name),
  };
}

const pick = (from: object, names: string[]): Record<string, unknown> =>
  Object.fromEntries(names.map((name) => [name, (from as Record<string, unknown>)[name]]));

/** A credential sent that means "keep the stored one": absent, empty, or the mask answers show. */
const keeps = (value: unknown) =>
  value === undefined || value === null || value === '' || value === SECRET_MASK;

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
  return {
    name: input.name,
    driver: input.driver,
    provider_type: input.provider_type,
    settings: JSON.stringify(pick(input, typeFields(input.driver).settings)),
    is_public: input.is_public ? 1 : 0,
    total_storage_bytes: input.total_storage_bytes,
    signature_expires_in: input.signature_expires_in,
  };
}

/** A stored config as update input, for merging a change over it (credentials apart). */
function inputOf(record: StorageConfigRecord): StorageConfigUpdate {
  const settings = record.settings as Record<string, unknown>;
  return {
    name: record.name,
    is_public: record.is_public === 1,
    signature_expires_in: record.signature_expires_in,
    total_storage_bytes: record.total_storage_bytes,
    provider_type: record.provider_type,
    ...settings,
    ...('custom_host' in settings ? { custom_host: settings.custom_host ?? '' } : {}),
  } as StorageConfigUpdate;
}

/** The folder of a local config exists (created when missing) and the server may write there. */
async function prepareRoot(rootPath: string): Promise<void> {
  try {
    await fs.mkdir(rootPath, { recursive: true });
    await fs.access(rootPath, fs.constants.W_OK);
  } catch {
    throw invalidFields('validation.root_path_unusable', { root_path: 'validation.root_path_unusable' });
  }
}

export class StorageConfigsService {
  private readonly box: SecretBox;

  constructor(
    readonly repo: StorageConfigsRepository,
    private readonly clock: Clock,
    private readonly options: StorageServiceOptions,
  ) {
    this.box = new SecretBox(options.secretKey);
  }

  /** The base local presigned URLs are made against (see http/public-origin.ts `rebaseUrl`). */
  get internalBaseUrl(): string {
    return this.options.drivers.internalBaseUrl;
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
    if (!first) throw badRequest('storage.none_available');
    return first;
  }

  /** The ready driver of a config, from the driver pool (vfs/driver-pool.ts). */
  driver(config: StorageConfigRecord | string) {
    return this.options.drivers.driver(config);
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
      storage_type: STORAGE_TYPE_OF_DRIVER[record.driver],
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
    let secrets: Record<string, string> | null = null;
    if (record.secrets) {
      try {
        secrets = this.openSecrets(record);
      } catch {
        // Sealed under another SECRET_KEY (or altered): shown as missing, to be entered again.
      }
    }
    if (record.driver === 's3' && secrets) {
      masked = maskAccessKey(secrets.access_key_id ?? '');
      hasSecret = (secrets.secret_access_key ?? '') !== '';
    }
    const admin: StorageConfigView = {
      ...view,
      root_path: record.driver === 'local' ? record.settings.root_path : null,
      last_used: record.last_used,
      access_key_id_masked: masked,
      has_secret: hasSecret,
    };
    if (record.driver === 'local' || record.driver === 's3') return admin;
    // The other types: their plain settings as stored, each credential masked.
    const { settings, secrets: secretNames } = typeFields(record.driver);
    const plain = pick(record.settings, settings);
    const shown = Object.fromEntries(secretNames.map((name) => [name, secrets?.[name] ? SECRET_MASK : null]));
    return {
      ...admin,
      ...plain,
      ...('tls_insecure_skip_verify' in plain
        ? { tls_insecure_skip_verify: plain.tls_insecure_skip_verify ? 1 : 0 }
        : {}),
      ...shown,
      has_secret: Object.values(shown).some((value) => value !== null),
    } as StorageConfigView;
  }

  /** Stores a new config; the first one (while there is no default) becomes the default. */
  async create(input: StorageConfigInput, adminId: string | null): Promise<StorageConfigRecord> {
    if (input.driver === 'local') await prepareRoot(input.root_path);
    const id = randomUUID();
    const now = this.clock.now().toISOString();
    const secretNames = typeFields(input.driver).secrets;
    const row = await this.repo.insertFirstAsDefault({
      id,
      ...columnsOf(input),
      secrets: secretNames.length > 0 ? this.sealSecrets(id, pick(input, secretNames)) : null,
      is_default: 0,
      admin_id: adminId,
      created_at: now,
      updated_at: now,
      last_used: null,
    });
    return parseConfigRow(row);
  }

  /**
   * Applies a partial change: merged over the stored config and checked as a whole. A credential
   * left out, empty, or sent back as the mask answers show keeps the stored one. `updated_at` always
   * moves forward and the cached driver is dropped, so the next use builds one with the new settings.
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
      STORAGE_TYPE_OF_DRIVER[current.driver] !== storageTypeOfProvider(given.provider_type)
    ) {
      throw invalidFields('validation.driver_change', { provider_type: 'validation.driver_change' });
    }
    const secretNames = typeFields(current.driver).secrets;
    const kept = secretNames.filter((name) => keeps((given as Record<string, unknown>)[name]));
    let stored: Record<string, string> = {};
    if (kept.length > 0 && current.secrets) {
      try {
        stored = this.openSecrets(current);
      } catch {
        throw invalidFields('storage.secrets_unreadable', { [kept[0]!]: 'storage.secrets_unreadable' });
      }
    }
    const merged = {
      ...inputOf(current),
      ...given,
      ...Object.fromEntries(kept.map((name) => [name, stored[name]])),
    } as StorageConfigUpdate;
    const next = validate(storageConfigCreateSchema, merged);
    if (
      next.driver === 'local' &&
      (current.driver !== 'local' || next.root_path !== current.settings.root_path)
    ) {
      await prepareRoot(next.root_path);
    }
    const secrets =
      kept.length < secretNames.length ? this.sealSecrets(id, pick(next, secretNames)) : current.secrets;
    const now = this.clock.now().getTime();
    const updatedAt = new Date(Math.max(now, Date.parse(current.updated_at) + 1)).toISOString();
    if (!(await this.repo.update(id, { ...columnsOf(next), secrets, updated_at: updatedAt }))) {
      throw notFound('storage.not_found');
    }
    this.forget(id);
    return (await this.find(id))!;
  }

  /**
   * After a successful storage test: an SFTP config without a pinned host key pins the one its
   * driver saw, so every later connection checks it (docs/storage.md, "SFTP").
   */
  async pinHostKey(config: StorageConfigRecord): Promise<void> {
    if (config.driver !== 'sftp' || config.settings.host_key_fingerprint) return;
    const seen = (await this.driver(config)).hostKey?.();
    if (seen) await this.update(config.id, { host_key_fingerprint: seen });
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
    const inUse = (count: number) => conflict('storage.in_use', { count });
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
  sealSecrets(id: string, secrets: Record<string, unknown>): string {
    return this.box.seal(JSON.stringify(secrets), id);
  }

  openSecrets(config: Pick<StorageConfigsTable, 'id' | 'secrets'>): Record<string, string> {
    if (!config.secrets) throw new Error(`storage config ${config.id} has no credentials`);
    return JSON.parse(this.box.open(config.secrets, config.id)) as Record<string, string>;
  }

  /** A config changed or went: its driver is forgotten, here and on other instances, and so is what was cached from it. */
  forget(id: string): void {
    this.options.drivers.forget(id);
    this.options.onChanged?.(id);
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

  /** Closes the drivers (the pool's). */
  close(): Promise<void> {
    return this.options.drivers.close();
  }
}
