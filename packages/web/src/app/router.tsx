/**
 * The client routes (spec §2). Every screen is a lazy chunk (Home holds the editor, which the
 * paste view must not load); every unknown path redirects home.
 */
import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { PageLoading } from '../components/spinner.tsx';
import { adminRevalidationLoader } from './guards/admin-revalidation.ts';
import { ManagementAccessGuard, MountExplorerGuard } from './guards/access-guards.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { RouteError } from './route-error.tsx';

const HomePage = lazy(() => import('../features/home/home-page.tsx'));
const UploadPage = lazy(() => import('../features/upload/upload-page.tsx'));
const AdminPage = lazy(() => import('../features/admin/admin-page.tsx'));
const PasteViewPage = lazy(() => import('../features/paste-view/paste-view-page.tsx'));
const FileViewPage = lazy(() => import('../features/file-view/file-view-page.tsx'));
const MountExplorerPage = lazy(() => import('../features/explorer/mount-explorer-page.tsx'));

const adminElement = (
  <ManagementAccessGuard>
    <AdminPage />
  </ManagementAccessGuard>
);

const explorerElement = (
  <MountExplorerGuard>
    <MountExplorerPage />
  </MountExplorerGuard>
);

export function createRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      HydrateFallback: PageLoading,
      children: [
        { path: paths.home.path, element: <HomePage /> },
        { path: paths.upload.path, element: <UploadPage /> },
        { path: paths.admin.path, loader: adminRevalidationLoader, element: adminElement },
        { path: paths.adminModule.path, loader: adminRevalidationLoader, element: adminElement },
        { path: paths.paste.path, element: <PasteViewPage /> },
        { path: paths.file.path, element: <FileViewPage /> },
        { path: paths.mountExplorer.path, element: explorerElement },
        { path: paths.mountExplorer.splatPath, element: explorerElement },
        { path: '*', element: <Navigate to={paths.home.getHref()} replace /> },
      ],
    },
  ]);
}
