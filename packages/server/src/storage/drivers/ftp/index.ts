/** FTP and FTPS storage (the `FTP` type) as the driver registry knows it. */
import { STORAGE_TYPE_FIELDS } from '@cubby/shared';
import type { DriverType } from '../../driver.ts';
import { FTP_CAPABILITIES, FtpDriver } from './ftp-driver.ts';
import { type FtpSecrets, type FtpSettings, ftpDriverConfig } from './ftp-settings.ts';

export const ftpDriverType: DriverType<FtpSettings, FtpSecrets> = {
  type: 'FTP',
  driver: 'ftp',
  fields: STORAGE_TYPE_FIELDS.FTP,
  capabilities: FTP_CAPABILITIES,
  create: (settings, secrets, deps) => new FtpDriver(ftpDriverConfig(settings, secrets, deps)),
};
