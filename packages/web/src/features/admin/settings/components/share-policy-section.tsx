/**
 * The "Share policy" settings (docs/api.md, "Share policy"): default and longest expiry, default and
 * most views, the largest share, the file types allowed, and whether API keys may make permanent or
 * unprotected shares. An empty field is no limit. Every door of the server enforces them.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { type SharePolicy, sharePolicyUpdateFields } from '@cubby/shared';
import { z } from 'zod';
import { Card } from '../../../../components/card.tsx';
import { Checkbox, TextField } from '../../../../components/form-field.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useErrorFocus } from '../../../../lib/forms/use-error-focus.ts';
import { useSharePolicy } from '../../../upload/index.ts';
import { useUpdateSystemSettings } from '../api/system-settings.ts';
import { SettingsFormEnd } from './form-end.tsx';
import { announceSectionSaved, useSectionErrors } from '../section-errors.ts';

const MB = 1024 ** 2;
const NUMBER_FIELDS = [
  'share_default_expiry_hours',
  'share_max_expiry_hours',
  'share_default_max_views',
  'share_max_views',
  'share_max_mb',
] as const;
type NumberField = (typeof NUMBER_FIELDS)[number];

function initialNumbers(policy: SharePolicy): Record<NumberField, string> {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    share_default_expiry_hours: text(policy.default_expiry_hours),
    share_max_expiry_hours: text(policy.max_expiry_hours),
    share_default_max_views: text(policy.default_max_views),
    share_max_views: text(policy.max_views),
    share_max_mb: policy.max_bytes === null ? '' : String(Math.round((policy.max_bytes / MB) * 1000) / 1000),
  };
}

export function SharePolicySection() {
  const { t } = useTranslation();
  const policy = useSharePolicy();
  return (
    <Card
      title={t('admin.settings.sharePolicy.title')}
      description={t('admin.settings.sharePolicy.description')}
    >
      {policy ? <SharePolicyForm policy={policy} /> : <PageLoading />}
    </Card>
  );
}

function SharePolicyForm({ policy }: { policy: SharePolicy }) {
  const { t } = useTranslation();
  const [numbers, setNumbers] = useState(() => initialNumbers(policy));
  const [types, setTypes] = useState(policy.allowed_types.join(', '));
  const [permanent, setPermanent] = useState(policy.keys_may_make_permanent);
  const [unprotected, setUnprotected] = useState(policy.keys_may_make_unprotected);
  const [invalid, setInvalid] = useSectionErrors<Partial<Record<NumberField | 'types', true>>>({});
  const [serverError, setServerError] = useSectionErrors<string | null>(null);
  const update = useUpdateSystemSettings();
  const { errorScope, focusFirstError } = useErrorFocus();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const value = (field: NumberField) => (numbers[field].trim() === '' ? null : Number(numbers[field]));
    const mb = value('share_max_mb');
    const input = {
      share_default_expiry_hours: value('share_default_expiry_hours'),
      share_max_expiry_hours: value('share_max_expiry_hours'),
      share_default_max_views: value('share_default_max_views'),
      share_max_views: value('share_max_views'),
      share_max_bytes: mb === null ? null : Math.round(mb * MB),
      share_allowed_types: types,
      keys_may_make_permanent: permanent,
      keys_may_make_unprotected: unprotected,
    };
    // The server's own rules (packages/shared), field by field.
    const checked = z.object(sharePolicyUpdateFields).safeParse(input);
    if (!checked.success) {
      const bad: Partial<Record<NumberField | 'types', true>> = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0]);
        bad[
          field === 'share_allowed_types'
            ? 'types'
            : field === 'share_max_bytes'
              ? 'share_max_mb'
              : (field as NumberField)
        ] = true;
      }
      setInvalid(bad);
      focusFirstError();
      return;
    }
    update.mutate(input, {
      onSuccess: () => {
        announceSectionSaved();
        showToast(t('admin.settings.sharePolicy.saved'), 'success');
      },
      onError: (error) => setServerError(errorMessage(error)),
    });
  };

  const numberField = (field: NumberField) => (
    <TextField
      key={field}
      label={t(`admin.settings.sharePolicy.fields.${field}`)}
      name={field}
      type="number"
      inputMode="numeric"
      min={0}
      value={numbers[field]}
      placeholder={t('admin.settings.sharePolicy.noLimit')}
      error={invalid[field] ? t('admin.settings.sharePolicy.numberInvalid') : null}
      data-testid={`policy-${field}`}
      onChange={(event) => {
        setNumbers((current) => ({ ...current, [field]: event.target.value }));
        setInvalid((current) => ({ ...current, [field]: undefined }));
      }}
    />
  );

  return (
    <form
      ref={errorScope}
      onSubmit={onSubmit}
      noValidate
      className="max-w-xl space-y-5"
      data-testid="share-policy-settings"
    >
      <div className="grid gap-4 sm:grid-cols-2">{NUMBER_FIELDS.map(numberField)}</div>
      <TextField
        label={t('admin.settings.sharePolicy.fields.types')}
        hint={t('admin.settings.sharePolicy.typesHint')}
        name="share_allowed_types"
        value={types}
        placeholder=".pdf, .jpg, image/*"
        // An example list, not wording.
        data-user-content=""
        error={invalid.types ? t('admin.settings.sharePolicy.typesInvalid') : null}
        data-testid="policy-types"
        onChange={(event) => {
          setTypes(event.target.value);
          setInvalid((current) => ({ ...current, types: undefined }));
        }}
      />
      <Checkbox
        label={t('admin.settings.sharePolicy.fields.keysPermanent')}
        name="keysMayMakePermanent"
        checked={permanent}
        onChange={(event) => setPermanent(event.target.checked)}
      />
      <Checkbox
        label={t('admin.settings.sharePolicy.fields.keysUnprotected')}
        description={t('admin.settings.sharePolicy.keysHint')}
        name="keysMayMakeUnprotected"
        checked={unprotected}
        onChange={(event) => setUnprotected(event.target.checked)}
      />
      <SettingsFormEnd
        error={serverError}
        errorTestId="share-policy-error"
        pending={update.isPending}
        label={t('admin.settings.sharePolicy.save')}
        testId="save-share-policy"
      />
    </form>
  );
}
