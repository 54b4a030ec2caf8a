/**
 * Form logic of the mount dialog: the values as typed, validation with the schema the server uses
 * (`mountCreateSchema` from @cubby/shared) turned into translation keys, and the search over the
 * list. A mount is always sent whole (create and edit alike), as CloudPaste's form does.
 */
import {
  CACHE_TTL_DEFAULT,
  type LinkPolicy,
  type Mount,
  type MountCreateInput,
  mountCreateSchema,
  reservedMountPrefix,
} from '@cubby/shared';

export interface MountFormValues {
  name: string;
  storageConfigId: string;
  mountPath: string;
  remark: string;
  /** As typed; must be a whole number. */
  sortOrder: string;
  cacheTtl: string;
  isActive: boolean;
  /** How downloads leave (docs/storage.md, "Download links"), and the public address for `custom_host`. */
  linkPolicy: LinkPolicy;
  customHost: string;
}

export type MountFormField =
  'name' | 'storageConfigId' | 'mountPath' | 'remark' | 'sortOrder' | 'cacheTtl' | 'customHost';

export type MountFormErrorKey =
  | 'admin.mounts.errors.nameRequired'
  | 'admin.mounts.errors.nameTooLong'
  | 'admin.mounts.errors.storageRequired'
  | 'admin.mounts.errors.pathRequired'
  | 'admin.mounts.errors.pathLeadingSlash'
  | 'admin.mounts.errors.pathTrailingSlash'
  | 'admin.mounts.errors.pathDoubleSlash'
  | 'admin.mounts.errors.pathChars'
  | 'admin.mounts.errors.pathTooLong'
  | 'admin.mounts.errors.pathSystemReserved'
  | 'admin.mounts.errors.pathAppReserved'
  | 'admin.mounts.errors.cacheTtlInvalid'
  | 'admin.mounts.errors.sortOrderInvalid'
  | 'admin.mounts.errors.remarkTooLong'
  | 'admin.mounts.errors.customHostInvalid'
  | 'admin.mounts.errors.customHostRequired';

export type MountFormErrors = Partial<Record<MountFormField, MountFormErrorKey>>;

/** The shared schema's issue messages, as translation keys. */
const ISSUE_KEYS: Record<string, MountFormErrorKey> = {
  mount_name_required: 'admin.mounts.errors.nameRequired',
  mount_name_too_long: 'admin.mounts.errors.nameTooLong',
  storage_config_required: 'admin.mounts.errors.storageRequired',
  mount_path_required: 'admin.mounts.errors.pathRequired',
  mount_path_leading_slash: 'admin.mounts.errors.pathLeadingSlash',
  mount_path_trailing_slash: 'admin.mounts.errors.pathTrailingSlash',
  mount_path_double_slash: 'admin.mounts.errors.pathDoubleSlash',
  mount_path_chars: 'admin.mounts.errors.pathChars',
  mount_path_too_long: 'admin.mounts.errors.pathTooLong',
  mount_path_system_reserved: 'admin.mounts.errors.pathSystemReserved',
  mount_path_app_reserved: 'admin.mounts.errors.pathAppReserved',
  cache_ttl_invalid: 'admin.mounts.errors.cacheTtlInvalid',
  sort_order_invalid: 'admin.mounts.errors.sortOrderInvalid',
  remark_too_long: 'admin.mounts.errors.remarkTooLong',
  custom_host_invalid: 'admin.mounts.errors.customHostInvalid',
  custom_host_required: 'admin.mounts.errors.customHostRequired',
};

/** Maps the server's field names (a 400's `details`) to form fields, and back for issues. */
export const SERVER_FIELD: Record<string, MountFormField> = {
  name: 'name',
  storage_config_id: 'storageConfigId',
  mount_path: 'mountPath',
  remark: 'remark',
  sort_order: 'sortOrder',
  cache_ttl: 'cacheTtl',
  custom_host: 'customHost',
};

export function emptyMountForm(storageConfigId = ''): MountFormValues {
  return {
    name: '',
    storageConfigId,
    mountPath: '',
    remark: '',
    sortOrder: '0',
    cacheTtl: String(CACHE_TTL_DEFAULT),
    isActive: true,
    linkPolicy: 'proxy',
    customHost: '',
  };
}

export function valuesOf(mount: Mount): MountFormValues {
  return {
    name: mount.name,
    storageConfigId: mount.storage_config_id,
    mountPath: mount.mount_path,
    remark: mount.remark ?? '',
    sortOrder: String(mount.sort_order),
    cacheTtl: String(mount.cache_ttl),
    isActive: mount.is_active,
    linkPolicy: mount.link_policy ?? 'proxy',
    customHost: mount.custom_host ?? '',
  };
}

/**
 * A number field as the schema should see it: empty is its default, anything that is not a
 * plain whole number stays a non-integer (so the schema's message answers it).
 */
function wholeNumber(value: string, fallback: number): number {
  const trimmed = value.trim();
  if (trimmed === '') return fallback;
  return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

type Validated = { ok: true; input: MountCreateInput } | { ok: false; errors: MountFormErrors };

export function validateMountForm(values: MountFormValues): Validated {
  const parsed = mountCreateSchema.safeParse({
    name: values.name,
    storage_type: 'S3',
    storage_config_id: values.storageConfigId,
    mount_path: values.mountPath,
    remark: values.remark.trim() === '' ? null : values.remark,
    is_active: values.isActive,
    sort_order: wholeNumber(values.sortOrder, 0),
    cache_ttl: wholeNumber(values.cacheTtl, CACHE_TTL_DEFAULT),
    link_policy: values.linkPolicy,
    // The address is kept while another policy is chosen, so switching back does not lose it.
    custom_host: values.customHost.trim() === '' ? null : values.customHost,
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: MountFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = SERVER_FIELD[String(issue.path[0])];
    if (field) errors[field] ??= ISSUE_KEYS[issue.message] ?? fallbackKey(field);
  }
  return { ok: false, errors };
}

/** The message of a field whose issue has no key of its own (a wrong type). */
function fallbackKey(field: MountFormField): MountFormErrorKey {
  const keys: Record<MountFormField, MountFormErrorKey> = {
    name: 'admin.mounts.errors.nameRequired',
    storageConfigId: 'admin.mounts.errors.storageRequired',
    mountPath: 'admin.mounts.errors.pathChars',
    remark: 'admin.mounts.errors.remarkTooLong',
    sortOrder: 'admin.mounts.errors.sortOrderInvalid',
    cacheTtl: 'admin.mounts.errors.cacheTtlInvalid',
    customHost: 'admin.mounts.errors.customHostInvalid',
  };
  return keys[field];
}

/** The reserved prefix a path hits, for the reserved-path messages ("/bin"). */
export function reservedPrefixOf(mountPath: string): string {
  return reservedMountPrefix(mountPath.trim())?.prefix ?? '';
}

/** The mounts whose name, path, storage or remark contain the query (any case; blank: all). */
export function filterMounts<T extends Pick<Mount, 'name' | 'mount_path' | 'remark' | 'storage_config_name'>>(
  mounts: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...mounts];
  return mounts.filter((mount) =>
    [mount.name, mount.mount_path, mount.remark ?? '', mount.storage_config_name].some((text) =>
      text.toLocaleLowerCase().includes(needle),
    ),
  );
}
