/**
 * The answers of the file-share and upload routes (docs/compatibility.md §4), written once: the server's
 * serializers return these types and the web app reads them, so a change on one side that breaks
 * the other fails the type check. Request bodies are validated by the routes' zod schemas.
 */
import type { ShareState } from './shares.ts';

/** A file share as GET /api/public/files/:slug, the password check and the upload routes answer it. */
export interface FileShare {
  id: string;
  slug: string;
  filename: string;
  mimetype: string;
  size: number;
  remark: string | null;
  created_at: string;
  expires_at: string | null;
  /** 0 = unlimited. */
  max_views: number;
  views: number;
  requires_password: boolean;
  /** 1 = served through the server (proxy), 0 = redirected to the storage (direct). */
  use_proxy: number;
  /** The share page, relative to the web app: `/file/<slug>`. */
  url: string;
  /** Absolute; null while a password is needed. */
  previewUrl: string | null;
  downloadUrl: string | null;
  proxy_preview_url: string | null;
  proxy_download_url: string | null;
  /**
   * The public info and the password check only: whether GET /api/office-preview/:slug serves this
   * share (the admin turned Office preview on, and it is a document the viewer renders).
   */
  office_preview?: boolean;
}

/**
 * GET /api/office-preview/:slug: a link to the share that an online Office viewer can fetch (Cubby's
 * own download route with a fresh token; the viewer's fetch counts a view). CloudPaste clients read
 * the same fields at the top level, beside `is_temporary: true`.
 */
export interface OfficePreviewAnswer {
  url: string;
  filename: string;
  mimetype: string;
  /** Seconds the link works. */
  expires_in: number;
}

/**
 * Where a file share came from: 'mount_upload' when an upload into a mount published it (the
 * explorer, the fs API, WebDAV; see the upload-share settings), 'share' for any other.
 */
export const FILE_SOURCES = ['share', 'mount_upload'] as const;
export type FileSource = (typeof FILE_SOURCES)[number];

/** A file share as the admin and key-user management routes list it. */
export interface FileItem {
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
  /** 'pending' until the upload is confirmed. */
  status: 'pending' | ShareState;
  source: FileSource;
  /**
   * Deleting the share keeps its file (a share of a mount's file: made by "Share…" in the explorer or
   * published by an upload into a mount); otherwise the file goes with the share.
   */
  keeps_file: boolean;
  url: string;
}

/** GET /api/admin/files and /api/user/files. */
export interface FileListAnswer {
  files: FileItem[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

/** GET /api/system/max-upload-size: what uploads may be, and what they leave behind. */
export interface MaxUploadSize {
  max_upload_bytes: number;
  /** Megabytes (CloudPaste clients read this one). */
  max_upload_size: number;
  /** A file uploaded into a mount through the explorer or the fs API is also published as a file share. */
  fs_upload_share: boolean;
  /** The same over WebDAV. */
  webdav_upload_share: boolean;
}

/** POST /api/s3/presign and /api/url/presign: where to PUT the bytes (CloudPaste's fields). */
export interface PresignAnswer {
  file_id: string;
  upload_url: string;
  storage_path: string;
  slug: string;
  filename: string;
  size: number;
  provider_type: string;
  contentType: string;
  /** Headers the PUT must carry, exactly. */
  upload_headers: Record<string, string>;
}

/** POST /api/s3/multipart/init. */
export interface MultipartInitAnswer {
  file_id: string;
  upload_id: string;
  slug: string;
  filename: string;
  size: number;
  contentType: string;
  part_size: number;
  part_count: number;
  storage_path: string;
  provider_type: string;
  url: string;
}

export interface PartUrl {
  partNumber: number;
  url: string;
}

/** POST /api/url/multipart/init: the session, with the URLs of every part already signed. */
export interface UrlMultipartInitAnswer extends MultipartInitAnswer {
  total_size: number;
  presigned_urls: PartUrl[];
}

/** POST /api/s3/multipart/urls. */
export interface PartUrlsAnswer {
  urls: PartUrl[];
}

/** A part the server has recorded: POST /api/s3/multipart/part answers one, the status lists them. */
export interface ConfirmedPart {
  partNumber: number;
  etag: string;
  size: number;
}

/** GET /api/s3/multipart/status. */
export interface MultipartStatus {
  file_id: string;
  upload_id: string;
  filename: string;
  size: number;
  part_size: number;
  part_count: number;
  parts: ConfirmedPart[];
}

/** POST /api/s3/multipart/complete and /api/url/multipart/complete. */
export interface MultipartCompleteAnswer extends FileShare {
  file_id: string;
  status: 'completed';
}

/** POST /api/s3/multipart/abort and /api/url/multipart/abort. */
export interface MultipartAbortAnswer {
  file_id: string;
  status: 'aborted';
}

/** POST /api/url/cancel. */
export interface UrlCancelAnswer {
  file_id: string;
  status: 'cancelled';
}

/** POST /api/url/info: what a URL would deliver. */
export interface UrlInfo {
  url: string;
  filename: string;
  contentType: string;
  size: number | null;
  lastModified: string | null;
  /** Which request gave the size: HEAD, or the ranged GET. */
  method: 'HEAD' | 'GET';
  /** Whether the source allows the browser at `origin` to read it (so no proxy is needed). */
  corsSupported?: boolean;
}
