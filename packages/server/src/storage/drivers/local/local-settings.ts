/** A local-disk config's settings as the storage config stores them, and the driver's for them. */
import type { DriverDeps } from '../../driver.ts';
import type { LocalDriverConfig } from './local-driver.ts';

export interface LocalSettings {
  /** The storage folder on this machine: absolute, created on first use. */
  root_path: string;
}

export function localDriverConfig(settings: LocalSettings, deps: DriverDeps): LocalDriverConfig {
  return {
    root: settings.root_path,
    configId: deps.configId,
    publicBaseUrl: deps.publicBaseUrl,
    signingSecret: deps.signingSecret,
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
}
