/**
 * Table types for Kysely: the one place the schema's shape is written down in TypeScript.
 * Times are ISO-8601 UTC strings on both SQLite and PostgreSQL (they sort and compare as text);
 * booleans are integers 0/1.
 */
import type { AuditEntry, FileSource, WebhookDelivery } from '@cubby/shared';

/** A person who signs in (docs/accounts.md): today's admins and the members they invite. */
export interface UsersTable {
  id: string;
  username: string;
  password_hash: string;
  /** 'admin' or 'member'. */
  role: UserRole;
  email: string | null;
  /** 'active' or 'disabled': a disabled user's sessions, keys and app passwords stop. */
  status: 'active' | 'disabled';
  /** A member's home folder (virtual path); null: the homes root + the username. */
  home_path: string | null;
  /** The most a member's home folder may hold; null: no limit. */
  quota_bytes: number | null;
  /** Their TOTP secret, sealed (lib/secret-box.ts), once two-factor sign-in is on. */
  totp_secret: string | null;
  /** A TOTP secret being set up, sealed, until a first code turns it on. */
  totp_pending: string | null;
  totp_enabled_at: string | null;
  /** The last time step a code was used for: no code is taken twice. */
  totp_last_step: number | null;
  /** The DN of the LDAP entry their password lives in (docs/accounts.md, "LDAP"); null: kept here. */
  ldap_dn: string | null;
  created_at: string;
  updated_at: string;
}

export type UserRole = 'admin' | 'member';

/** The LDAP directory people may sign in against (one row, id 'default'; docs/accounts.md, "LDAP"). */
export interface LdapConfigTable {
  id: string;
  enabled: number;
  url: string;
  start_tls: number;
  bind_dn: string;
  /** Sealed (lib/secret-box.ts), or null: the search runs anonymously. */
  bind_password: string | null;
  user_base: string;
  user_filter: string;
  email_attribute: string;
  admin_group: string;
  allow_signup: number;
  timeout_seconds: number;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
  ip: string | null;
  last_used_at: string | null;
}

/** A member's path beyond their home folder, read only or read-write. */
export interface UserPathsTable {
  user_id: string;
  path: string;
  access: 'read' | 'write';
}

export interface InvitesTable {
  id: string;
  token_hash: string;
  role: UserRole;
  email: string | null;
  home_path: string | null;
  quota_bytes: number | null;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  prefix: string;
  access: 'read' | 'write';
  path: string | null;
  created_at: string;
  last_used: string | null;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  text_permission: number;
  file_permission: number;
  mount_permission: number;
  basic_path: string;
  created_at: string;
  expires_at: string;
  last_used: string | null;
  /** The user the key belongs to; it never reaches further than they do. */
  owner_id: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface PastesTable {
  id: string;
  slug: string;
  content: string;
  format: 'markdown' | 'text';
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  created_by: string | null;
  /** The user who owns it (directly or through one of their keys). */
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  title: string | null;
  /** 1: listed on the public page (when the admin turned it on) while unprotected and live. */
  is_public: number;
  /** When its owner revoked it; its link then answers 410. */
  revoked_at: string | null;
  /** Its rows in paste_files; 0 for a paste of one unnamed text. */
  file_count: number;
}

/** The named files of a multi-file paste, in order (migration 0026). */
export interface PasteFilesTable {
  paste_id: string;
  position: number;
  name: string;
  language: string;
  content: string;
}

export interface StorageConfigsTable {
  id: string;
  name: string;
  driver: 'local' | 's3' | 'webdav' | 'sftp' | 'ftp';
  /** CloudPaste's provider label: 'Cloudflare R2', 'Backblaze B2', 'AWS S3', 'Other S3 Compatible', 'Local', 'WebDAV', 'SFTP' or 'FTP'. */
  provider_type: string;
  /** JSON of the driver's plain settings. */
  settings: string;
  /** Credentials as JSON sealed with lib/secret-box.ts; null for local disk. */
  secrets: string | null;
  is_public: number;
  is_default: number;
  total_storage_bytes: number | null;
  signature_expires_in: number;
  admin_id: string | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
}

export interface FilesTable {
  id: string;
  slug: string;
  filename: string;
  storage_config_id: string;
  storage_path: string;
  mimetype: string;
  size: number;
  etag: string | null;
  /** 'pending' until the bytes are confirmed in storage; only 'ready' files are served. */
  status: 'pending' | 'ready';
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  use_proxy: number;
  /** 1: the object belongs to a mount, not to the share; retiring or deleting the share leaves it. */
  keep_object: number;
  /** 'mount_upload': published by an upload into a mount (migration 0013); 'share': any other. */
  source: FileSource;
  created_by: string | null;
  /** The user who owns it (directly or through one of their keys). */
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  /** When its owner revoked it; its links then answer 410. */
  revoked_at: string | null;
}

/** A read-only link to a mount folder (migration 0022). */
export interface FolderSharesTable {
  id: string;
  slug: string;
  /** The folder: a storage config and a driver path in it (it follows moves, as file shares do). */
  storage_config_id: string;
  storage_path: string;
  /** The virtual path it was made from, for display. */
  virtual_path: string;
  title: string | null;
  remark: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  revoked_at: string | null;
  /** When the folder was deleted. */
  folder_gone_at: string | null;
  created_by: string | null;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface UploadSessionsTable {
  id: string;
  file_id: string | null;
  storage_config_id: string;
  storage_path: string;
  /** The driver's multipart upload id. */
  upload_id: string;
  content_type: string;
  part_size: number;
  total_size: number;
  part_count: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** After this the orphan job aborts the upload and deletes the session (and a pending file). */
  expires_at: string;
}

export interface UploadPartsTable {
  session_id: string;
  part_number: number;
  etag: string;
  size: number;
  created_at: string;
}

/** A counted view's grant to keep delivering a file share's bytes (see migration 0004). */
export interface FileViewTokensTable {
  /** The share token's nonce, or a random id for a direct-mode grant. */
  nonce: string;
  file_id: string;
  expires_at: string;
  created_at: string;
}

/** An upload streaming through a server process (see migration 0005). */
export interface StreamedUploadsTable {
  file_id: string;
  /** The process's tag (lib/process-tag.ts). */
  owner: string;
  heartbeat_at: string;
}

/** A tus upload (migration 0024; modules/tus). */
export interface TusUploadsTable {
  id: string;
  created_by: string | null;
  owner_id: string | null;
  target_kind: string;
  /** JSON: what the target needs to finish. */
  target: string;
  filename: string;
  upload_length: number;
  upload_offset: number;
  metadata: string;
  storage_config_id: string;
  storage_path: string;
  upload_id: string;
  part_size: number;
  /** JSON `[{partNumber, etag, size}]`. */
  parts: string;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export interface MountsTable {
  id: string;
  name: string;
  storage_config_id: string;
  mount_path: string;
  remark: string | null;
  is_active: number;
  sort_order: number;
  cache_ttl: number;
  /** How downloads leave (migration 0030): 'proxy', 'direct' or 'custom_host'. */
  link_policy: 'proxy' | 'direct' | 'custom_host';
  /** The public address in front of the mount's folder, for 'custom_host'. */
  custom_host: string | null;
  /** The creating admin's id, bare, as CloudPaste records it (migration 0012); null for the system. */
  created_by: string | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
}

export interface FsTasksTable {
  id: string;
  kind: 'copy' | 'move';
  status: 'pending' | 'running' | 'done' | 'failed' | 'cancelled';
  /** Who asked: an admin id, or `apikey:<id>` (creatorId). */
  owner: string;
  /** JSON: the task's items and how each went (FsTaskItem[]). */
  items: string;
  skip_existing: number;
  files_total: number;
  files_done: number;
  files_skipped: number;
  files_failed: number;
  bytes_total: number;
  bytes_done: number;
  error: string | null;
  /** The process running it (lib/process-tag.ts). */
  runner: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A WebDAV dead property (PROPPATCH): its value is the property element's content as XML. */
export interface DavPropertiesTable {
  /** Canonical virtual path of the resource. */
  path: string;
  ns: string;
  name: string;
  value: string;
}

/** A WebDAV write lock (LOCK), honoured by every instance sharing the database. */
export interface DavLocksTable {
  /** `opaquelocktoken:<uuid>`. */
  token: string;
  /** Canonical virtual path of the lock root. */
  path: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The client's `owner` element as XML ('' without one). */
  owner_xml: string;
  /** Who took it (creatorId): only they may use its token. */
  principal: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}

/** Failed guesses under one limit rule and key in one bucket of its sliding window (PostgreSQL; http/rate-limiter.ts). */
export interface AttemptCountersTable {
  rule: string;
  key: string;
  /** The bucket's start, ms since the epoch. */
  window_start: number;
  count: number;
  /** When the bucket leaves the window (its start + the window), ms since the epoch: pruned after it. */
  expires_at: number;
}

/** A scheduled sync job (migration 0029; modules/scheduled-sync). */
export interface ScheduledJobsTable {
  id: string;
  name: string;
  source_path: string;
  target_path: string;
  schedule_type: 'interval' | 'cron';
  interval_sec: number | null;
  cron_expression: string | null;
  enabled: number;
  delete_extra: number;
  owner_id: string;
  owner_name: string;
  next_run_at: string | null;
  last_run_at: string | null;
  last_run_status: 'running' | 'success' | 'failed' | 'cancelled' | null;
  /** Set while a run goes on: the claim that keeps a job from running twice at once. */
  running_run_id: string | null;
  run_count: number;
  created_at: string;
  updated_at: string;
}

/** One run of a scheduled sync job (migration 0029). */
export interface ScheduledJobRunsTable {
  id: string;
  job_id: string;
  trigger: 'schedule' | 'manual';
  dry_run: number;
  status: 'running' | 'success' | 'failed' | 'cancelled';
  copied: number;
  updated: number;
  deleted: number;
  skipped: number;
  failed: number;
  bytes: number;
  changes: string;
  errors: string;
  runner: string;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** The last run of each periodic job, across every instance (jobs.ts). */
export interface JobRunsTable {
  name: string;
  last_started_at: string;
  last_finished_at: string | null;
  runs: number;
  /** The instance that ran it last. */
  instance: string;
}

/** Bytes counted in a storage config (migration 0014; vfs/quota.ts). */
export interface StorageUsageTable {
  storage_config_id: string;
  used_bytes: number;
  /** 1 when a change of unknown size happened since the count: recounted before it is relied on. */
  stale: number;
  version: number;
  counted_at: string;
}

/** Bytes promised to a write under way in a storage config (vfs/quota.ts). */
export interface StorageReservationsTable {
  id: string;
  storage_config_id: string;
  bytes: number;
  received: number;
  expires_at: string;
  created_at: string;
}

/**
 * One security-relevant action (migration 0016; modules/audit/): the entry as the API answers it.
 * Only added, never changed; `details` never holds a password, token, key or hash.
 */
export type AuditLogTable = AuditEntry;
/** A single sign-on provider (docs/accounts.md, "Single sign-on"); booleans are 0 or 1. */
export interface OidcProvidersTable {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  scopes: string;
  allow_signup: number;
  link_by_email: number;
  role_claim: string | null;
  admin_values: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** Which person a provider's subject (`sub`) is. */
export interface OidcIdentitiesTable {
  provider_id: string;
  subject: string;
  user_id: string;
  created_at: string;
  last_login_at: string | null;
}

/** A sign-in under way: what the callback must see again, used once. */
export interface OidcLoginsTable {
  state_hash: string;
  provider_id: string;
  nonce: string;
  code_verifier: string;
  created_at: string;
  expires_at: string;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: number;
  transports: string;
  device_type: string;
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface PasskeyChallengesTable {
  id: string;
  purpose: 'register' | 'login';
  user_id: string | null;
  challenge: string;
  origin: string;
  expires_at: string;
}

/** A bundle: one link for several items (migration 0021, docs/api.md "Bundles"). */
export interface BundlesTable {
  id: string;
  slug: string;
  title: string | null;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  /** Set when its owner revoked it: the link answers 410 from then on. */
  revoked_at: string | null;
  created_by: string | null;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

export type BundleItemKind = 'file' | 'paste' | 'mount';

export interface BundleItemsTable {
  bundle_id: string;
  position: number;
  kind: BundleItemKind;
  /** A file share's id, a paste's id, or a mount path. */
  ref: string;
  name: string;
}

/** A link strangers upload into (migration 0023, modules/upload-requests/). */
export interface UploadRequestsTable {
  id: string;
  token_hash: string;
  /** The folder the files go into; '' for a request into a bundle. */
  target_path: string;
  /** The bundle the files go into (migration 0028), or null for a folder request. */
  bundle_id: string | null;
  per_upload_subfolder: number;
  password_hash: string | null;
  expires_at: string | null;
  max_files: number;
  max_file_size: number;
  max_total_size: number;
  /** JSON array of extensions and MIME patterns. */
  allowed_types: string;
  message: string | null;
  show_uploads: number;
  files_count: number;
  bytes_total: number;
  revoked_at: string | null;
  created_by: string;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface UploadRequestFilesTable {
  id: string;
  request_id: string;
  name: string;
  virtual_path: string;
  size: number;
  uploader_hash: string | null;
  created_at: string;
  status: 'uploading' | 'done';
}

/** A folder rule (CloudPaste's `fs_meta`; vfs/folder-rules.ts). Booleans as 0/1. */
export interface FsMetaTable {
  id: string;
  path: string;
  header_markdown: string | null;
  header_inherit: number;
  footer_markdown: string | null;
  footer_inherit: number;
  /** A JSON list of globs. */
  hide_patterns: string;
  hide_inherit: number;
  /** A password hash (lib/crypto.ts), never the password. */
  password_hash: string | null;
  password_inherit: number;
  created_at: string;
  updated_at: string;
}

/** An outgoing webhook (migration 0027). */
export interface WebhooksTable {
  id: string;
  name: string;
  url: string;
  /** Sealed (lib/secret-box.ts, the webhook's id as associated data). */
  secret: string;
  /** JSON array of event names. */
  events: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** A delivery and its log (the admin route answers it without the payload). */
export interface WebhookDeliveriesTable extends WebhookDelivery {
  /** The JSON body, sent byte for byte on every attempt. */
  payload: string;
}

/** Once-only notices a share has had: 'expiring' (24 h before) and 'expired'. */
export interface ShareNoticesTable {
  share_kind: string;
  share_id: string;
  notice: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  oidc_providers: OidcProvidersTable;
  ldap_config: LdapConfigTable;
  oidc_identities: OidcIdentitiesTable;
  oidc_logins: OidcLoginsTable;
  sessions: SessionsTable;
  user_paths: UserPathsTable;
  invites: InvitesTable;
  app_passwords: AppPasswordsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  pastes: PastesTable;
  paste_files: PasteFilesTable;
  storage_configs: StorageConfigsTable;
  files: FilesTable;
  folder_shares: FolderSharesTable;
  upload_sessions: UploadSessionsTable;
  upload_parts: UploadPartsTable;
  file_view_tokens: FileViewTokensTable;
  streamed_uploads: StreamedUploadsTable;
  tus_uploads: TusUploadsTable;
  mounts: MountsTable;
  fs_tasks: FsTasksTable;
  scheduled_jobs: ScheduledJobsTable;
  scheduled_job_runs: ScheduledJobRunsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  attempt_counters: AttemptCountersTable;
  job_runs: JobRunsTable;
  storage_usage: StorageUsageTable;
  storage_reservations: StorageReservationsTable;
  audit_log: AuditLogTable;
  bundles: BundlesTable;
  bundle_items: BundleItemsTable;
  upload_requests: UploadRequestsTable;
  upload_request_files: UploadRequestFilesTable;
  fs_meta: FsMetaTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  share_notices: ShareNoticesTable;
}
