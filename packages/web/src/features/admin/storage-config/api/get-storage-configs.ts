/**
 * GET /s3-configs: every config for the admin, those usable by API keys for a key. Only the
 * fields of `StorageConfig` are kept, so a credential can never sit in the query cache even if a
 * server sent one.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { SECRET_MASK } from '@cubby/shared';
import { api } from '../../../../lib/api/index.ts';
import { storageConfigKeys } from './query-keys.ts';
import type { StorageConfig } from './types.ts';

const flag = (value: unknown): 0 | 1 => (Number(value) ? 1 : 0);
/** A stored credential as the mask, a missing one as null. */
const storedMark = (value: unknown): string | null => (value ? SECRET_MASK : null);
const DRIVERS: readonly StorageConfig['driver'][] = ['local', 's3', 'webdav', 'sftp', 'ftp'];

export function toStorageConfig(raw: StorageConfig): StorageConfig {
  return {
    id: String(raw.id),
    name: raw.name,
    driver: DRIVERS.includes(raw.driver) ? raw.driver : 's3',
    storage_type: raw.storage_type,
    provider_type: raw.provider_type,
    endpoint_url: raw.endpoint_url ?? null,
    bucket_name: raw.bucket_name ?? null,
    region: raw.region ?? null,
    path_style: flag(raw.path_style),
    default_folder: raw.default_folder ?? null,
    custom_host: raw.custom_host ?? null,
    root_path: raw.root_path ?? null,
    is_public: flag(raw.is_public),
    is_default: flag(raw.is_default),
    total_storage_bytes: raw.total_storage_bytes == null ? null : Number(raw.total_storage_bytes),
    signature_expires_in: Number(raw.signature_expires_in) || 3600,
    created_at: raw.created_at,
    updated_at: raw.updated_at,
    last_used: raw.last_used ?? null,
    access_key_id_masked: raw.access_key_id_masked ?? null,
    has_secret: Boolean(raw.has_secret),
    // The connection of a WebDAV, SFTP or FTP config.
    host: raw.host ?? null,
    port: raw.port == null ? null : Number(raw.port),
    username: raw.username ?? null,
    root: raw.root ?? null,
    host_key_fingerprint: raw.host_key_fingerprint ?? null,
    tls: raw.tls ?? null,
    tls_insecure_skip_verify: flag(raw.tls_insecure_skip_verify),
    // Which of its credentials are stored: the mask or null, never what the server sent.
    password: storedMark(raw.password),
    private_key: storedMark(raw.private_key),
    passphrase: storedMark(raw.passphrase),
  };
}

export async function getStorageConfigs(signal?: AbortSignal): Promise<StorageConfig[]> {
  const configs = await api.get<StorageConfig[]>('/s3-configs', { signal });
  return (Array.isArray(configs) ? configs : []).map(toStorageConfig);
}

export const storageConfigsQueryOptions = () =>
  queryOptions({ queryKey: storageConfigKeys.list(), queryFn: ({ signal }) => getStorageConfigs(signal) });

export function useStorageConfigs() {
  return useQuery(storageConfigsQueryOptions());
}
