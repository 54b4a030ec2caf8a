/**
 * The driver registry (docs/architecture.md, "Driver registry"): every kind of storage by its type
 * as CloudPaste 1.9 spells it, with the fields its settings form shows, what its drivers can do, and
 * how to build one for a stored config. Callers ask a driver's `capabilities`, never which kind it
 * is. A new kind of storage is one folder under drivers/ (its driver, settings, error mapping and
 * tuning, and its `DriverType`) and one line here, plus its field list in packages/shared.
 */
import { STORAGE_TYPE_OF_DRIVER, type StorageConfigView, type StorageType } from '@cubby/shared';
import type { DriverDeps, DriverType, StorageDriver } from './driver.ts';
import { localDriverType } from './drivers/local/index.ts';
import type { LocalSettings } from './drivers/local/local-settings.ts';
import { ftpDriverType } from './drivers/ftp/index.ts';
import type { FtpSecrets, FtpSettings } from './drivers/ftp/ftp-settings.ts';
import { s3DriverType } from './drivers/s3/index.ts';
import type { S3Secrets, S3Settings } from './drivers/s3/s3-settings.ts';
import { sftpDriverType } from './drivers/sftp/index.ts';
import type { SftpSecrets, SftpSettings } from './drivers/sftp/sftp-settings.ts';
import { webdavDriverType } from './drivers/webdav/index.ts';
import type { WebdavSecrets, WebdavSettings } from './drivers/webdav/webdav-settings.ts';

export type { DriverCapabilities, DriverDeps, DriverType } from './driver.ts';
export type {
  FtpSecrets,
  FtpSettings,
  LocalSettings,
  S3Secrets,
  S3Settings,
  SftpSecrets,
  SftpSettings,
  WebdavSecrets,
  WebdavSettings,
};

export const DRIVER_REGISTRY = {
  S3: s3DriverType,
  LOCAL: localDriverType,
  WEBDAV: webdavDriverType,
  SFTP: sftpDriverType,
  FTP: ftpDriverType,
} as const satisfies Record<StorageType, DriverType<never, never>>;

type Registered = typeof DRIVER_REGISTRY;

/** A stored config as the registry builds it: its type, settings and opened secrets (none for local disk). */
export type StoredDriverConfig = {
  [T in StorageType]: Registered[T] extends DriverType<infer S, infer C>
    ? { type: T; settings: S; secrets: C }
    : never;
}[StorageType];

/** The registry's entry for a stored config's `driver` column. */
export function driverTypeOf(driver: StorageConfigView['driver']): Registered[StorageType] {
  return DRIVER_REGISTRY[STORAGE_TYPE_OF_DRIVER[driver]];
}

/** A ready driver for a stored config. */
export function createDriver(config: StoredDriverConfig, deps: DriverDeps): StorageDriver {
  // The union ties each type to its own settings; the entry it picks takes exactly those.
  const entry = DRIVER_REGISTRY[config.type] as DriverType<
    StoredDriverConfig['settings'],
    StoredDriverConfig['secrets']
  >;
  return entry.create(config.settings, config.secrets, deps);
}
