/**
 * The client routes (docs/product.md §2), declared with `<Routes>` (the data router's loaders are not needed
 * and would cost the paste view ~17 KB of JavaScript). Every screen is a lazy chunk (Home holds the
 * editor, which the paste view must not load), loaded with the sections of texts it uses; the
 * admin area and the mount explorer come with their access guards. Every unknown path redirects
 * home. Admin screens revalidate the login first (`AdminRevalidation`); errors while rendering a
 * screen show `RouteError` instead of the page.
 */
import { lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths.ts';
import { withSections } from '../lib/i18n/index.ts';
import { AdminRevalidation } from './guards/admin-revalidation.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { RouteErrorBoundary } from './route-error.tsx';

// Each screen's chunk comes with the sections of texts it uses (the paste view needs only the core).
const HomePage = lazy(() => withSections(import('../features/home/home-page.tsx'), ['home', 'pastes']));
const UploadPage = lazy(() =>
  withSections(import('../features/upload/upload-page.tsx'), ['upload', 'home', 'pastes']),
);
const AdminScreen = lazy(() => withSections(import('./guards/admin-screen.tsx'), ['admin', 'pastes']));
const SsoLandingPage = lazy(() =>
  withSections(import('../features/auth/components/sso-landing.tsx'), ['admin']),
);
const PasteViewPage = lazy(() => withSections(import('../features/paste-view/paste-view-page.tsx'), []));
const PublicPastesPage = lazy(() =>
  withSections(import('../features/public-pastes/public-pastes-page.tsx'), ['pastes']),
);
const FileViewPage = lazy(() =>
  withSections(import('../features/file-view/file-view-page.tsx'), ['fileView']),
);
const FolderViewPage = lazy(() =>
  withSections(import('../features/folder-view/folder-view-page.tsx'), ['fileView']),
);
const BundleViewPage = lazy(() =>
  withSections(import('../features/bundle-view/bundle-view-page.tsx'), ['fileView']),
);
const InvitePage = lazy(() => withSections(import('../features/invite/invite-page.tsx'), ['admin']));
const UploadRequestPage = lazy(() =>
  withSections(import('../features/upload-request/upload-request-page.tsx'), ['uploadRequests']),
);
const ExplorerScreen = lazy(() =>
  withSections(import('./guards/explorer-screen.tsx'), ['explorer', 'fileView', 'home', 'upload', 'pastes']),
);

function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path={paths.home.path} element={<HomePage />} />
          <Route path={paths.upload.path} element={<UploadPage />} />
          <Route element={<AdminRevalidation />}>
            <Route path={paths.admin.path} element={<AdminScreen />} />
            <Route path={paths.adminModule.path} element={<AdminScreen />} />
          </Route>
          <Route path={paths.loginOidc.path} element={<SsoLandingPage />} />
          <Route path={paths.paste.path} element={<PasteViewPage />} />
          <Route path={paths.publicPastes.path} element={<PublicPastesPage />} />
          <Route path={paths.file.path} element={<FileViewPage />} />
          <Route path={paths.folder.path} element={<FolderViewPage />} />
          <Route path={paths.bundle.path} element={<BundleViewPage />} />
          <Route path={paths.invite.path} element={<InvitePage />} />
          <Route path={paths.uploadRequest.path} element={<UploadRequestPage />} />
          <Route path={paths.mountExplorer.path} element={<ExplorerScreen />} />
          <Route path={paths.mountExplorer.splatPath} element={<ExplorerScreen />} />
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
