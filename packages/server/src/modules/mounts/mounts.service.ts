/**
 * Mount management (docs/compatibility.md §5, docs/product.md §5–§6): the admin creates, changes and deletes
 * mounts; an API key only reads the active mounts on the way to or inside its base path (the same rule the
 * file system applies, `Vfs.mountVisible`). A mount may sit on any storage config, local disk or S3:
 * what it is comes from its config, whatever `storage_type` a client sends. Changing or deleting a
 * mount forgets its cached listings; it never touches the objects behind it.
 */
import { randomUUID } from 'node:crypto';
import {
  creatorId,
  type Mount,
  type mountCreateSchema,
  type mountUpdateSchema,
  type Principal,
} from '@cubby/shared';
import type { Updateable } from 'kysely';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.ts';
import type { MountsTable } from '../../db/schema.ts';
import { conflictingFields, forbidden, invalidFields, notFound } from '../../errors/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { storageType, type Vfs } from '../../vfs/vfs.ts';
import type { StorageConfigsService } from '../storage-configs/storage-configs.service.ts';
import { isForeignKeyViolation } from '../storage-configs/storage-configs.repository.ts';
import type { MountsRepository, MountWithStorage } from './mounts.repository.ts';

type MountCreate = z.output<typeof mountCreateSchema>;
type MountUpdate = z.output<typeof mountUpdateSchema>;

export function toMount(row: MountWithStorage): Mount {
  return {
    id: row.id,
    name: row.name,
    storage_type: storageType({ driver: row.storage_driver }),
    storage_config_id: row.storage_config_id,
    mount_path: row.mount_path,
    remark: row.remark,
    is_active: row.is_active === 1,
    created_by: row.created_by,
    sort_order: row.sort_order,
    cache_ttl: row.cache_ttl,
    link_policy: row.link_policy,
    custom_host: row.custom_host,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_used: row.last_used,
    storage_config_name: row.storage_config_name,
  };
}

/** 409 on the path field, so forms show it there. */
const pathTaken = () => conflictingFields('mounts.path_taken', { mount_path: 'mounts.path_taken' });
/** 400, as the reference answers a config id that does not exist (it is a bad field, not a bad URL). */
const configMissing = () =>
  invalidFields('mounts.config_not_found', { storage_config_id: 'mounts.config_not_found' });

/** An empty remark is no remark. */
const remarkOf = (remark: string | null | undefined) => (remark ? remark : null);

export interface MountsServiceDeps {
  repo: MountsRepository;
  storageConfigs: Pick<StorageConfigsService, 'find'>;
  vfs: Pick<Vfs, 'mountVisible' | 'clearCache'>;
  clock: Clock;
}

export class MountsService {
  constructor(private readonly deps: MountsServiceDeps) {}

  /** Every mount, active or not, in list order (sort order, then name). */
  async list(): Promise<Mount[]> {
    return (await this.deps.repo.listWithStorage()).map(toMount);
  }

  async get(id: string): Promise<Mount> {
    const row = await this.deps.repo.findWithStorage(id);
    if (!row) throw notFound('mounts.not_found');
    return toMount(row);
  }

  /** The active mounts a key sees (all active ones for an admin). */
  async listFor(principal: Principal): Promise<Mount[]> {
    const rows = await this.deps.repo.listWithStorage({ activeOnly: true });
    return rows.filter((row) => this.deps.vfs.mountVisible(principal, row.mount_path)).map(toMount);
  }

  /** One active mount a key sees: 404 when unknown or inactive, 403 when off its way. */
  async getFor(principal: Principal, id: string): Promise<Mount> {
    const row = await this.deps.repo.findWithStorage(id);
    if (!row || row.is_active !== 1) throw notFound('mounts.not_found');
    if (!this.deps.vfs.mountVisible(principal, row.mount_path)) throw forbidden('mounts.forbidden');
    return toMount(row);
  }

  async create(input: MountCreate, creator: Principal): Promise<Mount> {
    if (await this.deps.repo.findByPath(input.mount_path)) throw pathTaken();
    await this.requireConfig(input.storage_config_id);
    const now = this.deps.clock.now().toISOString();
    const row: MountsTable = {
      id: randomUUID(),
      name: input.name,
      storage_config_id: input.storage_config_id,
      mount_path: input.mount_path,
      remark: remarkOf(input.remark),
      is_active: input.is_active === false ? 0 : 1,
      sort_order: input.sort_order ?? 0,
      cache_ttl: input.cache_ttl ?? 300,
      link_policy: input.link_policy ?? 'proxy',
      custom_host: input.custom_host ?? null,
      // CloudPaste's form (a bare admin id): its client shows any other form verbatim.
      created_by: creatorId(creator),
      created_at: now,
      updated_at: now,
      last_used: null,
    };
    await this.write(() => this.deps.repo.insert(row));
    return this.get(row.id);
  }

  /** A partial change; any change forgets the mount's cached listings (its path, storage or TTL may differ now). */
  async update(id: string, input: MountUpdate): Promise<Mount> {
    const current = await this.deps.repo.findById(id);
    if (!current) throw notFound('mounts.not_found_update');
    if (input.mount_path !== undefined && input.mount_path !== current.mount_path) {
      const holder = await this.deps.repo.findByPath(input.mount_path);
      if (holder && holder.id !== id) throw pathTaken();
    }
    if (input.storage_config_id !== undefined) await this.requireConfig(input.storage_config_id);
    const changes: Updateable<MountsTable> = { updated_at: this.deps.clock.now().toISOString() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.mount_path !== undefined) changes.mount_path = input.mount_path;
    if (input.storage_config_id !== undefined) changes.storage_config_id = input.storage_config_id;
    if (input.remark !== undefined) changes.remark = remarkOf(input.remark);
    if (input.is_active !== undefined) changes.is_active = input.is_active ? 1 : 0;
    if (input.sort_order !== undefined) changes.sort_order = input.sort_order;
    if (input.cache_ttl !== undefined) changes.cache_ttl = input.cache_ttl;
    if (input.link_policy !== undefined) changes.link_policy = input.link_policy;
    if (input.custom_host !== undefined) changes.custom_host = input.custom_host;
    if (
      (changes.link_policy ?? current.link_policy) === 'custom_host' &&
      !(changes.custom_host ?? current.custom_host)
    ) {
      throw invalidFields('validation.custom_host_required', {
        custom_host: 'validation.custom_host_required',
      });
    }
    const updated = await this.write(() => this.deps.repo.update(id, changes));
    await this.deps.vfs.clearCache({ mountId: id });
    if (!updated) throw notFound('mounts.not_found_update');
    return this.get(id);
  }

  /** Deletes the mount only: the files in its storage stay where they are. */
  async delete(id: string): Promise<void> {
    const deleted = await this.deps.repo.delete(id);
    if (!deleted) throw notFound('mounts.not_found_delete');
    await this.deps.vfs.clearCache({ mountId: id });
  }

  private async requireConfig(id: string): Promise<void> {
    if (!(await this.deps.storageConfigs.find(id))) throw configMissing();
  }

  /** Runs an insert or update, turning the constraints that lost a race into their answers. */
  private async write<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUniqueViolation(error)) throw pathTaken();
      if (isForeignKeyViolation(error)) throw configMissing();
      throw error;
    }
  }
}
