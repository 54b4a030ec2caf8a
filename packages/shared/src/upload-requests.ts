/**
 * Upload requests (docs/api.md "Upload requests"): links strangers upload files into a folder
 * through. What the server answers about one, and the type rule both the server (before a byte is
 * stored) and the uploader's page (before a byte is sent) apply.
 */
import { mimeFromFilename } from './mime.ts';

/** Most entries in `allowed_types`, and the longest one. */
export const UPLOAD_REQUEST_MAX_TYPES = 50;
export const UPLOAD_REQUEST_TYPE_MAX_CHARS = 100;
/** Longest message shown to uploaders. */
export const UPLOAD_REQUEST_MESSAGE_MAX_CHARS = 2000;

/**
 * One entry of `allowed_types` in its canonical form, or null when it is neither an extension
 * (`pdf`, `.PDF` → `.pdf`; `.tar.gz` works too) nor a MIME pattern (`image/*`, `application/pdf`).
 */
export function canonicalType(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  if (value === '' || value.length > UPLOAD_REQUEST_TYPE_MAX_CHARS) return null;
  if (value.includes('/')) return /^[a-z0-9!#$&^_.+-]+\/(\*|[a-z0-9!#$&^_.+-]+)$/.test(value) ? value : null;
  const ext = value.startsWith('.') ? value : `.${value}`;
  return /^(\.[a-z0-9_+-]+)+$/.test(ext) ? ext : null;
}

/**
 * Whether a file named `name` is of a type `allowed` lists (canonical entries; empty allows all):
 * an extension matches the end of the name, a MIME pattern the type its name maps to (the bytes are
 * not read: the name is what a browser, the OS and the explorer will go by).
 */
export function typeAllowed(name: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const lower = name.toLowerCase();
  const mime = mimeFromFilename(lower);
  return allowed.some((entry) => {
    if (!entry.includes('/')) return lower.endsWith(entry) && lower.length > entry.length;
    if (entry.endsWith('/*')) return mime.startsWith(entry.slice(0, -1));
    return mime === entry;
  });
}

/** What an uploader may know of a request (GET /api/public/upload-requests/:token). */
export interface PublicUploadRequest {
  message: string | null;
  requires_password: boolean;
  expires_at: string | null;
  /** 0: no limit. */
  max_files: number;
  max_file_size: number;
  max_total_size: number;
  allowed_types: string[];
  /** Null when there is no such limit. */
  remaining_files: number | null;
  remaining_bytes: number | null;
  per_upload_subfolder: boolean;
  show_uploads: boolean;
  /** The files already sent, only when `show_uploads`. */
  uploads?: { name: string; size: number; created_at: string }[];
  /** A request into a bundle, when `show_uploads`: the bundle's link (null once it is gone). */
  bundle_slug?: string | null;
  bundle_url?: string | null;
}

/** A request as its owner (or the admin) sees it. */
export interface UploadRequestInfo {
  id: string;
  token: string;
  url: string;
  /** The folder the files go into; null for a request into a bundle. */
  target_path: string | null;
  /** A request into a bundle: the bundle's slug and link (null once it is gone). */
  bundle_slug?: string | null;
  bundle_url?: string | null;
  subfolder_per_upload: boolean;
  has_password: boolean;
  expires_at: string | null;
  max_files: number;
  max_file_size: number;
  max_total_size: number;
  allowed_types: string[];
  message: string | null;
  show_uploads: boolean;
  files_count: number;
  bytes_total: number;
  revoked_at: string | null;
  state: 'active' | 'expired' | 'revoked';
  created_by: string;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  uploads?: UploadRequestFileInfo[];
}

export interface UploadRequestFileInfo {
  id: string;
  name: string;
  /** Where it went in the folder; null for a request into a bundle (the file is an item there). */
  path: string | null;
  size: number;
  created_at: string;
}
