/**
 * A WebDAV config's settings as the storage config stores them (CloudPaste 1.9's field names), its
 * sealed secrets, and the driver's config for them (docs/architecture.md, "Drivers").
 */
import type { Clock } from '../../../lib/clock.ts';
import type { DriverDeps } from '../../driver.ts';
import type { WebdavTuning } from './webdav-tuning.ts';

export interface WebdavSettings {
  /** The server's WebDAV URL (http or https), e.g. `https://dav.example.com/remote.php/dav/files/me`. */
  endpoint_url: string;
  username: string;
  /** The folder inside the endpoint this config is confined to ("" or "/" = the endpoint itself). */
  default_folder: string;
  /** Accept a certificate that does not verify (self-signed). Off unless the admin turns it on. */
  tls_insecure_skip_verify: boolean;
}

/** The password, stored sealed apart from the settings. */
export interface WebdavSecrets {
  password: string;
}

export interface WebdavDriverConfig {
  endpoint: string;
  username: string;
  password: string;
  /** Folder below the endpoint the driver is confined to ("" = the endpoint's own folder). */
  rootFolder: string;
  tlsInsecureSkipVerify: boolean;
  clock?: Clock;
  tuning?: Partial<WebdavTuning>;
}

/** The driver's config for a stored config. */
export function webdavDriverConfig(
  settings: WebdavSettings,
  secrets: WebdavSecrets,
  deps: DriverDeps,
): WebdavDriverConfig {
  return {
    endpoint: settings.endpoint_url,
    username: settings.username,
    password: secrets.password,
    rootFolder: settings.default_folder ?? '',
    tlsInsecureSkipVerify: settings.tls_insecure_skip_verify === true,
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
}
