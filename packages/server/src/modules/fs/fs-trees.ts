/**
 * The two trees of the file-system routes: /api/admin/fs/* for the admin and /api/user/fs/* for an
 * API key with the mount permission (confined to its base path; an admin may call it too). Route
 * files register each route once per tree with the tree's auth and a doc naming who calls it.
 */
import type { RouteAuth } from '../../http/route-docs.ts';
import { MAX_PATH_TOKENS } from '../../vfs/vfs.ts';

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

/** Header names of folder-password tokens (CloudPaste 1.9's): one token, or several comma-separated. */
const PATH_TOKEN_HEADER = 'x-fs-path-token';
const PATH_TOKENS_HEADER = 'x-fs-path-tokens';

/**
 * The folder-password tokens a request presents (vfs/folder-rules.ts): `X-FS-Path-Token`,
 * `X-FS-Path-Tokens` (comma-separated) or `?path_token=` — at most MAX_PATH_TOKENS are looked at.
 */
export function pathTokens(c: {
  req: { header(name: string): string | undefined; query(name: string): string | undefined };
}) {
  const raw = [
    c.req.header(PATH_TOKEN_HEADER),
    ...(c.req.header(PATH_TOKENS_HEADER)?.split(',') ?? []),
    c.req.query('path_token'),
  ];
  return raw
    .map((token) => token?.trim() ?? '')
    .filter((token) => token !== '')
    .slice(0, MAX_PATH_TOKENS);
}
