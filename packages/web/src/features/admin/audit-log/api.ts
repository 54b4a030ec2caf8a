/**
 * The audit log's calls: a page of entries (GET /admin/audit) and a short-lived link that downloads
 * the CSV export (POST /admin/audit/export-link; the browser then streams the file to disk).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditPage } from '@cubby/shared';
import { api } from '../../../lib/api/index.ts';
import type { AuditQuery } from './audit-filters.ts';

export const AUDIT_PAGE_SIZE = 25;

export function useAuditLog(query: AuditQuery, page: number) {
  return useQuery({
    queryKey: ['audit-log', query, page],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ ...query, page: String(page), limit: String(AUDIT_PAGE_SIZE) });
      return api.get<AuditPage>(`/admin/audit?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

export async function auditExportLink(query: AuditQuery): Promise<string> {
  return (await api.post<{ url: string }>('/admin/audit/export-link', query)).url;
}
