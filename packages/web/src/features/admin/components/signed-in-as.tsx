/** Who is signed in (name and role) and the logout button: the admin area's sidebar, the two-factor set-up page. */
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { LogoutIcon } from '../../../components/icons.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { useAuthStore } from '../../auth/index.ts';

const ROLE_LABELS = {
  admin: 'auth.roles.admin',
  member: 'auth.roles.member',
  apikey: 'auth.roles.apiKey',
} as const;

export function SignedInAs({ sidebar = false }: { sidebar?: boolean }) {
  const { t } = useTranslation();
  const authType = useAuthStore((state) => state.authType);
  const userName = useAuthStore((state) => state.userInfo?.name ?? '');

  const logout = async () => {
    await useAuthStore.getState().logout('user');
    showToast(t('auth.loggedOut'), 'success');
  };

  return (
    <div
      className={`flex items-center justify-between gap-3 ${sidebar ? 'px-1 pb-3 lg:flex-col lg:items-stretch' : ''}`}
    >
      <div className="min-w-0 text-sm">
        <p className="text-fg-muted">{t('admin.signedInAs')}</p>
        <p
          className="truncate font-medium text-fg"
          data-testid="signed-in-user"
          data-user-content={userName ? '' : undefined}
        >
          {authType === 'admin' ? userName || t('auth.administrator') : userName}
        </p>
        <p className="text-xs text-fg-muted">{t(ROLE_LABELS[authType === 'none' ? 'apikey' : authType])}</p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => void logout()}
        className={sidebar ? 'lg:w-full' : ''}
      >
        <LogoutIcon className="size-4" />
        {t('auth.logout')}
      </Button>
    </div>
  );
}
