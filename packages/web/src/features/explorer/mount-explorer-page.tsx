/**
 * Mount explorer, /mount-explorer/<path…> (spec §2); `?preview=` names a file to preview.
 * Placeholder until its issue lands; the path rules are enforced by the route guard.
 */
import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { normalizePath } from '@cubby/shared';
import { ComingSoon } from '../../components/coming-soon.tsx';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { paths } from '../../config/paths.ts';

export default function MountExplorerPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  usePageTitle(t('titles.mountExplorer'));
  const path = normalizePath(paths.mountExplorer.pathFromPathname(pathname)) ?? '/';
  const preview = searchParams.get('preview');
  return (
    <ComingSoon title={t('explorer.heading')} description={t('explorer.description')}>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-fg-muted">{t('explorer.currentPath')}</dt>
        <dd className="font-mono break-all text-fg" data-testid="explorer-path">
          {path}
        </dd>
        {preview && (
          <>
            <dt className="text-fg-muted">{t('explorer.preview')}</dt>
            <dd className="font-mono break-all text-fg">{preview}</dd>
          </>
        )}
      </dl>
    </ComingSoon>
  );
}
