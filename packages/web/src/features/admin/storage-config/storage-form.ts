/**
 * Form logic of the storage config dialogs (docs/product.md §3 "Storage config"): the provider presets
 * (which fields each provider needs, what it fills in), the values a config starts from, and the
 * validation that turns the form into the body of `POST /s3-configs` or `PUT /s3-configs/:id`,
 * with translation keys for every problem. Which fields a config has comes from its type's field
 * list (packages/shared/src/storage-fields.ts), never from a branch per type here. Secrets are never part of a stored config's values: on
 * edit an empty credential field means "keep the stored one", so it is left out of the body.
 */
import {
  PROVIDER_OF_STORAGE_TYPE,
  S3_PROVIDER_RULES,
  STORAGE_TYPE_OF_DRIVER,
  SIGNATURE_EXPIRES_DEFAULT,
  SIZE_UNITS,
  canonicalProvider,
  checkStorageConfig,
  storageConfigUpdateSchema,
  storageFields,
  storageProvider,
  toBytes,
  toUnit,
  type FtpTlsMode,
  type S3ProviderLabel,
  type SizeUnit,
  type StorageConfigCreateBody,
  type StorageFieldName,
  type StorageProvider,
  type StorageProviderLabel,
} from '@cubby/shared';
import type { StorageConfig } from './api/types.ts';

export type ProviderType = StorageProviderLabel;
export type ProviderId = StorageProvider['id'];

/** What the form shows and fills in per provider; the rules themselves are `S3_PROVIDER_RULES`. */
export interface ProviderPreset {
  id: ProviderId;
  /** The endpoint must be given (others derive it from the region when empty). */
  endpointRequired: boolean;
  /** Region handling: fixed by the provider, needed (unless the endpoint names it), or optional. */
  region: 'fixed' | 'required' | 'optional';
  /** The region the form starts with. */
  defaultRegion: string;
  /** Path-style addressing: always on for the provider, or the form's starting value. */
  pathStyle: 'forced' | boolean;
  /** An example endpoint, shown as its placeholder (an address, not wording). */
  endpointExample: string;
}

function s3Preset(
  label: S3ProviderLabel,
  defaultRegion: string,
  pathStyle: boolean,
  endpointExample: string,
) {
  const rules = S3_PROVIDER_RULES[label];
  return {
    id: storageProvider(label).id,
    endpointExample,
    endpointRequired: rules.endpointRequired,
    region: rules.fixedRegion ? 'fixed' : rules.regionOrEndpoint ? 'required' : 'optional',
    defaultRegion: rules.fixedRegion ?? defaultRegion,
    pathStyle: rules.forcePathStyle ? 'forced' : pathStyle,
  } satisfies ProviderPreset;
}

/** A type that is not S3: nothing of the S3 presets applies (an endpoint only where its field list has one). */
function plainPreset(id: ProviderId, endpointExample: string): ProviderPreset {
  return {
    id,
    endpointRequired: false,
    region: 'optional',
    defaultRegion: '',
    pathStyle: false,
    endpointExample,
  };
}

export const PROVIDER_PRESETS: Record<ProviderType, ProviderPreset> = {
  'Cloudflare R2': s3Preset('Cloudflare R2', '', false, 'https://<account-id>.r2.cloudflarestorage.com'),
  'Backblaze B2': s3Preset('Backblaze B2', '', false, 'https://s3.us-west-004.backblazeb2.com'),
  'AWS S3': s3Preset('AWS S3', 'us-east-1', false, 'https://s3.eu-central-1.amazonaws.com'),
  // MinIO, Ceph, Garage…: most self-hosted servers only answer path-style requests.
  'Other S3 Compatible': s3Preset('Other S3 Compatible', '', true, 'http://minio.example.com:9000'),
  Local: plainPreset('local', ''),
  WebDAV: {
    ...plainPreset('webdav', 'https://cloud.example.com/remote.php/dav/files/me'),
    endpointRequired: true,
  },
  SFTP: plainPreset('sftp', ''),
  FTP: plainPreset('ftp', ''),
};

/** What a provider's preset makes of a field: required or not, a value it fixes, its placeholder. */
export interface PresetField {
  required?: boolean;
  fixed?: string | boolean;
  placeholder?: string;
}

/** The fields a preset decides on, and what it decides. */
const PRESET_FIELDS: Partial<Record<StorageFieldName, (preset: ProviderPreset) => PresetField>> = {
  endpoint_url: (p) => ({ required: p.endpointRequired, placeholder: p.endpointExample }),
  region: (p) => (p.region === 'fixed' ? { fixed: p.defaultRegion } : { required: p.region === 'required' }),
  path_style: (p) => (p.pathStyle === 'forced' ? { fixed: true } : {}),
};

export function presetField(providerType: ProviderType, name: StorageFieldName): PresetField {
  return PRESET_FIELDS[name]?.(PROVIDER_PRESETS[providerType]) ?? {};
}

/** The form value each field of the field lists is edited as. */
export const FORM_KEY = {
  provider_type: 'providerType',
  name: 'name',
  endpoint_url: 'endpointUrl',
  bucket_name: 'bucketName',
  region: 'region',
  access_key_id: 'accessKeyId',
  secret_access_key: 'secretAccessKey',
  path_style: 'pathStyle',
  default_folder: 'defaultFolder',
  custom_host: 'customHost',
  root_path: 'rootPath',
  is_public: 'isPublic',
  signature_expires_in: 'signatureExpiresIn',
  total_storage_bytes: 'quotaValue',
  host: 'host',
  port: 'port',
  username: 'username',
  password: 'password',
  private_key: 'privateKey',
  passphrase: 'passphrase',
  root: 'remoteRoot',
  host_key_fingerprint: 'hostKeyFingerprint',
  tls: 'ftpTls',
  tls_insecure_skip_verify: 'tlsSkipVerify',
} as const satisfies Record<StorageFieldName, keyof StorageFormValues>;

/** The preset of a stored `provider_type` ("Other" is how CloudPaste clients spell the last S3 one). */
export function providerOf(providerType: string, driver?: StorageConfig['driver']): ProviderType {
  const label = canonicalProvider(providerType);
  if (label) return label;
  return driver === undefined || driver === 's3'
    ? 'Other S3 Compatible'
    : PROVIDER_OF_STORAGE_TYPE[STORAGE_TYPE_OF_DRIVER[driver]];
}

export interface StorageFormValues {
  providerType: ProviderType;
  name: string;
  endpointUrl: string;
  bucketName: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  defaultFolder: string;
  customHost: string;
  /** Seconds, as typed. */
  signatureExpiresIn: string;
  /** Empty: no quota. */
  quotaValue: string;
  quotaUnit: SizeUnit;
  isPublic: boolean;
  /** Local disk only: the folder on the server. */
  rootPath: string;
  /** WebDAV, SFTP, FTP: the connection (the port as typed; empty for the usual one). */
  host: string;
  port: string;
  username: string;
  password: string;
  privateKey: string;
  passphrase: string;
  remoteRoot: string;
  hostKeyFingerprint: string;
  ftpTls: FtpTlsMode;
  tlsSkipVerify: boolean;
}

export function emptyStorageForm(providerType: ProviderType = 'Other S3 Compatible'): StorageFormValues {
  const preset = PROVIDER_PRESETS[providerType];
  return {
    providerType,
    name: '',
    endpointUrl: '',
    bucketName: '',
    region: preset.defaultRegion,
    accessKeyId: '',
    secretAccessKey: '',
    pathStyle: preset.pathStyle !== false,
    defaultFolder: '',
    customHost: '',
    signatureExpiresIn: String(SIGNATURE_EXPIRES_DEFAULT),
    quotaValue: '',
    quotaUnit: 'GB',
    isPublic: false,
    rootPath: '',
    host: '',
    port: '',
    username: '',
    password: '',
    privateKey: '',
    passphrase: '',
    remoteRoot: '',
    hostKeyFingerprint: '',
    ftpTls: 'none',
    tlsSkipVerify: false,
  };
}

/**
 * Switches the provider: the region and path style follow the new preset unless the user had
 * changed them from the old preset's values; everything else stays.
 */
export function applyProvider(values: StorageFormValues, providerType: ProviderType): StorageFormValues {
  const before = PROVIDER_PRESETS[values.providerType];
  const after = PROVIDER_PRESETS[providerType];
  const regionUntouched = values.region.trim() === '' || values.region === before.defaultRegion;
  const pathStyleUntouched = before.pathStyle === 'forced' || values.pathStyle === before.pathStyle;
  return {
    ...values,
    providerType,
    region: after.region === 'fixed' || regionUntouched ? after.defaultRegion : values.region,
    pathStyle: after.pathStyle === 'forced' ? true : pathStyleUntouched ? after.pathStyle : values.pathStyle,
  };
}

/** The form's starting values for a stored config (credentials empty: kept unless retyped). */
export function valuesOf(config: StorageConfig): StorageFormValues {
  const providerType = providerOf(config.provider_type, config.driver);
  const quota = config.total_storage_bytes ? toUnit(config.total_storage_bytes) : null;
  return {
    ...emptyStorageForm(providerType),
    name: config.name,
    endpointUrl: config.endpoint_url ?? '',
    bucketName: config.bucket_name ?? '',
    region: config.region ?? '',
    pathStyle: Boolean(config.path_style),
    defaultFolder: config.default_folder ?? '',
    customHost: config.custom_host ?? '',
    signatureExpiresIn: String(config.signature_expires_in || SIGNATURE_EXPIRES_DEFAULT),
    quotaValue: quota ? String(quota.value) : '',
    quotaUnit: quota?.unit ?? 'GB',
    isPublic: Boolean(config.is_public),
    rootPath: config.root_path ?? '',
    host: config.host ?? '',
    port: config.port ? String(config.port) : '',
    username: config.username ?? '',
    remoteRoot: config.root ?? '',
    hostKeyFingerprint: config.host_key_fingerprint ?? '',
    ftpTls: config.tls ?? 'none',
    tlsSkipVerify: Boolean(config.tls_insecure_skip_verify),
  };
}

export type StorageFormField =
  | 'name'
  | 'endpointUrl'
  | 'bucketName'
  | 'region'
  | 'accessKeyId'
  | 'secretAccessKey'
  | 'defaultFolder'
  | 'customHost'
  | 'signatureExpiresIn'
  | 'quotaValue'
  | 'rootPath'
  | 'host'
  | 'port'
  | 'username'
  | 'password'
  | 'privateKey'
  | 'passphrase'
  | 'remoteRoot'
  | 'hostKeyFingerprint';

export type StorageFormErrorKey =
  | 'admin.storage.errors.nameRequired'
  | 'admin.storage.errors.nameTooLong'
  | 'admin.storage.errors.endpointRequired'
  | 'admin.storage.errors.urlInvalid'
  | 'admin.storage.errors.bucketRequired'
  | 'admin.storage.errors.bucketInvalid'
  | 'admin.storage.errors.regionRequired'
  | 'admin.storage.errors.regionInvalid'
  | 'admin.storage.errors.accessKeyRequired'
  | 'admin.storage.errors.secretRequired'
  | 'admin.storage.errors.credentialTooLong'
  | 'admin.storage.errors.folderInvalid'
  | 'admin.storage.errors.signatureInvalid'
  | 'admin.storage.errors.quotaInvalid'
  | 'admin.storage.errors.rootPathRequired'
  | 'admin.storage.errors.rootPathInvalid'
  | 'admin.storage.errors.hostRequired'
  | 'admin.storage.errors.hostInvalid'
  | 'admin.storage.errors.portInvalid'
  | 'admin.storage.errors.usernameRequired'
  | 'admin.storage.errors.usernameInvalid'
  | 'admin.storage.errors.sshCredentialsRequired'
  | 'admin.storage.errors.privateKeyInvalid'
  | 'admin.storage.errors.remoteRootInvalid'
  | 'admin.storage.errors.fingerprintInvalid';

export type StorageFormErrors = Partial<Record<StorageFormField, StorageFormErrorKey>>;

/** The shared schema's issue messages as translation keys. */
const MESSAGE_ERRORS: Record<string, StorageFormErrorKey> = {
  storage_name_required: 'admin.storage.errors.nameRequired',
  storage_name_too_long: 'admin.storage.errors.nameTooLong',
  endpoint_required: 'admin.storage.errors.endpointRequired',
  url_invalid: 'admin.storage.errors.urlInvalid',
  bucket_required: 'admin.storage.errors.bucketRequired',
  bucket_invalid: 'admin.storage.errors.bucketInvalid',
  region_required: 'admin.storage.errors.regionRequired',
  region_invalid: 'admin.storage.errors.regionInvalid',
  access_key_required: 'admin.storage.errors.accessKeyRequired',
  secret_required: 'admin.storage.errors.secretRequired',
  credential_too_long: 'admin.storage.errors.credentialTooLong',
  folder_invalid: 'admin.storage.errors.folderInvalid',
  signature_expires_invalid: 'admin.storage.errors.signatureInvalid',
  quota_invalid: 'admin.storage.errors.quotaInvalid',
  root_path_required: 'admin.storage.errors.rootPathRequired',
  root_path_invalid: 'admin.storage.errors.rootPathInvalid',
  host_required: 'admin.storage.errors.hostRequired',
  host_invalid: 'admin.storage.errors.hostInvalid',
  port_invalid: 'admin.storage.errors.portInvalid',
  storage_username_required: 'admin.storage.errors.usernameRequired',
  storage_username_invalid: 'admin.storage.errors.usernameInvalid',
  storage_password_invalid: 'admin.storage.errors.credentialTooLong',
  ssh_credentials_required: 'admin.storage.errors.sshCredentialsRequired',
  private_key_invalid: 'admin.storage.errors.privateKeyInvalid',
  remote_root_invalid: 'admin.storage.errors.remoteRootInvalid',
  fingerprint_invalid: 'admin.storage.errors.fingerprintInvalid',
};

/** The quota in bytes: null for an empty field (no quota), undefined when invalid. */
export function parseQuota(value: string, unit: SizeUnit): number | null | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!/^\d+(\.\d+)?$/.test(trimmed) || !SIZE_UNITS.includes(unit)) return undefined;
  const bytes = toBytes(Number(trimmed), unit);
  return bytes >= 1 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** What the form holds for a field, as the request body carries it (the quota in bytes). */
function bodyValue(values: StorageFormValues, name: StorageFieldName, quota: number | null): unknown {
  return name === 'total_storage_bytes' ? quota : values[FORM_KEY[name]];
}

/** The request body the form stands for, before checking (credentials as typed): its type's fields. */
function bodyOf(values: StorageFormValues, quota: number | null): StorageConfigCreateBody {
  const { type } = storageProvider(values.providerType);
  return Object.fromEntries(
    storageFields(type).map((field) => [field.name, bodyValue(values, field.name, quota)]),
  ) as StorageConfigCreateBody;
}

/** The message for a field when the schema's issue has none of its own. */
const FIELD_ERRORS: Record<StorageFormField, StorageFormErrorKey> = {
  name: 'admin.storage.errors.nameRequired',
  endpointUrl: 'admin.storage.errors.urlInvalid',
  bucketName: 'admin.storage.errors.bucketInvalid',
  region: 'admin.storage.errors.regionInvalid',
  accessKeyId: 'admin.storage.errors.accessKeyRequired',
  secretAccessKey: 'admin.storage.errors.secretRequired',
  defaultFolder: 'admin.storage.errors.folderInvalid',
  customHost: 'admin.storage.errors.urlInvalid',
  signatureExpiresIn: 'admin.storage.errors.signatureInvalid',
  quotaValue: 'admin.storage.errors.quotaInvalid',
  rootPath: 'admin.storage.errors.rootPathInvalid',
  host: 'admin.storage.errors.hostInvalid',
  port: 'admin.storage.errors.portInvalid',
  username: 'admin.storage.errors.usernameInvalid',
  password: 'admin.storage.errors.credentialTooLong',
  privateKey: 'admin.storage.errors.privateKeyInvalid',
  passphrase: 'admin.storage.errors.credentialTooLong',
  remoteRoot: 'admin.storage.errors.remoteRootInvalid',
  hostKeyFingerprint: 'admin.storage.errors.fingerprintInvalid',
};

/** Maps the server's field names (in a 400 `details` object, or a schema issue path) to form fields. */
export const SERVER_FIELD: Record<string, StorageFormField> = Object.fromEntries(
  Object.entries(FORM_KEY).filter(([, key]) => key in FIELD_ERRORS),
) as Record<string, StorageFormField>;

/** Stands in for a stored credential while an edit is checked (it is never sent). */
const KEPT = 'kept';

type Validated = { ok: true; input: StorageConfigCreateBody } | { ok: false; errors: StorageFormErrors };

/**
 * Checks the form with the server's rules (each field with `storageConfigUpdateSchema`, then what
 * the provider requires with `checkStorageConfig`, so every problem shows at once) and builds the
 * request body, normalised as the server stores it. On edit an empty credential keeps the stored
 * one: it is checked as present and left out of the body.
 */
export function validateStorageForm(values: StorageFormValues, mode: 'create' | 'edit'): Validated {
  const errors: StorageFormErrors = {};
  const quota = parseQuota(values.quotaValue, values.quotaUnit);
  if (quota === undefined) errors.quotaValue = 'admin.storage.errors.quotaInvalid';
  const body = bodyOf(values, quota ?? null);
  // On edit, a secret left empty is kept: checked as present, left out of the body.
  const kept =
    mode === 'edit'
      ? storageFields(storageProvider(values.providerType).type)
          .filter((field) => field.kind === 'secret' && String(values[FORM_KEY[field.name]]).trim() === '')
          .map((field) => field.name)
      : [];
  const candidate: Record<string, unknown> = { ...body };
  for (const name of kept) candidate[name] = KEPT;
  const issues: { path: PropertyKey; message: string }[] = [];
  const fields = storageConfigUpdateSchema.safeParse(candidate);
  if (!fields.success) {
    for (const issue of fields.error.issues) {
      issues.push({ path: issue.path[0] ?? '', message: issue.message });
      delete candidate[String(issue.path[0])];
    }
  }
  // The provider's requirements, on the fields that are valid on their own.
  const rest = storageConfigUpdateSchema.parse(candidate);
  const checked = checkStorageConfig(rest);
  if (!checked.ok) issues.push(...checked.issues);
  for (const issue of issues) {
    const field = SERVER_FIELD[String(issue.path)];
    if (field) errors[field] ??= MESSAGE_ERRORS[issue.message] ?? FIELD_ERRORS[field];
  }
  if (!checked.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  const { driver: _driver, ...input } = checked.value;
  for (const name of kept) delete (input as Record<string, unknown>)[name];
  return { ok: true, input };
}
