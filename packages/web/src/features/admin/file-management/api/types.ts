/** File shares as the management endpoints answer them (files-api.md "Reading and managing shares"). */

export interface FileShare {
  id: string;
  filename: string;
  slug: string;
  storage_path: string;
  mimetype: string;
  size: number;
  remark: string | null;
  created_at: string;
  updated_at: string;
  views: number;
  /** 0 = unlimited. */
  max_views: number;
  expires_at: string | null;
  etag: string | null;
  has_password: boolean;
  created_by: string | null;
  /** 1 = served through the server (proxy), 0 = redirected to the storage (direct). */
  use_proxy: number;
  s3_config_id: string;
  s3_config_name: string | null;
  s3_provider_type: string | null;
  /** The creating API key's name, when a key made it (and still exists). */
  key_name: string | null;
}

/** The body of PUT …/files/:id: only what changed. */
export interface FileShareUpdate {
  remark?: string;
  slug?: string;
  expires_at?: string | null;
  max_views?: number;
  /** A new password, or null to remove it. */
  password?: string | null;
  use_proxy?: 0 | 1;
}

export interface FileListParams {
  page: number;
  limit: number;
  search: string;
}

export interface FilePage {
  items: FileShare[];
  total: number;
  totalPages: number;
}
