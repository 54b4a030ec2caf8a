/**
 * The admin dashboard's figures (docs/product.md §2, docs/compatibility.md §7): totals, live and ended
 * shares, storage used per config against its quota, and new pastes and files per day for the last 7 days.
 * Answers carry CloudPaste's fields (its dashboard reads them, numbers where it computes) with ours beside
 * them. Days are UTC calendar days, as `created_at` is stored.
 */
import { type DashboardStats, STORAGE_KIND_NAME, type StorageUsage } from '@cubby/shared';
import type { Clock } from '../../lib/clock.ts';
import { APP_VERSION } from '../../version.ts';
import type { DashboardRepository } from './dashboard.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_DAYS = 7;
const GiB = 1024 ** 3;

/**
 * The capacity CloudPaste answers for a config without a quota (its dashboard divides by it, and
 * shows "NaN Bytes" for anything but a number).
 */
function standInCapacity(providerType: string): number {
  if (providerType === 'Cloudflare R2') return 10 * GiB;
  if (providerType === 'Backblaze B2') return 102 * GiB;
  return 5 * GiB;
}

const percentOf = (used: number, total: number) => Math.min(100, Math.round((used / total) * 100));

export class DashboardService {
  constructor(
    private readonly repo: DashboardRepository,
    private readonly clock: Clock,
  ) {}

  async stats(): Promise<DashboardStats> {
    const now = this.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const days = Array.from({ length: WEEK_DAYS }, (_, i) =>
      new Date(today - (WEEK_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
    );
    const since = `${days[0]}T00:00:00.000Z`;
    const iso = now.toISOString();
    const [pastes, files, keys, configs, mounts, endedPastes, endedFiles, use, pastesPerDay, filesPerDay] =
      await Promise.all([
        this.repo.count('pastes'),
        this.repo.count('files'),
        this.repo.count('api_keys'),
        this.repo.count('storage_configs'),
        this.repo.count('mounts'),
        this.repo.ended('pastes', iso),
        this.repo.ended('files', iso),
        this.repo.storageUse(),
        this.repo.perDay('pastes', since),
        this.repo.perDay('files', since),
      ]);
    const buckets = use.map((config): StorageUsage => {
      const settings = JSON.parse(config.settings) as { bucket_name?: string };
      const quota = config.total_storage_bytes || null;
      const capacity = quota ?? standInCapacity(config.provider_type);
      return {
        id: config.id,
        name: config.name,
        providerType: config.provider_type,
        storageType: STORAGE_KIND_NAME[config.driver],
        bucketName: settings.bucket_name ?? null,
        usedStorage: config.used,
        fileCount: config.files,
        totalStorage: capacity,
        usagePercent: percentOf(config.used, capacity),
        quotaBytes: quota,
        quotaPercent: quota === null ? null : percentOf(config.used, quota),
      };
    });
    return {
      totalPastes: pastes,
      totalFiles: files,
      totalApiKeys: keys,
      totalS3Configs: configs,
      totalMounts: mounts,
      activePastes: pastes - endedPastes,
      expiredPastes: endedPastes,
      activeFiles: files - endedFiles,
      expiredFiles: endedFiles,
      totalStorageUsed: buckets.reduce((n, b) => n + b.usedStorage, 0),
      s3Buckets: buckets,
      lastWeekDays: days,
      lastWeekPastes: days.map((d) => pastesPerDay.get(d) ?? 0),
      lastWeekFiles: days.map((d) => filesPerDay.get(d) ?? 0),
      version: APP_VERSION,
    };
  }
}
