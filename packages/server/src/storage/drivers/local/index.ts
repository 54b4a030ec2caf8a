/** Local-disk storage (the `LOCAL` type) as the driver registry knows it. It has no secrets. */
import { STORAGE_TYPE_FIELDS } from '@cubby/shared';
import type { DriverType } from '../../driver.ts';
import { LOCAL_CAPABILITIES, LocalDriver } from './local-driver.ts';
import { type LocalSettings, localDriverConfig } from './local-settings.ts';

export const localDriverType: DriverType<LocalSettings, undefined> = {
  type: 'LOCAL',
  driver: 'local',
  fields: STORAGE_TYPE_FIELDS.LOCAL,
  capabilities: LOCAL_CAPABILITIES,
  create: (settings, _secrets, deps) => new LocalDriver(localDriverConfig(settings, deps)),
};
