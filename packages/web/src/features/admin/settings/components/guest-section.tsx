/**
 * The "Guest access" setting (docs/accounts.md "Guests"): whether signed-out visitors may browse the
 * guest folders in the mount explorer, which folders (one per line), and whether they may also
 * write there (read only unless chosen). Folder rules bind guests too.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { splitGuestPaths } from '@cubby/shared';
import { Card } from '../../../../components/card.tsx';
import { Checkbox, TextAreaField } from '../../../../components/form-field.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useSystemSettings, useUpdateSystemSettings, type SystemSettings } from '../api/system-settings.ts';
import { SettingsFormEnd } from './form-end.tsx';
import { announceSectionSaved, useSectionErrors } from '../section-errors.ts';

export function GuestSection() {
  const { t } = useTranslation();
  const settings = useSystemSettings();
  return (
    <Card title={t('admin.settings.guest.title')} description={t('admin.settings.guest.description')}>
      {settings.isPending ? (
        <PageLoading />
      ) : settings.isError ? (
        <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <GuestForm settings={settings.data} />
      )}
    </Card>
  );
}

function GuestForm({ settings }: { settings: SystemSettings }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(settings.guestEnabled);
  const [paths, setPaths] = useState(settings.guestPaths);
  const [write, setWrite] = useState(settings.guestWrite);
  const [invalid, setInvalid] = useSectionErrors(false);
  const [serverError, setServerError] = useSectionErrors<string | null>(null);
  const update = useUpdateSystemSettings();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    if (splitGuestPaths(paths) === null) {
      setInvalid(true);
      return;
    }
    update.mutate(
      { guest_enabled: enabled, guest_paths: paths, guest_write: write },
      {
        onSuccess: (saved) => {
          setPaths(saved.guestPaths);
          announceSectionSaved();
          showToast(t('admin.settings.guest.saved'), 'success');
        },
        onError: (error) => setServerError(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xl space-y-5" data-testid="guest-settings">
      <Checkbox
        label={t('admin.settings.guest.enabled')}
        description={t('admin.settings.guest.enabledHint')}
        name="guestEnabled"
        checked={enabled}
        onChange={(event) => setEnabled(event.target.checked)}
      />
      <TextAreaField
        label={t('admin.settings.guest.paths')}
        hint={t('admin.settings.guest.pathsHint')}
        error={invalid ? t('admin.settings.guest.pathsInvalid') : null}
        name="guestPaths"
        rows={3}
        value={paths}
        placeholder="/public"
        onChange={(event) => {
          setPaths(event.target.value);
          setInvalid(false);
        }}
      />
      <Checkbox
        label={t('admin.settings.guest.write')}
        description={t('admin.settings.guest.writeHint')}
        name="guestWrite"
        checked={write}
        onChange={(event) => setWrite(event.target.checked)}
      />
      <SettingsFormEnd
        error={serverError}
        errorTestId="guest-settings-error"
        pending={update.isPending}
        label={t('admin.settings.guest.save')}
        testId="save-guest-settings"
      />
    </form>
  );
}
