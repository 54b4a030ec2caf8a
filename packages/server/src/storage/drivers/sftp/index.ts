/** SFTP storage (the `SFTP` type) as the driver registry knows it. */
import { STORAGE_TYPE_FIELDS } from '@cubby/shared';
import type { DriverType } from '../../driver.ts';
import { SFTP_CAPABILITIES, SftpDriver } from './sftp-driver.ts';
import { type SftpSecrets, type SftpSettings, sftpDriverConfig } from './sftp-settings.ts';

export const sftpDriverType: DriverType<SftpSettings, SftpSecrets> = {
  type: 'SFTP',
  driver: 'sftp',
  fields: STORAGE_TYPE_FIELDS.SFTP,
  capabilities: SFTP_CAPABILITIES,
  create: (settings, secrets, deps) => new SftpDriver(sftpDriverConfig(settings, secrets, deps)),
};
