/**
 * POST /paste/:slug {password}: opens a protected paste (counts a view). The answer replaces the
 * cached metadata-only view; the password itself is never cached.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasteView } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { pasteKeys } from './query-keys.ts';

export function unlockPaste({ slug, password }: { slug: string; password: string }): Promise<PasteView> {
  return api.post<PasteView>(`/paste/${encodeURIComponent(slug)}`, { password });
}

export function useUnlockPaste() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlockPaste,
    gcTime: 0,
    onSuccess: (view, { slug }) => queryClient.setQueryData(pasteKeys.view(slug), view),
  });
}
