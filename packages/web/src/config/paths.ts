/**
 * Every client route in one place (docs/product.md §2). Components link with `paths.x.getHref(...)` and the
 * router registers `paths.x.path`, so a route changes in one line.
 */

export const ADMIN_MODULES = [
  'dashboard',
  'text-management',
  'file-management',
  'shared-links',
  'storage-config',
  'mount-management',
  'folder-rules',
  'key-management',
  'upload-requests',
  'audit-log',
  'sso',
  'notifications',
  'scheduled-sync',
  'settings',
  'people',
  'account',
] as const;
export type AdminModuleId = (typeof ADMIN_MODULES)[number];
export const DEFAULT_ADMIN_MODULE: AdminModuleId = 'dashboard';

export function isAdminModule(value: string | undefined): value is AdminModuleId {
  return (ADMIN_MODULES as readonly string[]).includes(value ?? '');
}

const MOUNT_EXPLORER = '/mount-explorer';

/** Encodes each segment of a storage path for use in a URL (`/照片/a b` → `/%E7%85%A7%E7%89%87/a%20b`). */
function encodePath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .map((segment) => `/${segment}`)
    .join('');
}

export const paths = {
  home: { path: '/', getHref: () => '/' },
  upload: { path: '/upload', getHref: () => '/upload' },
  admin: {
    path: '/admin',
    getHref: (module?: AdminModuleId) => (module ? `/admin/${module}` : '/admin'),
  },
  adminModule: { path: '/admin/:module' },
  /** Where a single sign-on lands, the session or the error in the fragment (docs/accounts.md). */
  loginOidc: { path: '/login/oidc' },
  /** An upload request's page: strangers send files into someone's folder (docs/api.md "Upload requests"). */
  uploadRequest: {
    path: '/r/:token',
    getHref: (token: string) => `/r/${encodeURIComponent(token)}`,
  },
  invite: { path: '/invite/:token', getHref: (token: string) => `/invite/${encodeURIComponent(token)}` },
  publicPastes: { path: '/pastes/public', getHref: () => '/pastes/public' },
  paste: { path: '/paste/:slug', getHref: (slug: string) => `/paste/${encodeURIComponent(slug)}` },
  file: { path: '/file/:slug', getHref: (slug: string) => `/file/${encodeURIComponent(slug)}` },
  /** A folder share; `sub` (relative to the shared folder) is kept in the query, `?path=/a/b`. */
  folder: {
    path: '/folder/:slug',
    getHref: (slug: string, sub = '/') =>
      `/folder/${encodeURIComponent(slug)}${sub === '/' ? '' : `?path=${encodeURIComponent(sub)}`}`,
  },
  bundle: { path: '/bundle/:slug', getHref: (slug: string) => `/bundle/${encodeURIComponent(slug)}` },
  mountExplorer: {
    path: MOUNT_EXPLORER,
    /** Splat route for `/mount-explorer/<path…>`. */
    splatPath: `${MOUNT_EXPLORER}/*`,
    getHref: (storagePath = '/') => `${MOUNT_EXPLORER}${encodePath(storagePath)}`,
    /** The storage path a `/mount-explorer…` pathname points at (still percent-encoded). */
    pathFromPathname: (pathname: string) => pathname.slice(MOUNT_EXPLORER.length) || '/',
  },
} as const;
