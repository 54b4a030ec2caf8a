/** A folder's path as links, root first; the last crumb is the current folder (the explorer, folder shares). */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRightIcon } from './icons.tsx';

export interface Crumb {
  name: string;
  path: string;
}

export function PathBreadcrumb({
  crumbs,
  rootLabel,
  hrefOf,
  label,
  testId,
  path,
}: {
  /** Root first. */
  crumbs: readonly Crumb[];
  /** The first crumb's text (user content comes marked, `data-user-content`). */
  rootLabel: ReactNode;
  hrefOf(path: string): string;
  /** The navigation's accessible name. */
  label: string;
  testId: string;
  /** The current folder's path (as `data-path`, for tests). */
  path: string;
}) {
  return (
    <nav aria-label={label} className="min-w-0 flex-1" data-testid={testId} data-path={path}>
      <ol className="flex flex-wrap items-center gap-0.5 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          const name = index === 0 ? rootLabel : <span data-user-content="">{crumb.name}</span>;
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
                  to={hrefOf(crumb.path)}
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
