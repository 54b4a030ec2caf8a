/**
 * Table types for Kysely: the one place the schema's shape is written down in TypeScript.
 * Times are ISO-8601 UTC strings on both SQLite and PostgreSQL (they sort and compare as text);
 * booleans are integers 0/1.
 */
export interface AdminsTable {
  id: string;
  username: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface AdminSessionsTable {
  id: string;
  admin_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
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
  created_at: string;
  updated_at: string;
}

export interface Database {
  admins: AdminsTable;
  admin_sessions: AdminSessionsTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  pastes: PastesTable;
}
