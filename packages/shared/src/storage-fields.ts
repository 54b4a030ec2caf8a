/**
 * The settings form of each storage type, as data (docs/architecture.md, "Driver registry"): which
 * fields a config of that type has, of what kind, whether they are required, their label and help
 * (translation keys of the web app) and the input rule each follows (`STORAGE_FIELD_RULE`, the
 * same rules the server validates with). The server's driver registry carries these lists with each
 * driver; the admin form renders from them, so a new storage type needs no form code of its own.
 */
import {
  SIGNATURE_EXPIRES_MAX,
  SIGNATURE_EXPIRES_MIN,
  STORAGE_FIELD_RULE,
  STORAGE_NAME_MAX,
  type StorageConfigView,
  type StorageFieldName,
  type StorageInputRule,
  type StorageProviderLabel,
} from './storage-configs.ts';

/** Storage types, as CloudPaste 1.9 spells them (its `storage_type`). */
export const STORAGE_TYPES = ['S3', 'LOCAL', 'WEBDAV', 'SFTP', 'FTP'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/** The storage type of a stored config's `driver`. */
export const STORAGE_TYPE_OF_DRIVER = {
  s3: 'S3',
  local: 'LOCAL',
  webdav: 'WEBDAV',
  sftp: 'SFTP',
  ftp: 'FTP',
} as const satisfies Record<StorageConfigView['driver'], StorageType>;

/**
 * How answers name a config's kind of storage where CloudPaste 0.6 said "S3" or "Local" (mounts,
 * the fs API, the dashboard): those two, and the name of each other type.
 */
export const STORAGE_KIND_NAME = {
  s3: 'S3',
  local: 'Local',
  webdav: 'WebDAV',
  sftp: 'SFTP',
  ftp: 'FTP',
} as const satisfies Record<StorageConfigView['driver'], string>;
export type StorageKindName = (typeof STORAGE_KIND_NAME)[keyof typeof STORAGE_KIND_NAME];

/** A provider a config can name, the short id its texts are keyed by, and its storage type. */
export interface StorageProvider {
  label: StorageProviderLabel;
  id: 'r2' | 'b2' | 'aws' | 'other' | 'local' | 'webdav' | 'sftp' | 'ftp';
  type: StorageType;
}

/** Every provider, in the order forms offer them. */
export const STORAGE_PROVIDERS: readonly StorageProvider[] = [
  { label: 'Cloudflare R2', id: 'r2', type: 'S3' },
  { label: 'Backblaze B2', id: 'b2', type: 'S3' },
  { label: 'AWS S3', id: 'aws', type: 'S3' },
  { label: 'Other S3 Compatible', id: 'other', type: 'S3' },
  { label: 'Local', id: 'local', type: 'LOCAL' },
  { label: 'WebDAV', id: 'webdav', type: 'WEBDAV' },
  { label: 'SFTP', id: 'sftp', type: 'SFTP' },
  { label: 'FTP', id: 'ftp', type: 'FTP' },
];

/**
 * - `text`: typed text (`rule` says what it must be; a `url` rule makes it an address field);
 * - `secret`: a credential, stored sealed and never read back: empty on edit keeps the stored one;
 * - `number`: whole numbers between `min` and `max`;
 * - `bytes`: a size, typed with a unit;
 * - `boolean`: a checkbox;
 * - `select`: one of `options`.
 */
export type StorageFieldKind = 'text' | 'secret' | 'number' | 'bytes' | 'boolean' | 'select';

/** Where a field shows: with the name, in the connection's part, or among the options. */
export type StorageFieldSection = 'general' | 'connection' | 'options';

export interface StorageField {
  /** The config's field, as CloudPaste 0.6/1.9 name it in requests and answers. */
  name: StorageFieldName;
  kind: StorageFieldKind;
  /** `create`: needed to create a config, kept when left empty on edit (credentials). */
  required: boolean | 'create';
  /** The input rule it follows (`STORAGE_INPUT_RULES`). */
  rule: StorageInputRule;
  section: StorageFieldSection;
  /** Takes the whole row (otherwise half of it from the small breakpoint up). */
  wide?: boolean;
  /** Typed exactly (identifiers, addresses, keys): no spell check or autocomplete, monospace. */
  code?: boolean;
  /** A secret shown as typed (an access key id) rather than masked (a secret key). */
  visible?: boolean;
  /** Typed over several lines (a private key). */
  multiline?: boolean;
  labelKey: string;
  /** Help under the field; with `hintByProvider`, `<hintKey>.<provider id>`. */
  hintKey: string;
  hintByProvider?: boolean;
  /** Secrets on edit: the help that says empty keeps the stored value (`{{masked}}`: its masked form). */
  keepHintKey?: string;
  placeholderKey?: string;
  /** An example shown as the placeholder (an address, not wording). */
  placeholder?: string;
  /** `number`: the range (also the help's `{{min}}` and `{{max}}`); `text`: `max` is the longest input. */
  min?: number;
  max?: number;
  /** `select`: its choices. */
  options?: readonly { value: string; labelKey: string }[];
}

type FieldSpec = Omit<StorageField, 'name' | 'rule' | 'required'> & { required?: StorageField['required'] };

function field(name: StorageFieldName, spec: FieldSpec): StorageField {
  return { name, rule: STORAGE_FIELD_RULE[name], required: false, ...spec };
}

const label = (key: string) => `admin.storage.fields.${key}`;
const hint = (key: string) => `admin.storage.hints.${key}`;

/** The fields every config has before its type's own: which provider, and its name. */
const LEADING_FIELDS: readonly StorageField[] = [
  field('provider_type', {
    kind: 'select',
    required: true,
    section: 'general',
    labelKey: label('provider'),
    hintKey: 'admin.storage.providerHints',
    hintByProvider: true,
    options: STORAGE_PROVIDERS.map((p) => ({ value: p.label, labelKey: `admin.storage.providers.${p.id}` })),
  }),
  field('name', {
    kind: 'text',
    required: true,
    section: 'general',
    labelKey: label('name'),
    hintKey: hint('name'),
    max: STORAGE_NAME_MAX,
  }),
];

/** The fields every config has after its type's own. */
const TRAILING_FIELDS: readonly StorageField[] = [
  field('signature_expires_in', {
    kind: 'number',
    section: 'options',
    labelKey: label('signatureExpiresIn'),
    hintKey: hint('signatureExpiresIn'),
    min: SIGNATURE_EXPIRES_MIN,
    max: SIGNATURE_EXPIRES_MAX,
  }),
  field('total_storage_bytes', {
    kind: 'bytes',
    section: 'options',
    labelKey: label('quota'),
    hintKey: hint('quota'),
  }),
  field('is_public', {
    kind: 'boolean',
    section: 'options',
    wide: true,
    labelKey: label('isPublic'),
    hintKey: hint('isPublic'),
  }),
];

/** The connection fields of the types that reach another server: host, port, user and password. */
const host = field('host', {
  kind: 'text',
  required: true,
  section: 'connection',
  code: true,
  labelKey: label('host'),
  hintKey: hint('host'),
  placeholder: 'nas.example.com',
});
const port = (usual: number) =>
  field('port', {
    kind: 'number',
    section: 'connection',
    labelKey: label('port'),
    hintKey: hint(`port${usual}`),
    min: 1,
    max: 65_535,
  });
const username = (required: boolean) =>
  field('username', {
    kind: 'text',
    required,
    section: 'connection',
    code: true,
    labelKey: label('username'),
    hintKey: hint('username'),
  });
const password = field('password', {
  kind: 'secret',
  section: 'connection',
  labelKey: label('password'),
  hintKey: hint('password'),
  keepHintKey: hint('passwordKeep'),
});
const remoteRoot = field('root', {
  kind: 'text',
  section: 'options',
  code: true,
  labelKey: label('remoteRoot'),
  hintKey: hint('remoteRoot'),
  placeholder: '/srv/files',
});
const skipVerify = field('tls_insecure_skip_verify', {
  kind: 'boolean',
  section: 'connection',
  wide: true,
  labelKey: label('tlsSkipVerify'),
  hintKey: hint('tlsSkipVerify'),
});

/** Each type's own fields, in the order the form shows them. */
export const STORAGE_TYPE_FIELDS: Record<StorageType, readonly StorageField[]> = {
  S3: [
    field('endpoint_url', {
      kind: 'text',
      section: 'connection',
      wide: true,
      code: true,
      labelKey: label('endpoint'),
      hintKey: hint('endpoint'),
      hintByProvider: true,
    }),
    field('bucket_name', {
      kind: 'text',
      required: true,
      section: 'connection',
      code: true,
      labelKey: label('bucket'),
      hintKey: hint('bucket'),
    }),
    field('region', {
      kind: 'text',
      section: 'connection',
      code: true,
      labelKey: label('region'),
      hintKey: hint('region'),
      hintByProvider: true,
    }),
    field('access_key_id', {
      kind: 'secret',
      required: 'create',
      section: 'connection',
      code: true,
      visible: true,
      labelKey: label('accessKeyId'),
      hintKey: hint('accessKey'),
      keepHintKey: hint('accessKeyKeep'),
    }),
    field('secret_access_key', {
      kind: 'secret',
      required: 'create',
      section: 'connection',
      labelKey: label('secretAccessKey'),
      hintKey: hint('secret'),
      keepHintKey: hint('secretKeep'),
    }),
    field('path_style', {
      kind: 'boolean',
      section: 'connection',
      wide: true,
      labelKey: label('pathStyle'),
      hintKey: hint('pathStyle'),
      hintByProvider: true,
    }),
    field('default_folder', {
      kind: 'text',
      section: 'options',
      code: true,
      labelKey: label('defaultFolder'),
      hintKey: hint('defaultFolder'),
    }),
    field('custom_host', {
      kind: 'text',
      section: 'options',
      code: true,
      labelKey: label('customHost'),
      hintKey: hint('customHost'),
      placeholder: 'https://files.example.com',
    }),
  ],
  LOCAL: [
    field('root_path', {
      kind: 'text',
      required: true,
      section: 'general',
      wide: true,
      code: true,
      labelKey: label('rootPath'),
      hintKey: hint('rootPath'),
      placeholderKey: 'admin.storage.placeholders.rootPath',
    }),
  ],
  WEBDAV: [
    field('endpoint_url', {
      kind: 'text',
      required: true,
      section: 'connection',
      wide: true,
      code: true,
      labelKey: label('endpoint'),
      hintKey: hint('webdavEndpoint'),
      placeholder: 'https://nas.example.com/remote.php/dav/files/me',
    }),
    username(false),
    password,
    skipVerify,
    field('default_folder', {
      kind: 'text',
      section: 'options',
      code: true,
      labelKey: label('defaultFolder'),
      hintKey: hint('webdavFolder'),
    }),
  ],
  SFTP: [
    host,
    port(22),
    username(true),
    password,
    field('private_key', {
      kind: 'secret',
      section: 'connection',
      wide: true,
      code: true,
      multiline: true,
      labelKey: label('privateKey'),
      hintKey: hint('privateKey'),
      keepHintKey: hint('privateKeyKeep'),
    }),
    field('passphrase', {
      kind: 'secret',
      section: 'connection',
      labelKey: label('passphrase'),
      hintKey: hint('passphrase'),
      keepHintKey: hint('passphraseKeep'),
    }),
    field('host_key_fingerprint', {
      kind: 'text',
      section: 'connection',
      code: true,
      labelKey: label('hostKey'),
      hintKey: hint('hostKey'),
      placeholder: 'SHA256:…',
    }),
    remoteRoot,
  ],
  FTP: [
    host,
    port(21),
    username(false),
    password,
    field('tls', {
      kind: 'select',
      section: 'connection',
      labelKey: label('ftpTls'),
      hintKey: hint('ftpTls'),
      options: [
        { value: 'none', labelKey: 'admin.storage.ftpTls.none' },
        { value: 'explicit', labelKey: 'admin.storage.ftpTls.explicit' },
      ],
    }),
    skipVerify,
    remoteRoot,
  ],
};

/** Every field a config of `type` has, in the form's order: the common ones around the type's own. */
export function storageFields(type: StorageType): readonly StorageField[] {
  return [...LEADING_FIELDS, ...STORAGE_TYPE_FIELDS[type], ...TRAILING_FIELDS];
}

/** The provider a canonical label names. */
export function storageProvider(label: StorageProviderLabel): StorageProvider {
  return STORAGE_PROVIDERS.find((p) => p.label === label)!;
}
