/**
 * The admin area behind its access guard, one lazy chunk with the admin page: the guard and what
 * it needs load only with the screen it protects (a key without permissions is still sent home
 * before the page renders).
 */
import AdminPage from '../../features/admin/admin-page.tsx';
import { ManagementAccessGuard } from './access-guards.tsx';

export default function AdminScreen() {
  return (
    <ManagementAccessGuard>
      <AdminPage />
    </ManagementAccessGuard>
  );
}
