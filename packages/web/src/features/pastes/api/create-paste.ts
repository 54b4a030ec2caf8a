/** POST /paste: creates a text share (admin, or an API key with the text permission). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasteCreateInput, PasteFormat } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import { pasteKeys } from './query-keys.ts';
import { refreshAfterChange } from '../../../lib/query/refresh.ts';

export interface CreatedPaste {
  id: string;
  slug: string;
  format: PasteFormat;
  remark: string | null;
  expiresAt: string | null;
  maxViews: number;
  hasPassword: boolean;
  createdAt: string;
}

export function createPaste(input: PasteCreateInput): Promise<CreatedPaste> {
  return api.post<CreatedPaste>('/paste', input);
}

export function useCreatePaste() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPaste,
    onSuccess: () => refreshAfterChange(queryClient, { queryKey: pasteKeys.managed() }),
  });
}
