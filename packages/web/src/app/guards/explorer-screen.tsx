/**
 * The mount explorer behind its access guard, one lazy chunk with the explorer page: the guard
 * and what it needs load only with the screen it protects (a key is still redirected before the
 * page renders).
 */
import MountExplorerPage from '../../features/explorer/mount-explorer-page.tsx';
import { MountExplorerGuard } from './access-guards.tsx';

export default function ExplorerScreen() {
  return (
    <MountExplorerGuard>
      <MountExplorerPage />
    </MountExplorerGuard>
  );
}
