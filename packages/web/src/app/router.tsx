/**
 * The client routes (spec §2), declared with `<Routes>` (the data router's loaders are not needed
 * and would cost the paste view ~17 KB of JavaScript). Every screen is a lazy chunk (Home holds the
 * editor, which the paste view must not load); every unknown path redirects home. Admin screens
 * revalidate the login first (`AdminRevalidation`); errors while rendering a screen show
 * `RouteError` instead of the page.
 */
import { lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths.ts';
import { AdminRevalidation } from './guards/admin-revalidation.tsx';
import { ManagementAccessGuard, MountExplorerGuard } from './guards/access-guards.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { RouteErrorBoundary } from './route-error.tsx';

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

function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path={paths.home.path} element={<HomePage />} />
          <Route path={paths.upload.path} element={<UploadPage />} />
          <Route element={<AdminRevalidation />}>
            <Route path={paths.admin.path} element={adminElement} />
            <Route path={paths.adminModule.path} element={adminElement} />
          </Route>
          <Route path={paths.paste.path} element={<PasteViewPage />} />
          <Route path={paths.file.path} element={<FileViewPage />} />
          <Route path={paths.mountExplorer.path} element={explorerElement} />
          <Route path={paths.mountExplorer.splatPath} element={explorerElement} />
          <Route path="*" element={<Navigate to={paths.home.getHref()} replace />} />
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}

/** The router with every route of the app. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
