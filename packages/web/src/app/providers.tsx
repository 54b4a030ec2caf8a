/**
 * App-wide providers: TanStack Query (no retries for answers the server meant, cache dropped on
 * logout so one user's data never shows for the next) and the router.
 */
import { useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { isApiError } from '../lib/api/index.ts';
import { AUTH_STATE_CHANGED } from '../features/auth/index.ts';
import { AppRouter } from './router.tsx';

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          failureCount < 2 && isApiError(error) && error.isTransport && error.code !== 'CANCELLED',
      },
      mutations: { retry: false },
    },
  });
}

export function AppProviders() {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => {
    const onAuthChange = () => queryClient.clear();
    window.addEventListener(AUTH_STATE_CHANGED, onAuthChange);
    return () => window.removeEventListener(AUTH_STATE_CHANGED, onAuthChange);
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRouter />
    </QueryClientProvider>
  );
}
