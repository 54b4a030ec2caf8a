/**
 * The admin dashboard's answer (GET /api/admin/dashboard/stats): CloudPaste's fields, which its
 * dashboard reads, with ours beside them. Days are UTC calendar days.
 */
import type { StorageKindName } from './storage-fields.ts';

export interface StorageUsage {
  id: string;
  name: string;
  providerType: string;
  /** CloudPaste's `S3` and `Local`, and the name of each other type. */
  storageType: StorageKindName;
  bucketName: string | null;
  usedStorage: number;
  fileCount: number;
  /**
   * CloudPaste's capacity, which its dashboard does arithmetic on: the quota, or without one its
   * stand-in (Cloudflare R2 10 GiB, Backblaze B2 102 GiB, any other 5 GiB).
   */
  totalStorage: number;
  /** Percent of `totalStorage` used (0–100, rounded). */
  usagePercent: number;
  /** The config's own quota in bytes; null when it has none (what our dashboard shows). */
  quotaBytes: number | null;
  /** Percent of the quota used (0–100, rounded); null without a quota. */
  quotaPercent: number | null;
}

export interface DashboardStats {
  totalPastes: number;
  totalFiles: number;
  totalApiKeys: number;
  totalS3Configs: number;
  totalMounts: number;
  activePastes: number;
  expiredPastes: number;
  activeFiles: number;
  expiredFiles: number;
  totalStorageUsed: number;
  s3Buckets: StorageUsage[];
  /** The 7 UTC days of the series, oldest first, ending today. */
  lastWeekDays: string[];
  lastWeekPastes: number[];
  lastWeekFiles: number[];
  version: string;
}

/** Directory cache counters (GET /api/admin/cache/stats, `data.cache.directory`). */
export interface CacheCounters {
  hits: number;
  misses: number;
  expired: number;
  invalidations: number;
  pruned: number;
  cacheSize: number;
  hitRate: number;
}

/** One mount's share of the directory cache (`data.cache.mounts`). */
export interface MountCacheCounters {
  mount_id: string;
  /** Listings cached now. */
  entries: number;
  hits: number;
  misses: number;
}
