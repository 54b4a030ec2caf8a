/**
 * What the file-system API (`/api/{admin,user}/fs/*`) answers, as its clients read it (CloudPaste's
 * field names; docs/compatibility.md §6).
 */
import type { StorageKindName } from './storage-fields.ts';

/**
 * `POST …/fs/update` takes text files up to this many bytes (CloudPaste's 10 MiB), and the explorer
 * offers its editor for files up to it.
 */
export const FS_TEXT_EDIT_MAX_BYTES = 10 * 1024 * 1024;

/** One entry of a folder listing. A folder's `path` ends with `/`. */
export interface FsListItem {
  name: string;
  path: string;
  isDirectory: boolean;
  /** A folder above the mounts (the way to one), not a folder in storage. */
  isVirtual: boolean;
  size: number;
  modified: string | null;
  /** Files only, unquoted. */
  etag?: string;
  mount_id?: string;
}

/** `GET …/fs/list?path=`: a folder and its entries, folders first. */
export interface FsListingAnswer {
  path: string;
  type: 'directory';
  isRoot: boolean;
  isVirtual: boolean;
  /** False on a folder a key may only pass through on the way to its base path. */
  hasPermission: boolean;
  /** Whether the caller may write here (upload, make folders, rename, delete): a mount folder within a writable grant. */
  writable: boolean;
  mount_id?: string;
  storage_type?: StorageKindName;
  items: FsListItem[];
  /** The folder's README above and below its listing (folder rules; Markdown, sanitised when shown). */
  header_markdown?: string | null;
  footer_markdown?: string | null;
}

/** `GET …/fs/get?path=`: what is at a path; a file carries its signed preview and download URLs. */
export interface FsInfoAnswer {
  path: string;
  name: string;
  isDirectory: boolean;
  size: number;
  modified: string | null;
  contentType: string;
  etag?: string;
  mount_id: string;
  storage_type: StorageKindName;
  preview_url?: string | null;
  download_url?: string | null;
}

/** `GET …/fs/file-link?path=&expires_in=&force_download=`: a direct link to a file. */
export interface FsFileLinkAnswer {
  path: string;
  name: string;
  expiresIn: number;
  expiresAt: string;
  forceDownload: boolean;
  presignedUrl: string | null;
  mount_id: string;
  storage_type: StorageKindName;
}

export type FsTaskKind = 'copy' | 'move';
export type FsTaskStatus = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** A copy or move task (`…/fs/tasks`): its items and progress; errors in the caller's language. */
export interface FsTaskAnswer {
  id: string;
  kind: FsTaskKind;
  status: FsTaskStatus;
  skipExisting: boolean;
  items: {
    sourcePath: string;
    targetPath: string;
    isDirectory: boolean;
    status: 'pending' | 'running' | 'done' | 'skipped' | 'failed' | 'cancelled';
    done: number;
    skipped: number;
    failed: number;
    error?: string;
    /** Inside a folder: the files (paths below it) that failed, while they are few enough to name. */
    failedFiles?: string[];
  }[];
  progress: {
    filesTotal: number;
    filesDone: number;
    filesSkipped: number;
    filesFailed: number;
    bytesTotal: number;
    bytesDone: number;
  };
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}
