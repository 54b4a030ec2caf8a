/**
 * The "Audit log" setting (docs/security.md "Audit log"): how many days entries are kept (0: for
 * ever), saved with PUT /admin/system-settings; the form then shows what the server stored.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../../components/card.tsx';
import { TextField } from '../../../../components/form-field.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useSystemSettings, useUpdateSystemSettings, type SystemSettings } from '../api/system-settings.ts';
import { parseRetentionDays } from '../audit-retention.ts';
import { SettingsFormEnd } from './form-end.tsx';
import { announceSectionSaved, useSectionErrors } from '../section-errors.ts';

export function AuditSection() {
  const { t } = useTranslation();
  const settings = useSystemSettings();
  return (
    <Card title={t('admin.settings.audit.title')} description={t('admin.settings.audit.description')}>
      {settings.isPending ? (
        <PageLoading />
      ) : settings.isError ? (
        <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <AuditForm settings={settings.data} />
      )}
    </Card>
  );
}

function AuditForm({ settings }: { settings: SystemSettings }) {
  const { t } = useTranslation();
  const [days, setDays] = useState(String(settings.auditRetentionDays));
  const [invalid, setInvalid] = useSectionErrors(false);
  const [serverError, setServerError] = useSectionErrors<string | null>(null);
  const update = useUpdateSystemSettings();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const parsed = parseRetentionDays(days);
    if (parsed === null) {
      setInvalid(true);
      return;
    }
    if (parsed === settings.auditRetentionDays) {
      showToast(t('admin.settings.audit.unchanged'), 'info');
      return;
    }
    update.mutate(
      { audit_retention_days: parsed },
      {
        onSuccess: (saved) => {
          setDays(String(saved.auditRetentionDays));
          announceSectionSaved();
          showToast(t('admin.settings.audit.saved'), 'success');
        },
        onError: (error) => setServerError(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xl space-y-5" data-testid="audit-settings">
      <TextField
        label={t('admin.settings.audit.retention')}
        name="auditRetentionDays"
        inputMode="numeric"
        value={days}
        hint={t('admin.settings.audit.retentionHint')}
        error={invalid ? t('admin.settings.audit.invalid') : null}
        onChange={(event) => {
          setDays(event.target.value);
          setInvalid(false);
          setServerError(null);
        }}
        className="max-w-40"
      />
      <SettingsFormEnd
        error={serverError}
        errorTestId="audit-settings-error"
        pending={update.isPending}
        label={t('admin.settings.audit.save')}
      />
    </form>
  );
}
