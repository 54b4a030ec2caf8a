/**
 * Navigation of the admin area: the modules the principal may use, the mount explorer link (for
 * principals with mount permission), who is signed in, and logout. A horizontal scroller on
 * narrow screens, a sidebar on wide ones.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { useAuthStore } from '../../auth/index.ts';
import type { AdminModule } from '../admin-modules.ts';
import { SignedInAs } from './signed-in-as.tsx';

const itemClasses =
  'block shrink-0 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

export function AdminNav({
  modules,
  activeId,
}: {
  modules: readonly AdminModule[];
  activeId: string | null;
}) {
  const { t } = useTranslation();
  const authType = useAuthStore((state) => state.authType);
  const canMount = useAuthStore((state) => state.hasPermission('mount'));
  const basePath = useAuthStore((state) => state.apiKeyInfo?.basic_path ?? '/');

  return (
    <aside className="mb-6 min-w-0 lg:mb-0">
      <div className="rounded-xl border border-border bg-surface p-3 shadow-card">
        <SignedInAs sidebar />
        <nav aria-label={t('admin.navigation')} className="border-t border-border pt-3">
          <ul className="flex flex-wrap gap-1 lg:flex-col">
            {modules.map((module) => {
              const active = module.id === activeId;
              return (
                <li key={module.id}>
                  <Link
                    to={paths.admin.getHref(module.id)}
                    aria-current={active ? 'page' : undefined}
                    className={`${itemClasses} ${active ? 'bg-accent-soft text-accent-text' : 'text-fg-muted hover:bg-surface-sunken hover:text-fg'}`}
                  >
                    {t(module.titleKey)}
                  </Link>
                </li>
              );
            })}
            {canMount && (
              <li>
                <Link
                  to={paths.mountExplorer.getHref(authType === 'apikey' ? basePath : '/')}
                  className={`${itemClasses} text-fg-muted hover:bg-surface-sunken hover:text-fg`}
                >
                  {t('nav.mountExplorer')}
                </Link>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </aside>
  );
}
