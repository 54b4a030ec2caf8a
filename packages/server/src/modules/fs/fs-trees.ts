/**
 * The two trees of the file-system routes: /api/admin/fs/* for the admin and /api/user/fs/* for an
 * API key with the mount permission (confined to its base path; an admin may call it too). Route
 * files register each route once per tree with the tree's auth and a doc naming who calls it.
 */
import type { RouteAuth } from '../../http/route-docs.ts';

export interface FsTree {
  prefix: '/admin/fs' | '/user/fs';
  auth: RouteAuth;
  /** Route doc for this tree: the summary says who may call it. */
  doc(
    summary: string,
    description?: string,
  ): { tag: string; summary: string; description?: string; auth: RouteAuth };
}

const tree = (prefix: FsTree['prefix'], auth: RouteAuth, who: string): FsTree => ({
  prefix,
  auth,
  doc: (summary, description) => ({
    tag: 'File system',
    summary: `${summary} (${who})`,
    ...(description ? { description } : {}),
    auth,
  }),
});

export const FS_TREES: readonly FsTree[] = [
  tree('/admin/fs', 'admin', 'admin'),
  tree('/user/fs', 'mount', 'API key with the mount permission, inside its base path'),
];
