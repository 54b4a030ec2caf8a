/**
 * The answers about file shares: the share as its reader and its uploader see it (`toFileShare`,
 * also used by the upload routes), and the share as management lists show it (`toFileItem`).
 * Storage URLs are never given out raw: every link goes through /api/file-view and /api/file-download,
 * which check the password and count the view whether they stream (proxy) or redirect (direct).
 */
import type { FileItem, FileShare } from '@cubby/shared';
import type { FilesTable } from '../../db/schema.ts';
import { shareState } from '../shares/share-rules.ts';
import type { FileListRow } from './files.repository.ts';

export interface ShareLinks {
  preview: string;
  download: string;
}

/** The view and download links of a share on `origin`, with `?token=` when one is given. */
export function shareLinks(origin: string, slug: string, token?: string): ShareLinks {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const path = encodeURIComponent(slug);
  return {
    preview: `${origin}/api/file-view/${path}${query}`,
    download: `${origin}/api/file-download/${path}${query}`,
  };
}

/**
 * The share answer. `links: null` hides every URL (a protected share before its password);
 * `requiresPassword` defaults to whether the share has one; `officePreview` (the public info and the
 * password check) says whether the Office preview route serves it.
 */
export function toFileShare(
  row: FilesTable,
  options: {
    origin: string;
    token?: string;
    links?: null;
    requiresPassword?: boolean;
    officePreview?: boolean;
  },
): FileShare {
  const links = options.links === null ? null : shareLinks(options.origin, row.slug, options.token);
  return {
    id: row.id,
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: Number(row.size),
    remark: row.remark,
    created_at: row.created_at,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    requires_password: options.requiresPassword ?? row.password_hash !== null,
    use_proxy: row.use_proxy ? 1 : 0,
    url: `/file/${row.slug}`,
    previewUrl: links?.preview ?? null,
    downloadUrl: links?.download ?? null,
    proxy_preview_url: links?.preview ?? null,
    proxy_download_url: links?.download ?? null,
    ...(options.officePreview === undefined ? {} : { office_preview: options.officePreview }),
  };
}

/** A file share as the admin and key-user management routes list it. */
export function toFileItem(row: FileListRow, now: Date): FileItem {
  return {
    id: row.id,
    filename: row.filename,
    slug: row.slug,
    storage_path: row.storage_path,
    mimetype: row.mimetype,
    size: Number(row.size),
    remark: row.remark,
    created_at: row.created_at,
    updated_at: row.updated_at,
    views: row.views,
    max_views: row.max_views,
    expires_at: row.expires_at,
    etag: row.etag,
    has_password: row.password_hash !== null,
    created_by: row.created_by,
    use_proxy: row.use_proxy ? 1 : 0,
    s3_config_id: row.storage_config_id,
    s3_config_name: row.s3_config_name,
    s3_provider_type: row.s3_provider_type,
    key_name: row.key_name,
    status: row.status === 'pending' ? 'pending' : shareState(row, now),
    source: row.source,
    keeps_file: row.keep_object === 1,
    url: `/file/${row.slug}`,
  };
}
