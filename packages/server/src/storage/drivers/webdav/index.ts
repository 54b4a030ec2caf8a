/** WebDAV storage (the `WEBDAV` type) as the driver registry knows it. */
import { STORAGE_TYPE_FIELDS } from '@cubby/shared';
import type { DriverType } from '../../driver.ts';
import { WEBDAV_CAPABILITIES, WebdavDriver } from './webdav-driver.ts';
import { type WebdavSecrets, type WebdavSettings, webdavDriverConfig } from './webdav-settings.ts';

export const webdavDriverType: DriverType<WebdavSettings, WebdavSecrets> = {
  type: 'WEBDAV',
  driver: 'webdav',
  fields: STORAGE_TYPE_FIELDS.WEBDAV,
  capabilities: WEBDAV_CAPABILITIES,
  create: (settings, secrets, deps) => new WebdavDriver(webdavDriverConfig(settings, secrets, deps)),
};
