/** S3-compatible storage (the `S3` type) as the driver registry knows it. */
import { STORAGE_TYPE_FIELDS } from '@cubby/shared';
import type { DriverType } from '../../driver.ts';
import { S3_CAPABILITIES, S3Driver } from './s3-driver.ts';
import { type S3Secrets, type S3Settings, s3DriverConfig } from './s3-settings.ts';

export const s3DriverType: DriverType<S3Settings, S3Secrets> = {
  type: 'S3',
  driver: 's3',
  fields: STORAGE_TYPE_FIELDS.S3,
  capabilities: S3_CAPABILITIES,
  create: (settings, secrets, deps) => new S3Driver(s3DriverConfig(settings, secrets, deps)),
};
