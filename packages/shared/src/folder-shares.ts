/**
 * Folder shares (issue 24): a read-only link to a folder of a mount — what the public routes
 * (`/api/public/folders/:slug…`) and the management routes (`/api/folder-shares`) answer.
 */
import type { ShareState } from './shares.ts';

/** A folder share's state: a share's (live, expired, used up), or revoked by its owner. */
/** A folder share's state: the one of every share (revoked included). */
export type FolderShareState = ShareState;

/** `GET /api/public/folders/:slug` and `POST …/verify`: what a visitor may know. */
export interface FolderShareInfo {
  slug: string;
  /** The shared folder's own name (never the path above it). */
  name: string;
  title: string | null;
  remark: string | null;
  requires_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  created_at: string;
  /**
   * The visit's token (`?token=` on list, download and zip): present once the visit is counted,
   * absent while the password is needed.
   */
  token?: string;
  /** When the token stops working (ISO). */
  token_expires_at?: string;
}

/** One entry of a folder share's listing; `path` is relative to the shared folder. */
export interface FolderShareItem {
  name: string;
  path: string;
  isDirectory: boolean;
  size: number;
  modified: string | null;
}

/** `GET /api/public/folders/:slug/list?path=`: a folder below the shared one (`path` relative, `/` is it). */
export interface FolderShareListing {
  path: string;
  items: FolderShareItem[];
}

/** A folder share as its owner (or the admin) manages it (`/api/folder-shares`). */
export interface FolderShareDetail {
  id: string;
  slug: string;
  url: string;
  /** The virtual path it was made from (for display; the share follows the folder when it moves). */
  path: string;
  title: string | null;
  remark: string | null;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  revoked_at: string | null;
  state: FolderShareState;
  created_by: string | null;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}
