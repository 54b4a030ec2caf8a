/**
 * File share management on the web: the list's paging and the update body. The list items are
 * `FileItem` from @cubby/shared, as the management endpoints answer them.
 */
import type { FileItem, FileSource } from '@cubby/shared';

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
  /** Only shares of this source (e.g. without those uploads into mounts published), or all. */
  source: FileSource | 'all';
}

export interface FilePage {
  items: FileItem[];
  total: number;
  totalPages: number;
}
