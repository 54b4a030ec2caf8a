/**
 * One "Sign in with <name>" link per enabled single sign-on provider, under the login form; nothing
 * when there are none (or the list cannot be had: the password form still works).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../../components/button.tsx';
import { getSsoProviders, ssoStartUrl } from '../api/oidc.ts';

export function SsoButtons() {
  const { t } = useTranslation();
  const providers = useQuery({
    queryKey: ['auth', 'sso-providers'],
    queryFn: ({ signal }) => getSsoProviders(signal),
    retry: false,
  });
  if (!providers.data?.length) return null;
  return (
    <div className="mt-5 border-t border-border pt-5" data-testid="sso-buttons">
      <p className="mb-3 text-center text-sm text-fg-muted">{t('auth.login.sso.or')}</p>
      <ul className="space-y-2">
        {providers.data.map((provider) => (
          <li key={provider.id}>
            <a
              href={ssoStartUrl(provider.id)}
              className={buttonClasses('secondary', 'md', 'w-full overflow-hidden text-ellipsis')}
            >
              {t('auth.login.sso.signInWith', { name: provider.name })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
