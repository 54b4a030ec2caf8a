/**
 * Admin module "audit-log" (docs/security.md "Audit log"): who did what, when, from where, and how
 * it ended, newest first, 25 per page; filters by action, actor (name or id), outcome and a range
 * of days; "Export CSV" downloads the filtered log (through a short-lived link, so the browser
 * streams the file to disk). A table on wide screens, cards on phones.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@cubby/shared';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { Fact } from '../../../components/fact.tsx';
import { SelectField, TextField } from '../../../components/form-field.tsx';
import { DownloadIcon } from '../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../lib/api/index.ts';
import { downloadFromUrl } from '../../../lib/download.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { AUDIT_PAGE_SIZE, auditExportLink, useAuditLog } from './api.ts';
import { NO_FILTERS, rangeReversed, toAuditQuery, type AuditFilterValues } from './audit-filters.ts';

const KNOWN_KINDS = ['admin', 'member', 'apikey', 'guest'] as const;

function useLabels() {
  const { t } = useTranslation();
  return {
    // An action this app has no words for (a newer server's) is shown as the server's own code.
    action: (action: string) =>
      (AUDIT_ACTIONS as readonly string[]).includes(action) ? (
        t(`admin.auditLog.actions.${action as AuditAction}`)
      ) : (
        <span data-user-content="">{action}</span>
      ),
    kind: (kind: string) =>
      (KNOWN_KINDS as readonly string[]).includes(kind)
        ? t(`admin.auditLog.kinds.${kind as (typeof KNOWN_KINDS)[number]}`)
        : kind,
    outcome: (entry: AuditEntry) =>
      entry.outcome === 'success'
        ? t('admin.auditLog.outcomes.success')
        : t('admin.auditLog.failedWith', { status: entry.status }),
  };
}

function Who({ entry }: { entry: AuditEntry }) {
  const labels = useLabels();
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-medium break-all" data-user-content="">
        {entry.actor_name ?? entry.actor_id ?? '—'}
      </span>
      <Badge tone="muted">{labels.kind(entry.actor_kind)}</Badge>
    </span>
  );
}

function Outcome({ entry }: { entry: AuditEntry }) {
  const labels = useLabels();
  return (
    <Badge tone={entry.outcome === 'success' ? 'success' : 'danger'} testId="audit-outcome">
      {labels.outcome(entry)}
    </Badge>
  );
}

function Time({ at }: { at: string }) {
  return <time dateTime={at}>{formatDateTime(at)}</time>;
}

function Target({ entry }: { entry: AuditEntry }) {
  return entry.target ? (
    <span className="font-mono text-xs break-all" data-user-content="" title={entry.target}>
      {entry.target.length > 80 ? `${entry.target.slice(0, 80)}…` : entry.target}
    </span>
  ) : (
    <span className="text-fg-muted">—</span>
  );
}

function AuditList({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  const labels = useLabels();
  const columns = ['time', 'who', 'address', 'action', 'target', 'outcome'] as const;
  return (
    <>
      <ul className="space-y-3 md:hidden" aria-label={t('admin.auditLog.listLabel')}>
        {entries.map((entry) => (
          <li key={entry.id} data-testid="audit-entry" data-action={entry.action}>
            <article className="rounded-lg border border-border bg-surface p-4">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="font-semibold text-fg">{labels.action(entry.action)}</h3>
                <Outcome entry={entry} />
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-border pt-3">
                <Fact label={t('admin.auditLog.columns.time')}>
                  <Time at={entry.at} />
                </Fact>
                <Fact label={t('admin.auditLog.columns.who')}>
                  <Who entry={entry} />
                </Fact>
                <Fact label={t('admin.auditLog.columns.address')}>
                  <span className="font-mono text-xs break-all">{entry.ip}</span>
                </Fact>
                <Fact label={t('admin.auditLog.columns.target')}>
                  <Target entry={entry} />
                </Fact>
              </dl>
            </article>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-start text-sm">
          <caption className="sr-only">{t('admin.auditLog.listLabel')}</caption>
          <thead className="border-b border-border text-xs text-fg-muted">
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className="py-2 pe-3 text-start font-medium whitespace-nowrap">
                  {t(`admin.auditLog.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {entries.map((entry) => (
              <tr key={entry.id} data-testid="audit-row" data-action={entry.action}>
                <td className="py-3 pe-3 whitespace-nowrap">
                  <Time at={entry.at} />
                </td>
                <td className="max-w-48 py-3 pe-3">
                  <Who entry={entry} />
                </td>
                <td className="py-3 pe-3 font-mono text-xs whitespace-nowrap">{entry.ip}</td>
                <td className="py-3 pe-3">{labels.action(entry.action)}</td>
                <td className="max-w-56 py-3 pe-3">
                  <Target entry={entry} />
                </td>
                <td className="py-3">
                  <Outcome entry={entry} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Filters({
  initial,
  onApply,
}: {
  initial: AuditFilterValues;
  onApply(values: AuditFilterValues): void;
}) {
  const { t } = useTranslation();
  const labels = useLabels();
  const [values, setValues] = useState(initial);
  const reversed = rangeReversed(values);
  const change = (patch: Partial<AuditFilterValues>) => setValues((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reversed) onApply(values);
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3 lg:items-end"
      aria-label={t('admin.auditLog.filters.label')}
      data-testid="audit-filters"
    >
      <SelectField
        label={t('admin.auditLog.filters.action')}
        name="action"
        value={values.action}
        onChange={(event) => change({ action: event.target.value })}
      >
        <option value="">{t('admin.auditLog.filters.anyAction')}</option>
        {AUDIT_ACTIONS.map((action) => (
          <option key={action} value={action}>
            {labels.action(action)}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('admin.auditLog.filters.actor')}
        name="actor"
        value={values.actor}
        maxLength={200}
        placeholder={t('admin.auditLog.filters.actorPlaceholder')}
        onChange={(event) => change({ actor: event.target.value })}
      />
      <SelectField
        label={t('admin.auditLog.filters.outcome')}
        name="outcome"
        value={values.outcome}
        onChange={(event) => change({ outcome: event.target.value as AuditFilterValues['outcome'] })}
      >
        <option value="">{t('admin.auditLog.filters.anyOutcome')}</option>
        <option value="success">{t('admin.auditLog.outcomes.success')}</option>
        <option value="failure">{t('admin.auditLog.outcomes.failure')}</option>
      </SelectField>
      <TextField
        type="date"
        label={t('admin.auditLog.filters.from')}
        name="from"
        value={values.from}
        onChange={(event) => change({ from: event.target.value })}
      />
      <TextField
        type="date"
        label={t('admin.auditLog.filters.to')}
        name="to"
        value={values.to}
        error={reversed ? t('admin.auditLog.filters.reversed') : null}
        onChange={(event) => change({ to: event.target.value })}
      />
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-1">
        <Button type="submit" data-testid="audit-apply">
          {t('admin.auditLog.filters.apply')}
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            setValues(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          {t('admin.auditLog.filters.clear')}
        </Button>
      </div>
    </form>
  );
}

export default function AuditLogModule() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AuditFilterValues>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const query = toAuditQuery(filters);
  const log = useAuditLog(query, page);
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadFromUrl(await auditExportLink(query));
      showToast(t('admin.auditLog.exportStarted'), 'info');
    } catch (error) {
      showToast(errorMessage(error), 'error');
    } finally {
      setExporting(false);
    }
  };

  const filtered = Object.keys(query).length > 0;
  return (
    <Card
      as="h1"
      title={t('admin.modules.auditLog')}
      description={t('admin.descriptions.auditLog')}
      actions={
        <Button
          variant="secondary"
          onClick={() => void exportCsv()}
          disabled={exporting}
          data-testid="audit-export"
        >
          <DownloadIcon className="size-4" />
          {t('admin.auditLog.export')}
        </Button>
      }
    >
      <Filters
        initial={filters}
        onApply={(values) => {
          setFilters(values);
          setPage(1);
        }}
      />
      {log.isPending ? (
        <PageLoading />
      ) : log.isError ? (
        <LoadError error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.items.length === 0 ? (
        <EmptyState
          title={filtered ? t('admin.auditLog.empty.noMatch') : t('admin.auditLog.empty.title')}
          description={
            filtered ? t('admin.auditLog.empty.noMatchDescription') : t('admin.auditLog.empty.description')
          }
          testId="audit-empty"
        />
      ) : (
        <div className="space-y-4">
          <AuditList entries={log.data.items} />
          <Pagination
            page={page}
            totalPages={Math.max(1, Math.ceil(log.data.total / AUDIT_PAGE_SIZE))}
            total={log.data.total}
            onPageChange={setPage}
          />
        </div>
      )}
    </Card>
  );
}
