/**
 * `/login/oidc`, where a single sign-on ends (docs/accounts.md, "Single sign-on"): the server's
 * redirect carries the session in the fragment (never sent to a server, so never logged). The page
 * keeps the session as a password login does, wipes the fragment from the address bar and history,
 * and goes to the admin area; a refusal is shown in the user's language with a way back.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../../components/alert.tsx';
import { buttonClasses } from '../../../components/button.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { usePageTitle } from '../../../lib/i18n/use-page-title.ts';
import { parseSsoLanding, type SsoLanding } from '../api/oidc.ts';
import { useAuthStore } from '../auth-store.ts';

export default function SsoLandingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Read once: the fragment is wiped as soon as it is read.
  const [landing] = useState<SsoLanding>(() => parseSsoLanding(window.location.hash));
  usePageTitle(t('auth.login.oidc.title'));

  useEffect(() => {
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (landing.kind !== 'session') return;
    // The session is kept (and who it is learnt) before the admin area decides what to show.
    void useAuthStore
      .getState()
      .sessionLogin(landing.token, landing.username)
      .then(() => navigate(paths.admin.getHref(), { replace: true }));
  }, [landing, navigate]);

  if (landing.kind === 'session') return <PageLoading />;
  return (
    <div className="mx-auto w-full max-w-md">
      <h1 className="mb-4 text-center text-2xl font-semibold tracking-tight text-fg">
        {t('auth.login.oidc.title')}
      </h1>
      <Alert tone="error" testId="sso-error">
        {t(`auth.login.oidc.errors.${landing.code}`)}
      </Alert>
      <Link to={paths.admin.getHref()} className={buttonClasses('secondary', 'md', 'mt-4 w-full')}>
        {t('auth.login.oidc.back')}
      </Link>
    </div>
  );
}
