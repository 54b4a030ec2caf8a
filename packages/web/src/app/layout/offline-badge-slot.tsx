/** Where the offline badge appears: its code loads (from the precache) only while offline. */
import { lazy, Suspense } from 'react';
import { useNetworkStatus } from '../../lib/offline/network-status.ts';

const OfflineBadge = lazy(() => import('./offline-badge.tsx'));

export function OfflineBadgeSlot() {
  const online = useNetworkStatus((state) => state.online);
  if (online) return null;
  return (
    <Suspense fallback={null}>
      <OfflineBadge />
    </Suspense>
  );
}
