/** An SFTP config's settings and secrets as the storage config stores them, and the driver's config for them. */
import type { DriverDeps } from '../../driver.ts';
import type { SftpDriverConfig } from './sftp-driver.ts';

export interface SftpSettings {
  host: string;
  port: number;
  username: string;
  /** The folder on the server that is this storage's root: absolute, '/' allowed; it must exist. */
  root: string;
  /** The server's host key as `ssh-keygen -lf` prints it (`SHA256:<base64>`); null trusts the first seen. */
  host_key_fingerprint: string | null;
}

/** The sealed part: a password, a private key (OpenSSH or PEM) with its passphrase, or both. */
export interface SftpSecrets {
  password?: string;
  private_key?: string;
  passphrase?: string;
}

export function sftpDriverConfig(
  settings: SftpSettings,
  secrets: SftpSecrets | undefined,
  deps: DriverDeps,
): SftpDriverConfig {
  return {
    host: settings.host,
    port: settings.port,
    username: settings.username,
    root: settings.root,
    hostKeyFingerprint: settings.host_key_fingerprint,
    ...(secrets?.password ? { password: secrets.password } : {}),
    ...(secrets?.private_key ? { privateKey: secrets.private_key } : {}),
    ...(secrets?.passphrase ? { passphrase: secrets.passphrase } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
}
