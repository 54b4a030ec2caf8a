/**
 * The modules of the admin area (docs/product.md §2, §6) and who may use each: an admin uses all of them; a
 * member (docs/accounts.md) those any person may (`person`: their own texts, files, links, keys and
 * account); an API key only text management (needs `text`), file management (needs `file`) and its
 * bundles and folder links (any of `file`, `text`, `mount`).
 * Each module's screen is a lazy chunk, loaded when first opened.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Permissions } from '@cubby/shared';
import type { AdminModuleId } from '../../config/paths.ts';
import type { AuthType } from '../auth/index.ts';
import { withSections } from '../../lib/i18n/index.ts';

/**
 * `admin`: admins only; `person`: any signed-in person, admin or member; `text`/`file`: also a key with
 * it; a list of permissions: also a key with any of them.
 */
export type ModuleRequirement =
  'admin' | 'person' | keyof Pick<Permissions, 'text' | 'file'> | readonly (keyof Permissions)[];

export interface AdminModule {
  id: AdminModuleId;
  titleKey:
    | 'admin.modules.dashboard'
    | 'admin.modules.textManagement'
    | 'admin.modules.fileManagement'
    | 'admin.modules.sharedLinks'
    | 'admin.modules.storageConfig'
    | 'admin.modules.mountManagement'
    | 'admin.modules.folderRules'
    | 'admin.modules.keyManagement'
    | 'admin.modules.uploadRequests'
    | 'admin.modules.auditLog'
    | 'admin.modules.sso'
    | 'admin.modules.notifications'
    | 'admin.modules.scheduledSync'
    | 'admin.modules.settings'
    | 'admin.modules.people'
    | 'admin.modules.account';
  requires: ModuleRequirement;
  Component: LazyExoticComponent<ComponentType>;
}

export const ADMIN_MODULE_LIST: readonly AdminModule[] = [
  {
    id: 'dashboard',
    titleKey: 'admin.modules.dashboard',
    requires: 'admin',
    Component: lazy(() => import('./dashboard/dashboard-module.tsx')),
  },
  {
    id: 'text-management',
    titleKey: 'admin.modules.textManagement',
    requires: 'text',
    Component: lazy(() => import('./text-management/text-management-module.tsx')),
  },
  {
    id: 'file-management',
    titleKey: 'admin.modules.fileManagement',
    requires: 'file',
    Component: lazy(() => import('./file-management/file-management-module.tsx')),
  },
  {
    id: 'shared-links',
    titleKey: 'admin.modules.sharedLinks',
    // Whoever may make bundles (a key with `file` or `text`) or folder links (`mount`).
    requires: ['file', 'text', 'mount'],
    Component: lazy(() => withSections(import('./shared-links/shared-links-module.tsx'), ['pastes'])),
  },
  {
    id: 'storage-config',
    titleKey: 'admin.modules.storageConfig',
    requires: 'admin',
    Component: lazy(() => import('./storage-config/storage-config-module.tsx')),
  },
  {
    id: 'mount-management',
    titleKey: 'admin.modules.mountManagement',
    requires: 'admin',
    Component: lazy(() => import('./mount-management/mount-management-module.tsx')),
  },
  {
    id: 'folder-rules',
    titleKey: 'admin.modules.folderRules',
    requires: 'admin',
    Component: lazy(() => import('./folder-rules/folder-rules-module.tsx')),
  },
  {
    id: 'key-management',
    titleKey: 'admin.modules.keyManagement',
    requires: 'person',
    Component: lazy(() => import('./key-management/components/key-management-module.tsx')),
  },
  {
    id: 'upload-requests',
    titleKey: 'admin.modules.uploadRequests',
    requires: 'person',
    Component: lazy(() =>
      withSections(import('./upload-requests/upload-requests-module.tsx'), ['uploadRequests']),
    ),
  },
  {
    id: 'audit-log',
    titleKey: 'admin.modules.auditLog',
    requires: 'admin',
    Component: lazy(() => import('./audit-log/audit-log-module.tsx')),
  },
  {
    id: 'sso',
    titleKey: 'admin.modules.sso',
    requires: 'admin',
    Component: lazy(() => import('./sso/sso-module.tsx')),
  },
  {
    id: 'notifications',
    titleKey: 'admin.modules.notifications',
    requires: 'admin',
    Component: lazy(() => import('./notifications/notifications-module.tsx')),
  },
  {
    id: 'scheduled-sync',
    titleKey: 'admin.modules.scheduledSync',
    requires: 'admin',
    Component: lazy(() => import('./scheduled-sync/scheduled-sync-module.tsx')),
  },
  {
    id: 'settings',
    titleKey: 'admin.modules.settings',
    requires: 'admin',
    Component: lazy(() => import('./settings/components/settings-module.tsx')),
  },
  {
    id: 'people',
    titleKey: 'admin.modules.people',
    requires: 'admin',
    Component: lazy(() => import('./people/components/people-module.tsx')),
  },
  {
    id: 'account',
    titleKey: 'admin.modules.account',
    requires: 'person',
    Component: lazy(() => import('./account/components/account-module.tsx')),
  },
];

export function findModule(id: string | undefined): AdminModule | undefined {
  return ADMIN_MODULE_LIST.find((module) => module.id === id);
}

/** Whether a principal may open a module. */
export function canUseModule(
  module: AdminModule,
  principal: { authType: AuthType; permissions: Permissions },
): boolean {
  if (principal.authType === 'admin') return true;
  if (principal.authType === 'member') return module.requires !== 'admin';
  if (principal.authType !== 'apikey' || module.requires === 'admin' || module.requires === 'person')
    return false;
  const needs = typeof module.requires === 'string' ? [module.requires] : module.requires;
  return needs.some((permission) => principal.permissions[permission]);
}
