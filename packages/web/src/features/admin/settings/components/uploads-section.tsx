/**
 * The "Uploads" settings (docs/product.md §3 "System settings"): the largest upload (number and unit), the
 * internal hosts URL uploads may fetch (one entry per line), whether files uploaded into mounts are
 * published as share links (through the explorer and the API; over WebDAV, in the WebDAV group with
 * how WebDAV uploads reach storage), and whether file pages offer Office preview (off by default:
 * it sends the file to Microsoft's viewer).
 * One save sends what changed with PUT /admin/system-settings; the form then shows what the server
 * stored.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBDAV_UPLOAD_MODES, type SizeUnit } from '@cubby/shared';
import { Card } from '../../../../components/card.tsx';
import { Checkbox, SelectField } from '../../../../components/form-field.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useErrorFocus } from '../../../../lib/forms/use-error-focus.ts';
import {
  useSystemSettings,
  useUpdateSystemSettings,
  type SystemSettings,
  type WebdavUploadMode,
} from '../api/system-settings.ts';
import { validateUploads, valuesOf, type UploadsErrors, type UploadsFormValues } from '../uploads-form.ts';
import { announceSectionSaved, useSectionErrors } from '../section-errors.ts';
import { SettingsFormEnd } from './form-end.tsx';
import { SizeField } from './size-field.tsx';

export function UploadsSection() {
  const { t } = useTranslation();
  const settings = useSystemSettings();
  return (
    <Card title={t('admin.settings.uploads.title')} description={t('admin.settings.uploads.description')}>
      {settings.isPending ? (
        <PageLoading />
      ) : settings.isError ? (
        <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <UploadsForm settings={settings.data} />
      )}
    </Card>
  );
}

const NO_ERRORS: UploadsErrors = {};

function UploadsForm({ settings }: { settings: SystemSettings }) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => valuesOf(settings));
  const [errors, setErrors] = useSectionErrors(NO_ERRORS);
  const [serverError, setServerError] = useSectionErrors<string | null>(null);
  const update = useUpdateSystemSettings();
  const allowlistId = useId();

  const change = (patch: Partial<UploadsFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      if ('maxSize' in patch || 'maxSizeUnit' in patch) delete next.maxSize;
      if ('urlAllowlist' in patch) delete next.urlAllowlist;
      return next;
    });
    setServerError(null);
  };
  const errorText = (field: keyof UploadsErrors) => {
    const error = errors[field];
    return error ? t(error.key, { entry: error.entry ?? '' }) : null;
  };

  const { errorScope, focusFirstError } = useErrorFocus();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const result = validateUploads(values, settings);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstError();
      return;
    }
    if (Object.keys(result.input).length === 0) {
      showToast(t('admin.settings.uploads.unchanged'), 'info');
      return;
    }
    update.mutate(result.input, {
      onSuccess: (saved) => {
        setValues(valuesOf(saved));
        announceSectionSaved();
        showToast(t('admin.settings.uploads.saved'), 'success');
      },
      onError: (error) => setServerError(errorMessage(error)),
    });
  };

  const allowlistError = errorText('urlAllowlist');
  return (
    <form
      ref={errorScope}
      onSubmit={onSubmit}
      noValidate
      className="max-w-xl space-y-5"
      data-testid="uploads-settings"
    >
      <SizeField
        label={t('admin.settings.uploads.maxSize')}
        name="maxUploadSize"
        value={values.maxSize}
        unit={values.maxSizeUnit}
        required
        hint={t('admin.settings.uploads.maxSizeHint')}
        error={errorText('maxSize')}
        onChange={(maxSize) => change({ maxSize })}
        onUnitChange={(maxSizeUnit: SizeUnit) => change({ maxSizeUnit })}
      />
      <div className="space-y-1.5">
        <label htmlFor={allowlistId} className="block text-sm font-medium text-fg">
          {t('admin.settings.uploads.allowlist')}
        </label>
        <textarea
          id={allowlistId}
          name="urlAllowlist"
          rows={4}
          spellCheck={false}
          data-user-content=""
          value={values.urlAllowlist}
          placeholder={t('admin.settings.uploads.allowlistPlaceholder')}
          aria-invalid={allowlistError ? true : undefined}
          aria-describedby={`${allowlistId}-${allowlistError ? 'error' : 'hint'}`}
          onChange={(event) => change({ urlAllowlist: event.target.value })}
          className={`block w-full resize-y rounded-md border bg-surface px-3 py-2 font-mono text-sm text-fg placeholder:text-fg-muted/80 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring ${allowlistError ? 'border-danger' : 'border-border-strong/70'}`}
        />
        {allowlistError ? (
          <p id={`${allowlistId}-error`} className="text-xs font-medium break-words text-danger-text">
            {allowlistError}
          </p>
        ) : (
          <p id={`${allowlistId}-hint`} className="text-xs text-fg-muted">
            {t('admin.settings.uploads.allowlistHint')}
          </p>
        )}
      </div>
      <Checkbox
        name="fsUploadShare"
        label={t('admin.settings.uploads.fsUploadShare')}
        description={t('admin.settings.uploads.fsUploadShareHint')}
        checked={values.fsUploadShare}
        onChange={(event) => change({ fsUploadShare: event.target.checked })}
      />
      <fieldset className="space-y-4" data-testid="webdav-settings">
        <legend className="mb-2 text-sm font-semibold text-fg">{t('admin.settings.uploads.webdav')}</legend>
        <SelectField
          label={t('admin.settings.uploads.webdavMode')}
          name="webdavUploadMode"
          value={values.webdavUploadMode}
          hint={t(`admin.settings.uploads.webdavModeHints.${values.webdavUploadMode}`)}
          onChange={(event) => change({ webdavUploadMode: event.target.value as WebdavUploadMode })}
        >
          {WEBDAV_UPLOAD_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`admin.settings.uploads.webdavModes.${mode}`)}
            </option>
          ))}
        </SelectField>
        <Checkbox
          name="webdavUploadShare"
          label={t('admin.settings.uploads.webdavUploadShare')}
          description={t('admin.settings.uploads.webdavUploadShareHint')}
          checked={values.webdavUploadShare}
          onChange={(event) => change({ webdavUploadShare: event.target.checked })}
        />
      </fieldset>
      <Checkbox
        name="officePreview"
        label={t('admin.settings.uploads.officePreview')}
        description={t('admin.settings.uploads.officePreviewWarning')}
        checked={values.officePreview}
        onChange={(event) => change({ officePreview: event.target.checked })}
      />
      <Checkbox
        name="publicPastes"
        label={t('admin.settings.uploads.publicPastes')}
        description={t('admin.settings.uploads.publicPastesHint')}
        checked={values.publicPastes}
        onChange={(event) => change({ publicPastes: event.target.checked })}
        data-testid="public-pastes-setting"
      />
      <SettingsFormEnd
        error={serverError}
        errorTestId="uploads-settings-error"
        pending={update.isPending}
        label={t('admin.settings.uploads.submit')}
        testId="save-uploads-settings"
      />
    </form>
  );
}
