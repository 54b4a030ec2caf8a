/**
 * "Share as one link": makes a bundle (docs/api.md "Bundles") of items the user just uploaded or
 * selected, with an optional title, password, expiry (hours) and view limit, then shows its link.
 * Used by the upload page and the explorer's selection.
 */
import { BUNDLE_TITLE_MAX, type BundleItemInput, MAX_VIEWS } from '@cubby/shared';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { TextField } from '../../components/form-field.tsx';
import { api, errorMessage } from '../../lib/api/index.ts';

interface Created {
  id: string;
  slug: string;
  url: string;
}

/** A whole number from the field, 0 when empty, or null when it is not one within [0, max]. */
function wholeNumber(text: string, max: number): number | null {
  if (text.trim() === '') return 0;
  const value = Number(text);
  return Number.isInteger(value) && value >= 0 && value <= max ? value : null;
}

export function ShareAsBundle({
  items,
  description,
  testId = 'share-as-bundle',
}: {
  items: BundleItemInput[];
  /** What is being bundled, shown above the fields. */
  description: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [password, setPassword] = useState('');
  const [hours, setHours] = useState('');
  const [views, setViews] = useState('');
  const [invalid, setInvalid] = useState<{ hours?: boolean; views?: boolean }>({});
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api.post<Created>('/bundles', body),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresIn = wholeNumber(hours, 876_000);
    const maxViews = wholeNumber(views, MAX_VIEWS);
    setInvalid({ hours: expiresIn === null, views: maxViews === null });
    if (expiresIn === null || maxViews === null) return;
    create.mutate({
      items,
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(password ? { password } : {}),
      expires_in: expiresIn,
      max_views: maxViews,
    });
  };

  if (create.data) {
    return (
      <div className="space-y-3" data-testid={`${testId}-done`}>
        <p className="text-sm text-fg">{t('upload.bundle.created', { count: items.length })}</p>
        <p
          className="break-all rounded-md bg-surface-sunken px-3 py-2 font-mono text-sm text-fg"
          data-testid={`${testId}-url`}
        >
          {create.data.url}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <CopyButton text={create.data.url}>{t('upload.bundle.copy')}</CopyButton>
          <a
            href={create.data.url}
            target="_blank"
            rel="noreferrer"
            className="text-sm font-medium text-accent-text underline"
          >
            {t('upload.bundle.open')}
          </a>
        </div>
      </div>
    );
  }

  const numberFields = [
    {
      name: 'bundle-hours',
      label: t('upload.bundle.hours'),
      hint: t('upload.bundle.zeroForNever'),
      invalid: invalid.hours,
      value: hours,
      set: setHours,
    },
    {
      name: 'bundle-views',
      label: t('upload.bundle.views'),
      hint: t('upload.bundle.zeroForUnlimited'),
      invalid: invalid.views,
      value: views,
      set: setViews,
    },
  ];
  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid={testId}>
      <p className="text-sm text-fg-muted">{description}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t('upload.bundle.title')}
          name="bundle-title"
          maxLength={BUNDLE_TITLE_MAX}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
        <TextField
          label={t('upload.bundle.password')}
          type="password"
          name="bundle-password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {numberFields.map((field) => (
          <TextField
            key={field.name}
            label={field.label}
            name={field.name}
            inputMode="numeric"
            placeholder="0"
            hint={field.hint}
            error={field.invalid ? t('upload.bundle.wholeNumber') : null}
            value={field.value}
            onChange={(e) => field.set(e.target.value)}
          />
        ))}
      </div>
      {create.isError && (
        <Alert tone="error" testId={`${testId}-error`}>
          {errorMessage(create.error)}
        </Alert>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={create.isPending} data-testid={`${testId}-submit`}>
          {t('upload.bundle.submit')}
        </Button>
      </div>
    </form>
  );
}
