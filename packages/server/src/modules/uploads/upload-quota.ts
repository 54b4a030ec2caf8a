/**
 * The room a share upload needs (docs/architecture.md, "Quota"): sizes are held to the config's
 * quota and free space (507, with the numbers). The quota is one rule for every door
 * (vfs/quota.ts): a pending row counts towards it with its declared size, and it is checked again
 * after the row is in, so concurrent uploads can never take more than the quota together (each may
 * be refused instead).
 */
import type { FilesTable } from '../../db/schema.ts';
import { isStorageError } from '../../vfs/objects.ts';
import { StorageFullError } from '../../vfs/quota.ts';
import type { StorageConfigRecord } from '../storage-configs/storage-configs.service.ts';
import { storageFailure, type UploadSteps } from './upload-steps.ts';

export class UploadQuota {
  /** The last reservation queued per storage config (see `reserve`). */
  private readonly reservations = new Map<string, Promise<void>>();

  constructor(private readonly steps: UploadSteps) {}

  /**
   * Inserts a pending row whose declared size must fit the config's free space and quota. One
   * reservation per config at a time in this process, so parallel uploads are judged one after the
   * other; the quota check after the insert covers other instances sharing the database.
   */
  reserve(config: StorageConfigRecord, row: FilesTable): Promise<void> {
    const previous = this.reservations.get(config.id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const capacity = await this.steps.objects.capacity(config);
      if (capacity && row.size > capacity.freeBytes) throw new StorageFullError(row.size, capacity);
      await this.steps.insert(row);
      try {
        await this.checkQuota(config, row);
      } catch (error) {
        await this.steps.ledger.deletePending(row.id);
        throw error;
      }
    });
    const settled = run.catch(() => undefined);
    this.reservations.set(config.id, settled);
    void settled.then(() => {
      if (this.reservations.get(config.id) === settled) this.reservations.delete(config.id);
    });
    return run;
  }

  /**
   * 507 when the config holds more than its quota with `row` (pending, so reserved) included: the
   * quota's one rule (vfs/quota.ts), which counts every door's bytes in the config.
   */
  async checkQuota(config: StorageConfigRecord, row: FilesTable): Promise<void> {
    await this.steps.objects.checkQuota(config, row.storage_path, row.size, row.owner_id);
  }

  /** A write the storage refused: 507 with the numbers when it ran out of space. */
  async writeFailure(error: unknown, config: StorageConfigRecord, size: number): Promise<unknown> {
    if (!isStorageError(error, 'NO_SPACE')) return storageFailure(error);
    const capacity = await this.steps.objects.capacity(config).catch(() => null);
    return new StorageFullError(size, capacity ?? { totalBytes: 0, freeBytes: 0 });
  }
}
