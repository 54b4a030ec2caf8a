/** The folder's path as links, root first; the last segment is the current folder. */
import { useTranslation } from 'react-i18next';
import { PathBreadcrumb } from '../../../components/path-breadcrumb.tsx';
import { paths } from '../../../config/paths.ts';
import { breadcrumb } from '../explorer-model.ts';

export function ExplorerBreadcrumb({ path }: { path: string }) {
  const { t } = useTranslation();
  return (
    <PathBreadcrumb
      crumbs={breadcrumb(path)}
      rootLabel={t('explorer.root')}
      hrefOf={paths.mountExplorer.getHref}
      label={t('explorer.breadcrumb')}
      testId="explorer-breadcrumb"
      path={path}
    />
  );
}
