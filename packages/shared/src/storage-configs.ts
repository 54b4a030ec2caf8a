/**
 * Storage configurations (docs/storage.md, "Adding an S3 bucket"): the provider labels CloudPaste clients
 * send, what each provider needs, the input rules of `POST /api/s3-configs` and
 * `PUT /api/s3-configs/:id`, and the shape of a config in answers. The server validates with these
 * schemas; the admin form can give the same answers inline. Issue messages are message-key suffixes
 * (`validation.<message>` on the server).
 */
import { z } from 'zod';
import { SECRET_MASK } from './oidc.ts';
import { normalizePath } from './paths.ts';

/** CloudPaste's S3 provider labels, in the order forms offer them. */
export const S3_PROVIDER_LABELS = ['Cloudflare R2', 'Backblaze B2', 'AWS S3', 'Other S3 Compatible'] as const;
export type S3ProviderLabel = (typeof S3_PROVIDER_LABELS)[number];
/** The provider label of a local-disk config. */
export const LOCAL_PROVIDER_LABEL = 'Local';
/** The provider labels of the file-tree storages on another server: each is its own type. */
export const REMOTE_PROVIDER_LABELS = ['WebDAV', 'SFTP', 'FTP'] as const;
export type RemoteProviderLabel = (typeof REMOTE_PROVIDER_LABELS)[number];
export const STORAGE_PROVIDER_LABELS = [
  ...S3_PROVIDER_LABELS,
  LOCAL_PROVIDER_LABEL,
  ...REMOTE_PROVIDER_LABELS,
] as const;
export type StorageProviderLabel = (typeof STORAGE_PROVIDER_LABELS)[number];
/** Other spellings accepted on input (the CloudPaste Vue form sends "Other"). */
const PROVIDER_ALIASES: Record<string, StorageProviderLabel> = {
  Other: 'Other S3 Compatible',
  WEBDAV: 'WebDAV',
  Webdav: 'WebDAV',
};

/**
 * CloudPaste 1.9's `storage_type` and the provider it stands for when a request gives no
 * `provider_type` (an S3 config of unnamed provider is the S3-compatible catch-all).
 */
export const PROVIDER_OF_STORAGE_TYPE = {
  S3: 'Other S3 Compatible',
  LOCAL: LOCAL_PROVIDER_LABEL,
  WEBDAV: 'WebDAV',
  SFTP: 'SFTP',
  FTP: 'FTP',
} as const satisfies Record<string, StorageProviderLabel>;

export interface S3ProviderRules {
  /** The endpoint must be given; otherwise it is derived (B2 from the region, AWS by the SDK). */
  endpointRequired: boolean;
  /** The region the provider always signs with, whatever the input says. */
  fixedRegion?: string;
  /** B2: a region is needed unless the endpoint names it. */
  regionOrEndpoint?: boolean;
  /** Path-style addressing whatever the input says. */
  forcePathStyle?: boolean;
}

export const S3_PROVIDER_RULES: Record<S3ProviderLabel, S3ProviderRules> = {
  'Cloudflare R2': { endpointRequired: true, fixedRegion: 'auto', forcePathStyle: true },
  'Backblaze B2': { endpointRequired: false, regionOrEndpoint: true },
  'AWS S3': { endpointRequired: false },
  'Other S3 Compatible': { endpointRequired: true },
};

/**
 * The name of the local-disk config the server makes on first start. API answers keep it as is;
 * the web app shows it in the UI's language while the config keeps this name.
 */
export const BUILT_IN_STORAGE_NAME = 'Local storage';
export const STORAGE_NAME_MAX = 50;
export const SIGNATURE_EXPIRES_MIN = 60;
/** SigV4's longest presigned-URL lifetime: 7 days. */
export const SIGNATURE_EXPIRES_MAX = 604_800;
export const SIGNATURE_EXPIRES_DEFAULT = 3600;
const CREDENTIAL_MAX = 512;
const PRIVATE_KEY_MAX = 16_384;
const USERNAME_MAX = 256;
/** A host name (letters, digits, dots, dashes) or an IPv4 / IPv6 address. */
export const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]+\]?)$/;
/** An SSH host key fingerprint as OpenSSH prints it: `SHA256:` and 43 characters of base64. */
export const FINGERPRINT_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;
export const FTP_TLS_MODES = ['none', 'explicit'] as const;
export type FtpTlsMode = (typeof FTP_TLS_MODES)[number];
const URL_MAX = 2048;

/** Bucket names as S3-compatible services accept them: 3–63 letters, digits, `.`, `-`, `_`. */
export const BUCKET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/;
export const REGION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** The canonical label of a provider as sent (trimmed, "Other" accepted), or null when unknown. */
export function canonicalProvider(value: string): StorageProviderLabel | null {
  const trimmed = value.trim();
  if ((STORAGE_PROVIDER_LABELS as readonly string[]).includes(trimmed))
    return trimmed as StorageProviderLabel;
  return PROVIDER_ALIASES[trimmed] ?? null;
}

/** A folder inside the bucket without leading or trailing slashes ("" = the whole bucket); null for `..` or control characters. */
export function normalizeFolder(value: string): string | null {
  const raw = value.trim();
  if (raw.replace(/\\/g, '/').split('/').includes('..')) return null;
  const normalized = normalizePath('/' + raw);
  return normalized === null ? null : normalized.slice(1);
}

/** An absolute folder on the server (POSIX `/…` or Windows `C:\…`) without `.`/`..` segments or control characters. */
export function isAbsoluteFolder(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (!/^(\/|[A-Za-z]:[\\/])/.test(value) || /[\u0000-\u001f\u007f]/.test(value)) return false;
  return !value.split(/[\\/]/).some((segment) => segment === '..' || segment === '.');
}

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** true/false, 1/0, and their string forms (form posts). */
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])], {
    error: 'flag_invalid',
  })
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

const nameSchema = z
  .string({ error: 'storage_name_required' })
  .trim()
  .min(1, { error: 'storage_name_required' })
  .max(STORAGE_NAME_MAX, { error: 'storage_name_too_long' });

const providerSchema = z.string({ error: 'provider_invalid' }).transform((value, ctx) => {
  const label = canonicalProvider(value);
  if (!label) {
    ctx.addIssue({ code: 'custom', message: 'provider_invalid' });
    return z.NEVER;
  }
  return label;
});

/** "" or null when absent; otherwise an http(s) URL without trailing slashes. */
const optionalUrl = z
  .union([z.null(), z.string({ error: 'url_invalid' })], { error: 'url_invalid' })
  .transform((value, ctx) => {
    const trimmed = (value ?? '').trim();
    if (trimmed === '') return '';
    if (trimmed.length > URL_MAX || !isHttpUrl(trimmed)) {
      ctx.addIssue({ code: 'custom', message: 'url_invalid' });
      return z.NEVER;
    }
    return trimmed.replace(/\/+$/, '');
  });

const bucketSchema = z
  .string({ error: 'bucket_required' })
  .trim()
  .refine((v) => v === '' || BUCKET_NAME_PATTERN.test(v), { error: 'bucket_invalid' });

const regionSchema = z
  .union([z.null(), z.string({ error: 'region_invalid' })], { error: 'region_invalid' })
  .transform((v) => (v ?? '').trim())
  .refine((v) => v === '' || REGION_PATTERN.test(v), { error: 'region_invalid' });

/** "" or null mean "not given" (on update: keep the stored credential). */
const credential = (required: string) =>
  z
    .union([z.null(), z.string({ error: required })], { error: required })
    .transform((v) => (v ?? '').trim())
    .refine((v) => v.length <= CREDENTIAL_MAX, { error: 'credential_too_long' });

const folderSchema = z
  .union([z.null(), z.string({ error: 'folder_invalid' })], { error: 'folder_invalid' })
  .transform((value, ctx) => {
    const folder = normalizeFolder(value ?? '');
    if (folder === null) {
      ctx.addIssue({ code: 'custom', message: 'folder_invalid' });
      return z.NEVER;
    }
    return folder;
  });

const rootPathSchema = z
  .string({ error: 'root_path_required' })
  .trim()
  .refine((v) => v === '' || isAbsoluteFolder(v), { error: 'root_path_invalid' });

/** A host name or address on the network (required where a type has it). */
const hostSchema = z
  .string({ error: 'host_required' })
  .trim()
  .refine((v) => v === '' || (v.length <= 253 && HOST_PATTERN.test(v)), { error: 'host_invalid' });

/** A TCP port, as a number or a digit string; null or "" for the type's usual one. */
const portSchema = z
  .union([z.null(), z.literal(''), z.number(), z.string().regex(/^\s*\d+\s*$/, { error: 'port_invalid' })], {
    error: 'port_invalid',
  })
  .transform((v) => (v === null || v === '' ? null : Number(v)))
  .refine((v) => v === null || (Number.isInteger(v) && v >= 1 && v <= 65_535), { error: 'port_invalid' });

const usernameSchema = z
  .union([z.null(), z.string({ error: 'storage_username_invalid' })], { error: 'storage_username_invalid' })
  .transform((v) => (v ?? '').trim())
  // eslint-disable-next-line no-control-regex
  .refine((v) => v.length <= USERNAME_MAX && !/[\u0000-\u001f\u007f]/.test(v), {
    error: 'storage_username_invalid',
  });

/** A password: kept as typed (spaces count); "" or null mean "not given". */
const passwordSchema = z
  .union([z.null(), z.string({ error: 'storage_password_invalid' })], { error: 'storage_password_invalid' })
  .transform((v) => v ?? '')
  .refine((v) => v.length <= CREDENTIAL_MAX, { error: 'credential_too_long' });

/** An SSH private key in PEM or OpenSSH form. */
const privateKeySchema = z
  .union([z.null(), z.string({ error: 'private_key_invalid' })], { error: 'private_key_invalid' })
  .transform((v) => (v ?? '').trim())
  .refine(
    (v) =>
      v === '' ||
      v === SECRET_MASK ||
      (v.length <= PRIVATE_KEY_MAX && /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(v)),
    {
      error: 'private_key_invalid',
    },
  );

/** An absolute folder on the other server ("/" for its whole tree); null or "" for "/". */
const remoteRootSchema = z
  .union([z.null(), z.string({ error: 'remote_root_invalid' })], { error: 'remote_root_invalid' })
  .transform((value, ctx) => {
    const raw = (value ?? '').trim() || '/';
    const normalized = raw.startsWith('/') && !raw.split('/').includes('..') ? normalizePath(raw) : null;
    if (normalized === null) {
      ctx.addIssue({ code: 'custom', message: 'remote_root_invalid' });
      return z.NEVER;
    }
    return normalized;
  });

const fingerprintSchema = z
  .union([z.null(), z.string({ error: 'fingerprint_invalid' })], { error: 'fingerprint_invalid' })
  .transform((v) => (v ?? '').trim())
  .refine((v) => v === '' || FINGERPRINT_PATTERN.test(v), { error: 'fingerprint_invalid' });

const ftpTlsSchema = z.enum(FTP_TLS_MODES, { error: 'ftp_tls_invalid' });

/** Whole seconds, as a number or a digit string. */
const signatureSchema = z
  .union([z.number(), z.string().regex(/^\s*\d+\s*$/, { error: 'signature_expires_invalid' })], {
    error: 'signature_expires_invalid',
  })
  .transform(Number)
  .refine((v) => Number.isInteger(v) && v >= SIGNATURE_EXPIRES_MIN && v <= SIGNATURE_EXPIRES_MAX, {
    error: 'signature_expires_invalid',
  });

/** Bytes, a positive whole number; null (or "") for no quota. */
const quotaSchema = z
  .union([z.null(), z.literal(''), z.number(), z.string().regex(/^\s*\d+\s*$/, { error: 'quota_invalid' })], {
    error: 'quota_invalid',
  })
  .transform((v) => (v === null || v === '' ? null : Number(v)))
  .refine((v) => v === null || (Number.isSafeInteger(v) && v > 0), { error: 'quota_invalid' });

/**
 * The input rules, by name: each field of a config follows one ({@link STORAGE_FIELD_RULE}), and
 * the settings form's field lists name them too (storage-fields.ts).
 */
export const STORAGE_INPUT_RULES = {
  storage_name: nameSchema,
  provider: providerSchema,
  url: optionalUrl,
  bucket_name: bucketSchema,
  region: regionSchema,
  access_key: credential('access_key_required'),
  secret_key: credential('secret_required'),
  flag,
  folder: folderSchema,
  absolute_path: rootPathSchema,
  signature_expires: signatureSchema,
  quota: quotaSchema,
  host: hostSchema,
  port: portSchema,
  username: usernameSchema,
  password: passwordSchema,
  private_key: privateKeySchema,
  remote_root: remoteRootSchema,
  fingerprint: fingerprintSchema,
  ftp_tls: ftpTlsSchema,
};
export type StorageInputRule = keyof typeof STORAGE_INPUT_RULES;

/** The rule of every field either variant may carry; cross-field rules are applied by {@link checkStorageConfig}. */
export const STORAGE_FIELD_RULE = {
  name: 'storage_name',
  provider_type: 'provider',
  endpoint_url: 'url',
  bucket_name: 'bucket_name',
  region: 'region',
  access_key_id: 'access_key',
  secret_access_key: 'secret_key',
  path_style: 'flag',
  default_folder: 'folder',
  custom_host: 'url',
  root_path: 'absolute_path',
  is_public: 'flag',
  signature_expires_in: 'signature_expires',
  total_storage_bytes: 'quota',
  host: 'host',
  port: 'port',
  username: 'username',
  password: 'password',
  private_key: 'private_key',
  passphrase: 'password',
  root: 'remote_root',
  host_key_fingerprint: 'fingerprint',
  tls: 'ftp_tls',
  tls_insecure_skip_verify: 'flag',
} as const satisfies Record<string, StorageInputRule>;
/** A field of a storage config, as CloudPaste names it. */
export type StorageFieldName = keyof typeof STORAGE_FIELD_RULE;

const fields = Object.fromEntries(
  Object.entries(STORAGE_FIELD_RULE).map(([name, rule]) => [name, STORAGE_INPUT_RULES[rule]]),
) as { [K in StorageFieldName]: (typeof STORAGE_INPUT_RULES)[(typeof STORAGE_FIELD_RULE)[K]] };

/** Every field a request may carry, each optional; `storage_type` is CloudPaste 1.9's name of the type. */
export const storageConfigFields = z
  .object({ ...fields, storage_type: z.string({ error: 'storage_type_invalid' }) })
  .partial();

/**
 * Fields a request may send as null to mean "not given": a client that sends back a config as
 * answered sends null for the fields of other types.
 */
const NULL_MEANS_ABSENT = new Set([
  'name',
  'provider_type',
  'storage_type',
  'bucket_name',
  'root_path',
  'tls',
]);

const partialInput = z
  .preprocess(
    (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value).filter(([key, v]) => !(v === null && NULL_MEANS_ABSENT.has(key))),
          )
        : value,
    storageConfigFields,
  )
  .transform((input, ctx) => {
    const { storage_type: type, ...rest } = input;
    if (type === undefined) return rest;
    const provider =
      PROVIDER_OF_STORAGE_TYPE[type.trim().toUpperCase() as keyof typeof PROVIDER_OF_STORAGE_TYPE];
    if (!provider) {
      ctx.addIssue({ code: 'custom', path: ['storage_type'], message: 'storage_type_invalid' });
      return z.NEVER;
    }
    // CloudPaste 1.9 names the type; a provider given beside it must be of that type.
    if (
      rest.provider_type !== undefined &&
      storageTypeOfProvider(rest.provider_type) !== storageTypeOfProvider(provider)
    ) {
      ctx.addIssue({ code: 'custom', path: ['storage_type'], message: 'storage_type_invalid' });
      return z.NEVER;
    }
    return { ...rest, provider_type: rest.provider_type ?? provider };
  });
type PartialInput = z.output<typeof partialInput>;

export interface LocalConfigInput {
  driver: 'local';
  name: string;
  provider_type: typeof LOCAL_PROVIDER_LABEL;
  root_path: string;
  is_public: boolean;
  signature_expires_in: number;
  total_storage_bytes: number | null;
}

export interface S3ConfigInput {
  driver: 's3';
  name: string;
  provider_type: S3ProviderLabel;
  /** "" when the provider derives it. */
  endpoint_url: string;
  bucket_name: string;
  region: string;
  access_key_id: string;
  secret_access_key: string;
  path_style: boolean;
  /** Without leading or trailing slashes; "" = the whole bucket. */
  default_folder: string;
  custom_host: string | null;
  is_public: boolean;
  signature_expires_in: number;
  total_storage_bytes: number | null;
}

/** Shared by every type: name, provider, use by keys, URL lifetime, quota. */
interface CommonInput {
  name: string;
  is_public: boolean;
  signature_expires_in: number;
  total_storage_bytes: number | null;
}

export interface WebdavConfigInput extends CommonInput {
  driver: 'webdav';
  provider_type: 'WebDAV';
  endpoint_url: string;
  username: string;
  password: string;
  /** Without leading or trailing slashes; "" = the whole tree the endpoint serves. */
  default_folder: string;
  tls_insecure_skip_verify: boolean;
}

export interface SftpConfigInput extends CommonInput {
  driver: 'sftp';
  provider_type: 'SFTP';
  host: string;
  port: number;
  username: string;
  password: string;
  private_key: string;
  passphrase: string;
  /** An absolute folder on the server. */
  root: string;
  /** The pinned host key; null until the first successful test pins it. */
  host_key_fingerprint: string | null;
}

export interface FtpConfigInput extends CommonInput {
  driver: 'ftp';
  provider_type: 'FTP';
  host: string;
  port: number;
  username: string;
  password: string;
  root: string;
  tls: FtpTlsMode;
  tls_insecure_skip_verify: boolean;
}

/** A complete, checked config as the server stores it. */
export type StorageConfigInput =
  LocalConfigInput | S3ConfigInput | WebdavConfigInput | SftpConfigInput | FtpConfigInput;

/** The storage type (CloudPaste 1.9's `storage_type`) of a provider label. */
export function storageTypeOfProvider(
  label: StorageProviderLabel,
): 'S3' | 'LOCAL' | 'WEBDAV' | 'SFTP' | 'FTP' {
  if (label === LOCAL_PROVIDER_LABEL) return 'LOCAL';
  if (label === 'WebDAV') return 'WEBDAV';
  if (label === 'SFTP' || label === 'FTP') return label;
  return 'S3';
}

/** The port a type connects to when none is given. */
export const DEFAULT_PORTS = { SFTP: 22, FTP: 21 } as const;

type Issue = { path: string; message: string };

/**
 * The rules that span fields, on an input whose fields are each valid: what each provider
 * requires, with its fixed values applied. Returns the complete config or the problems found.
 */
export function checkStorageConfig(
  input: PartialInput,
): { ok: true; value: StorageConfigInput } | { ok: false; issues: Issue[] } {
  const issues: Issue[] = [];
  const need = (path: keyof PartialInput, message: string) => {
    const value = input[path];
    if (value === undefined || value === '' || value === null) issues.push({ path, message });
  };
  need('name', 'storage_name_required');
  need('provider_type', 'provider_invalid');
  const provider = input.provider_type;
  const common = {
    name: input.name ?? '',
    is_public: input.is_public ?? false,
    signature_expires_in: input.signature_expires_in ?? SIGNATURE_EXPIRES_DEFAULT,
    total_storage_bytes: input.total_storage_bytes ?? null,
  };
  if (provider === LOCAL_PROVIDER_LABEL) {
    need('root_path', 'root_path_required');
    if (issues.length > 0) return { ok: false, issues };
    return {
      ok: true,
      value: { driver: 'local', provider_type: provider, root_path: input.root_path!, ...common },
    };
  }
  if (provider === 'WebDAV') {
    need('endpoint_url', 'endpoint_required');
    if (issues.length > 0) return { ok: false, issues };
    return {
      ok: true,
      value: {
        driver: 'webdav',
        provider_type: provider,
        endpoint_url: input.endpoint_url!,
        username: input.username ?? '',
        password: input.password ?? '',
        default_folder: input.default_folder ?? '',
        tls_insecure_skip_verify: input.tls_insecure_skip_verify ?? false,
        ...common,
      },
    };
  }
  if (provider === 'SFTP') {
    need('host', 'host_required');
    need('username', 'storage_username_required');
    if (!input.password && !input.private_key)
      issues.push({ path: 'password', message: 'ssh_credentials_required' });
    if (issues.length > 0) return { ok: false, issues };
    return {
      ok: true,
      value: {
        driver: 'sftp',
        provider_type: provider,
        host: input.host!,
        port: input.port ?? DEFAULT_PORTS.SFTP,
        username: input.username!,
        password: input.password ?? '',
        private_key: input.private_key ?? '',
        passphrase: input.passphrase ?? '',
        root: input.root ?? '/',
        host_key_fingerprint: input.host_key_fingerprint || null,
        ...common,
      },
    };
  }
  if (provider === 'FTP') {
    need('host', 'host_required');
    if (issues.length > 0) return { ok: false, issues };
    return {
      ok: true,
      value: {
        driver: 'ftp',
        provider_type: provider,
        host: input.host!,
        port: input.port ?? DEFAULT_PORTS.FTP,
        username: input.username || 'anonymous',
        password: input.password ?? '',
        root: input.root ?? '/',
        tls: input.tls ?? 'none',
        tls_insecure_skip_verify: input.tls_insecure_skip_verify ?? false,
        ...common,
      },
    };
  }
  if (provider === undefined) return { ok: false, issues };
  const rules = S3_PROVIDER_RULES[provider];
  const endpoint = input.endpoint_url ?? '';
  let region = input.region ?? '';
  if (rules.endpointRequired) need('endpoint_url', 'endpoint_required');
  if (rules.fixedRegion) region = rules.fixedRegion;
  if (rules.regionOrEndpoint && region === '' && endpoint === '') {
    issues.push({ path: 'region', message: 'region_required' });
  }
  need('bucket_name', 'bucket_required');
  need('access_key_id', 'access_key_required');
  need('secret_access_key', 'secret_required');
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      driver: 's3',
      provider_type: provider,
      endpoint_url: endpoint,
      bucket_name: input.bucket_name!,
      region,
      access_key_id: input.access_key_id!,
      secret_access_key: input.secret_access_key!,
      path_style: rules.forcePathStyle ? true : (input.path_style ?? false),
      default_folder: input.default_folder ?? '',
      custom_host: input.custom_host || null,
      ...common,
    },
  };
}

/** `POST /api/s3-configs`: an S3 config (`provider_type` one of the S3 labels) or a local one (`'Local'`, `root_path`). */
export const storageConfigCreateSchema = partialInput.transform((input, ctx): StorageConfigInput => {
  const checked = checkStorageConfig(input);
  if (checked.ok) return checked.value;
  for (const issue of checked.issues)
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  return z.NEVER;
});

/**
 * `PUT /api/s3-configs/:id`: any subset of the create fields, each checked alone. The server merges
 * them over the stored config and checks the result with {@link checkStorageConfig}; an empty or
 * absent `access_key_id` / `secret_access_key` keeps the stored one.
 */
export const storageConfigUpdateSchema = partialInput;

export type StorageConfigCreateBody = z.input<typeof storageConfigFields>;
export type StorageConfigUpdateBody = z.input<typeof storageConfigFields>;
export type StorageConfigUpdate = z.output<typeof storageConfigUpdateSchema>;

/**
 * A config as `GET /api/s3-configs` answers it. Booleans that CloudPaste sends as 0/1 stay numeric.
 * Never the secret or the full access key. S3 fields are null on local configs.
 */
export interface StorageConfigView {
  id: string;
  name: string;
  driver: 'local' | 's3' | 'webdav' | 'sftp' | 'ftp';
  /** CloudPaste 1.9's name of the type. */
  storage_type: 'S3' | 'LOCAL' | 'WEBDAV' | 'SFTP' | 'FTP';
  provider_type: string;
  endpoint_url: string | null;
  bucket_name: string | null;
  region: string | null;
  path_style: 0 | 1;
  default_folder: string | null;
  custom_host: string | null;
  is_public: 0 | 1;
  is_default: 0 | 1;
  total_storage_bytes: number | null;
  signature_expires_in: number;
  created_at: string;
  updated_at: string;
  /** Admin only: the folder on the server of a local config (null for S3). */
  root_path?: string | null;
  /** Admin only. */
  last_used?: string | null;
  /** Admin only: e.g. "AKIA…WXYZ", "…" for a short key, null for local configs. */
  access_key_id_masked?: string | null;
  /** Admin only: whether credentials are stored and open under the current SECRET_KEY. */
  has_secret?: boolean;
  /**
   * Admin only, on the types that have them (WebDAV, SFTP, FTP): the connection's plain settings,
   * and each stored secret as {@link SECRET_MASK} (null when none is stored).
   */
  host?: string | null;
  port?: number | null;
  username?: string | null;
  root?: string | null;
  host_key_fingerprint?: string | null;
  tls?: FtpTlsMode | null;
  tls_insecure_skip_verify?: 0 | 1;
  password?: string | null;
  private_key?: string | null;
  passphrase?: string | null;
}

/** The steps `POST /api/s3-configs/:id/test` reports, in order. */
export const STORAGE_TEST_STEPS = ['list', 'write', 'read', 'cors', 'etag', 'delete'] as const;
export type StorageTestStepName = (typeof STORAGE_TEST_STEPS)[number];

export interface StorageTestStep {
  name: StorageTestStepName;
  success: boolean;
  duration_ms: number;
  /** What was checked or found, in the request's language. */
  note: string;
  error?: string;
}
