/** The folder's path as links, root first; the last segment is the current folder. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronRightIcon } from '../../../components/icons.tsx';
import { paths } from '../../../config/paths.ts';
import { breadcrumb } from '../explorer-model.ts';

export function ExplorerBreadcrumb({ path }: { path: string }) {
  const { t } = useTranslation();
  const crumbs = breadcrumb(path);
  return (
    <nav
      aria-label={t('explorer.breadcrumb')}
      className="min-w-0 flex-1"
      data-testid="explorer-breadcrumb"
      data-path={path}
    >
      <ol className="flex flex-wrap items-center gap-0.5 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          const name =
            crumb.path === '/' ? t('explorer.root') : <span data-user-content="">{crumb.name}</span>;
          return (
            <li key={crumb.path} className="flex min-w-0 items-center gap-0.5">
              {index > 0 && <ChevronRightIcon className="size-3.5 shrink-0 text-fg-muted" />}
              {last ? (
                <span
                  aria-current="page"
                  className="truncate px-1 py-0.5 font-medium text-fg"
                  data-testid="crumb-current"
                >
                  {name}
                </span>
              ) : (
                <Link
                  to={paths.mountExplorer.getHref(crumb.path)}
                  className="truncate rounded px-1 py-0.5 text-accent-text hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  data-testid="crumb"
                >
                  {name}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
