/**
 * File upload, /upload (docs/product.md §2, §4): files from the device (drag and drop or picker, several at
 * once) or from a URL, to a chosen storage config, with the share settings of docs/product.md §5. The list
 * below shows each upload's progress and result. Visitors without the file permission see a
 * prompt to sign in (docs/product.md §6) and cannot start uploads.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { useErrorFocus } from '../../lib/forms/use-error-focus.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { storageConfigsQueryOptions } from '../admin/index.ts';
import { useAuthStore } from '../auth/index.ts';
import { defaultConfigId, useMaxUploadBytes } from './api/use-upload-options.ts';
import { DropZone } from './components/drop-zone.tsx';
import { RecentUploads } from './components/recent-uploads.tsx';
import { ShareSettingsFields } from './components/share-settings-fields.tsx';
import { UploadAnnouncer } from './components/upload-announcer.tsx';
import { UploadItemRow } from './components/upload-item-row.tsx';
import { UrlUploadPanel } from './components/url-upload-panel.tsx';
import type { UploadTarget } from './transfer/upload-run.ts';
import {
  EMPTY_UPLOAD_SETTINGS,
  validateUploadSettings,
  type UploadErrors,
  type UploadSettingsValues,
} from './upload-form.ts';
import { isBlocked, useUploadQueue } from './upload-queue.ts';
import { useSharePolicy } from './api/share-policy.ts';
import { SharePolicyNote } from './components/share-policy-note.tsx';
import { largestFile, uploadDefaults } from './share-policy-form.ts';
import { AccessNotice } from '../../components/access-notice.tsx';
import { ShareAsBundle } from '../bundle-view/index.ts';

type Tab = 'files' | 'url';
const TABS: Tab[] = ['files', 'url'];

export default function UploadPage() {
  const { t } = useTranslation();
  usePageTitle(t('titles.upload'));
  const canUpload = useAuthStore((state) => state.hasPermission('file'));
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const configsQuery = useQuery({ ...storageConfigsQueryOptions(), enabled: canUpload });
  const configs = configsQuery.data ?? [];
  const maxBytes = useMaxUploadBytes();
  const policy = useSharePolicy();
  const items = useUploadQueue((state) => state.items);
  const [tab, setTab] = useState<Tab>('files');
  const [chosenConfig, setChosenConfig] = useState<string | null>(null);
  const [values, setValues] = useState<UploadSettingsValues>(EMPTY_UPLOAD_SETTINGS);
  // The share policy's defaults are preselected once it is known (docs/api.md, "Share policy").
  const [preselected, setPreselected] = useState(false);
  if (policy && !preselected) {
    setPreselected(true);
    setValues((current) => ({ ...current, ...uploadDefaults(policy) }));
  }
  // The largest file the drop zone names.
  const largest = largestFile(maxBytes, policy);
  const [errors, setErrors] = useState<UploadErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const tabIds = useId();
  const { errorScope, focusFirstError } = useErrorFocus<HTMLDivElement>();

  const noStorage = configsQuery.isSuccess && configs.length === 0;
  const configId = configs.some((config) => config.id === chosenConfig)
    ? chosenConfig
    : defaultConfigId(configs);
  const startable = items.filter((item) => item.status === 'pending' && !item.queued && !isBlocked(item));
  const finished = items.some((item) => item.status === 'success');
  // Two or more finished uploads can go out as one link (a bundle of their shares).
  const shared = items.flatMap((item) =>
    item.status === 'success' && item.share ? [{ type: 'file' as const, value: item.share.slug }] : [],
  );

  const changeSettings = (patch: Partial<UploadSettingsValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as keyof UploadErrors];
      return next;
    });
    setFormError(null);
  };

  /** The target for `count` uploads, or null (and the errors shown) when the settings are not valid. */
  const targetFor = (count: number): UploadTarget | null => {
    setFormError(null);
    if (noStorage) {
      setFormError(t('upload.settings.noStorage'));
      return null;
    }
    const result = validateUploadSettings(values, count);
    if (!result.ok) {
      setErrors(result.errors);
      setFormError(t('upload.errors.checkSettings'));
      focusFirstError();
      return null;
    }
    setErrors({});
    return { ...(configId ? { configId } : {}), share: result.input };
  };

  const startFiles = () => {
    const target = targetFor(startable.length);
    if (target) useUploadQueue.getState().startPending(target);
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{t('upload.heading')}</h1>
        <p className="mt-1 text-sm text-fg-muted">{t('upload.description')}</p>
      </div>
      <UploadAnnouncer />
      {!canUpload && (
        <AccessNotice
          signedIn={signedIn}
          message={signedIn ? t('upload.notice.keyWithoutFile') : t('upload.notice.signedOut')}
          testId="upload-notice"
        />
      )}

      <div ref={errorScope} className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <section className="rounded-xl border border-border bg-surface p-4 shadow-card sm:p-6">
            <div
              role="tablist"
              aria-label={t('upload.tabs.label')}
              className="mb-4 inline-grid grid-cols-2 gap-1 rounded-lg bg-surface-sunken p-1"
            >
              {TABS.map((value) => (
                <button
                  key={value}
                  type="button"
                  role="tab"
                  id={`${tabIds}-${value}`}
                  aria-selected={tab === value}
                  aria-controls={`${tabIds}-panel`}
                  data-testid={`tab-${value}`}
                  onClick={() => setTab(value)}
                  className={`rounded-md px-4 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring ${
                    tab === value ? 'bg-surface text-fg shadow-card' : 'text-fg-muted hover:text-fg'
                  }`}
                >
                  {t(`upload.tabs.${value}`)}
                </button>
              ))}
            </div>
            <div id={`${tabIds}-panel`} role="tabpanel" aria-labelledby={`${tabIds}-${tab}`}>
              {tab === 'files' ? (
                <DropZone
                  disabled={!canUpload}
                  maxBytes={largest}
                  onFiles={(files) => useUploadQueue.getState().addFiles(files, maxBytes, policy)}
                />
              ) : (
                <UrlUploadPanel
                  disabled={!canUpload}
                  maxBytes={maxBytes}
                  onUpload={(source) => {
                    const target = targetFor(1);
                    if (!target) return false;
                    const queue = useUploadQueue.getState();
                    queue.start(queue.addUrl(source, maxBytes, policy), target);
                    return true;
                  }}
                />
              )}
            </div>
            {/* The policy's limits where the user starts, above the list on a phone too. */}
            <SharePolicyNote className="mt-3" />
          </section>

          {items.length > 0 && (
            <Card
              title={t('upload.list.title')}
              actions={
                finished && (
                  <Button variant="ghost" size="sm" onClick={() => useUploadQueue.getState().clearFinished()}>
                    {t('upload.list.clearFinished')}
                  </Button>
                )
              }
            >
              <ul className="space-y-3" data-testid="upload-list">
                {items.map((item) => (
                  <UploadItemRow key={item.id} item={item} />
                ))}
              </ul>
              {formError && (
                <Alert tone="error" className="mt-4" testId="upload-form-error">
                  {formError}
                </Alert>
              )}
              {startable.length > 0 && (
                <div className="mt-4 flex justify-end">
                  <Button onClick={startFiles} disabled={!canUpload} data-testid="start-upload">
                    {t('upload.list.start', { count: startable.length })}
                  </Button>
                </div>
              )}
            </Card>
          )}
          {shared.length >= 2 && (
            <Card title={t('upload.bundle.heading')}>
              {/* A new set of finished uploads is a new bundle form. */}
              <ShareAsBundle
                key={shared.map((i) => i.value).join(' ')}
                items={shared}
                description={t('upload.bundle.description', { count: shared.length })}
              />
            </Card>
          )}
          {items.length === 0 && formError && (
            <Alert tone="error" testId="upload-form-error">
              {formError}
            </Alert>
          )}
        </div>

        <div className="min-w-0 space-y-6">
          <Card title={t('upload.settings.title')} description={t('upload.settings.description')}>
            <ShareSettingsFields
              values={values}
              errors={errors}
              onChange={changeSettings}
              configs={configs}
              configId={configId}
              onConfigChange={setChosenConfig}
              noStorage={noStorage}
              disabled={!canUpload}
            />
          </Card>
          <RecentUploads />
        </div>
      </div>
    </div>
  );
}
