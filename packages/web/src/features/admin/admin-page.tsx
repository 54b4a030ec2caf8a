/**
 * The admin area, /admin and /admin/:module (docs/product.md §2, §6). Signed-out users get the login form.
 * The module defaults to the dashboard for an admin and to the first permitted module for an API
 * key; a key asking for a module it may not use is sent back to /admin. A person the admin requires
 * to set up two-factor sign-in first sees only that (docs/accounts.md "Two-factor sign-in").
 */
import { lazy, Suspense } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Card } from '../../components/card.tsx';
import { buttonClasses } from '../../components/button.tsx';
import { PageLoading } from '../../components/spinner.tsx';
import { paths, DEFAULT_ADMIN_MODULE } from '../../config/paths.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { LoginForm, useAuthStore } from '../auth/index.ts';
import { ADMIN_MODULE_LIST, canUseModule, findModule } from './admin-modules.ts';
import { AdminNav } from './components/admin-nav.tsx';

const TwoFactorEnrolPage = lazy(() => import('./account/components/two-factor-enrol-page.tsx'));

export default function AdminPage() {
  const { t } = useTranslation();
  const { module: requestedId } = useParams();
  const { isAuthenticated, authType, permissions, mustEnrol } = useAuthStore(
    useShallow((state) => ({
      isAuthenticated: state.isAuthenticated,
      mustEnrol: state.mustEnrol,
      authType: state.authType,
      permissions: state.apiKeyPermissions,
    })),
  );

  const allowed = ADMIN_MODULE_LIST.filter((module) => canUseModule(module, { authType, permissions }));
  const requested = findModule(requestedId);
  const unknown = requestedId !== undefined && requested === undefined;
  const current =
    requested ??
    (authType === 'admin'
      ? findModule(DEFAULT_ADMIN_MODULE)
      : requestedId === undefined
        ? allowed[0]
        : undefined);
  const open = current !== undefined && allowed.includes(current) ? current : undefined;

  const titleParts = !isAuthenticated
    ? [t('titles.admin')]
    : unknown
      ? [t('titles.notFound')]
      : open
        ? [t(open.titleKey), t('titles.admin')]
        : [t('titles.admin')];
  usePageTitle(...titleParts);

  if (!isAuthenticated) return <LoginForm />;
  if (mustEnrol) {
    return (
      <Suspense fallback={<PageLoading />}>
        <TwoFactorEnrolPage />
      </Suspense>
    );
  }
  if (unknown) return <AdminNotFound />;
  if (current && !open) return <Navigate to={paths.admin.getHref()} replace />;

  return (
    <div className="lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-6">
      <AdminNav modules={allowed} activeId={open ? open.id : null} />
      <div className="min-w-0">
        {open ? (
          <Suspense fallback={<PageLoading />}>
            <open.Component />
          </Suspense>
        ) : (
          <KeyOverview />
        )}
      </div>
    </div>
  );
}

/** What a key with only the mount permission sees: its scope and the way to the explorer. */
function KeyOverview() {
  const { t } = useTranslation();
  const info = useAuthStore((state) => state.apiKeyInfo);
  const canMount = useAuthStore((state) => state.hasPermission('mount'));
  return (
    <Card
      title={t('admin.keyOverview.title', { name: info?.name ?? '' })}
      as="h1"
      description={t('admin.keyOverview.description')}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-fg-muted">{t('keys.fields.basePath')}</dt>
        <dd className="font-mono break-all">{info?.basic_path ?? '/'}</dd>
      </dl>
      {canMount && (
        <Link
          to={paths.mountExplorer.getHref(info?.basic_path ?? '/')}
          className={buttonClasses('primary', 'md', 'mt-5')}
        >
          {t('admin.keyOverview.openExplorer')}
        </Link>
      )}
    </Card>
  );
}

function AdminNotFound() {
  const { t } = useTranslation();
  return (
    <Card title={t('notFound.heading')} as="h1" description={t('notFound.adminModule')}>
      <Link to={paths.admin.getHref()} className={buttonClasses('secondary')}>
        {t('notFound.backToAdmin')}
      </Link>
    </Card>
  );
}
