/** An FTP / FTPS config's settings as the storage config stores them, its secrets, and the driver's config. */
import type { DriverDeps } from '../../driver.ts';
import type { FtpDriverConfig } from './ftp-driver.ts';

export interface FtpSettings {
  host: string;
  port: number;
  username: string;
  /** The folder on the server that is this storage's root ("/" for the account's home). It must exist. */
  root: string;
  /** `explicit`: AUTH TLS on the plain port, then protected data connections (FTPS). */
  tls: 'none' | 'explicit';
  /** Accept any certificate (a self-signed one). */
  tls_insecure_skip_verify: boolean;
}

export interface FtpSecrets {
  password: string;
}

export function ftpDriverConfig(
  settings: FtpSettings,
  secrets: FtpSecrets,
  deps: DriverDeps,
): FtpDriverConfig {
  return {
    host: settings.host,
    port: settings.port,
    username: settings.username,
    password: secrets.password,
    root: settings.root,
    tls: settings.tls,
    tlsInsecureSkipVerify: settings.tls_insecure_skip_verify,
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
}
