/**
 * Admin module "notifications" (docs/api.md "Notifications"): outgoing webhooks — listed with their
 * events, created and edited in a dialog (the secret masked: left as is, it is kept), tested, their
 * delivery log shown, deleted after a confirmation — and the SMTP settings with a test email.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  NOTIFY_EVENTS,
  type NotifyEvent,
  SMTP_SECURITY,
  type SmtpSettings,
  type Webhook,
  type WebhookDelivery,
} from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { Dialog, FormDialogActions } from '../../../components/dialog.tsx';
import { Fact } from '../../../components/fact.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import { ListViewIcon, PencilIcon, RefreshIcon, TrashIcon } from '../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { submitForm } from '../../../lib/forms/submit-form.ts';
import { useFormState } from '../../../lib/forms/use-form-state.ts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useSaveSmtpSettings,
  useSmtpSettings,
  useTestSmtp,
  useTestWebhook,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from './api/notifications.ts';
import {
  randomSecret,
  SMTP_SERVER_FIELD,
  type SmtpFormErrorKey,
  type SmtpFormField,
  type SmtpFormValues,
  smtpValuesOf,
  validateSmtpForm,
  validateWebhookForm,
  WEBHOOK_SERVER_FIELD,
  type WebhookFormErrorKey,
  type WebhookFormField,
  type WebhookFormValues,
  webhookValuesOf,
} from './notifications-form.ts';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

/** A field whose placeholder is an example value, not wording (the key-mode walk reads it as data). */
const EXAMPLE_VALUE: Record<string, string> = { 'data-user-content': '' };

type Editing = { kind: 'create' } | { kind: 'edit'; hook: Webhook };

export default function NotificationsModule() {
  return (
    <div className="space-y-6">
      <Webhooks />
      <SmtpSection />
    </div>
  );
}

const STATUS_TONE: Record<WebhookDelivery['status'], BadgeTone> = {
  delivered: 'success',
  pending: 'warning',
  failed: 'danger',
};

function Webhooks() {
  const { t } = useTranslation();
  const hooks = useWebhooks();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const label = (hook: Webhook) => hook.name || hook.url;

  const runTest = (hook: Webhook) =>
    test.mutate(hook.id, {
      onSuccess: (delivery) =>
        showToast(
          t(`admin.notifications.test.${delivery.status}`, { name: label(hook) }),
          delivery.status === 'delivered' ? 'success' : 'error',
        ),
      onError: () => showToast(t('errors.unexpected'), 'error'),
    });

  return (
    <ManagedListCard
      title={t('admin.modules.notifications')}
      description={t('admin.descriptions.notifications')}
      create={{
        label: t('admin.notifications.create.open'),
        testId: 'create-webhook',
        onClick: () => setEditing({ kind: 'create' }),
      }}
      list={hooks}
      items={hooks.data}
      empty={{
        title: t('admin.notifications.empty.title'),
        description: t('admin.notifications.empty.description'),
        testId: 'webhooks-empty',
      }}
      rows={(items) => (
        <ul className="space-y-3">
          {items.map((hook) => (
            <li key={hook.id} className="rounded-lg border border-border p-4" data-testid="webhook">
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <h2 className="flex min-w-0 flex-wrap items-center gap-2 font-semibold text-fg">
                  <span className="break-all" data-user-content="">
                    {label(hook)}
                  </span>
                  <Badge tone={hook.enabled ? 'success' : 'muted'}>
                    {hook.enabled
                      ? t('admin.notifications.status.enabled')
                      : t('admin.notifications.status.disabled')}
                  </Badge>
                </h2>
                <RowActions
                  actions={[
                    {
                      testId: 'test-webhook',
                      icon: <RefreshIcon className="size-4" />,
                      text: t('admin.notifications.test.run'),
                      name: t('admin.notifications.test.name', { name: label(hook) }),
                      onClick: () => runTest(hook),
                    },
                    {
                      testId: 'webhook-deliveries',
                      icon: <ListViewIcon className="size-4" />,
                      text: t('admin.notifications.deliveries.open'),
                      name: t('admin.notifications.deliveries.name', { name: label(hook) }),
                      onClick: () => setLogOf(hook),
                    },
                    {
                      testId: 'edit-webhook',
                      icon: <PencilIcon className="size-4" />,
                      text: t('common.edit'),
                      name: t('admin.notifications.edit.name', { name: label(hook) }),
                      onClick: () => setEditing({ kind: 'edit', hook }),
                    },
                    {
                      testId: 'delete-webhook',
                      icon: <TrashIcon className="size-4" />,
                      text: t('common.delete'),
                      name: t('admin.notifications.delete.name', { name: label(hook) }),
                      onClick: () => setDeleting(hook),
                    },
                  ]}
                />
              </div>
              <dl className="grid gap-3 sm:grid-cols-2">
                <Fact label={t('admin.notifications.fields.url')}>
                  <span className="font-mono break-all" data-user-content="">
                    {hook.url}
                  </span>
                </Fact>
                <Fact label={t('admin.notifications.fields.events')}>
                  <span className="flex flex-wrap gap-1.5">
                    {hook.events.map((event) => (
                      <Badge key={event} tone="muted">
                        {t(EVENT_LABEL[event])}
                      </Badge>
                    ))}
                  </span>
                </Fact>
              </dl>
            </li>
          ))}
        </ul>
      )}
    >
      {editing && (
        <WebhookDialog
          key={editing.kind === 'edit' ? editing.hook.id : 'create'}
          hook={editing.kind === 'edit' ? editing.hook : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {logOf && <DeliveriesDialog hook={logOf} name={label(logOf)} onClose={() => setLogOf(null)} />}
      {deleting && (
        <RevokeConfirm
          id={deleting.id}
          mutation={remove}
          title={t('admin.notifications.delete.title')}
          description={t('admin.notifications.delete.description', { name: label(deleting) })}
          confirmLabel={t('admin.notifications.delete.confirm')}
          doneMessage={t('admin.notifications.delete.done', { name: label(deleting) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </ManagedListCard>
  );
}

/** The name of each event, as the screen shows it. */
const EVENT_LABEL = {
  'share.created': 'admin.notifications.events.shareCreated',
  'share.viewed': 'admin.notifications.events.shareViewed',
  'share.expired': 'admin.notifications.events.shareExpired',
  'share.uploaded': 'admin.notifications.events.shareUploaded',
} as const satisfies Record<NotifyEvent, string>;

function WebhookDialog({ hook, onClose }: { hook?: Webhook; onClose(): void }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useFormState<WebhookFormValues, WebhookFormField, WebhookFormErrorKey>(
    webhookValuesOf(hook),
    { serverField: WEBHOOK_SERVER_FIELD },
  );
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const { values, change } = form;
  const error = (field: WebhookFormField) => form.fieldError(field, (key) => t(key)) ?? undefined;

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateWebhookForm,
      save: (input, done) =>
        hook ? update.mutate({ id: hook.id, input }, done) : create.mutate(input, done),
      savedMessage: (input) =>
        t(hook ? 'admin.notifications.edit.saved' : 'admin.notifications.create.done', {
          name: input.name || input.url,
        }),
      fallback: t('errors.unexpected'),
      onClose,
    });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={hook ? t('admin.notifications.edit.title') : t('admin.notifications.create.title')}
      description={t('admin.notifications.create.description')}
      testId="webhook-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label={t('admin.notifications.fields.name')}
          name="name"
          value={values.name}
          onChange={(event) => change({ name: event.target.value })}
          error={error('name')}
        />
        <TextField
          label={t('admin.notifications.fields.url')}
          name="url"
          type="url"
          placeholder="https://hooks.example.com/cubby"
          value={values.url}
          onChange={(event) => change({ url: event.target.value })}
          error={error('url')}
          hint={t('admin.notifications.hints.url')}
          required
        />
        <div className="flex flex-wrap items-start gap-3">
          <TextField
            className="min-w-0 flex-1"
            label={t('admin.notifications.fields.secret')}
            name="secret"
            autoComplete="off"
            value={values.secret}
            onChange={(event) => change({ secret: event.target.value })}
            error={error('secret')}
            hint={hook ? t('admin.notifications.hints.secretKept') : t('admin.notifications.hints.secret')}
            required
          />
          <Button
            type="button"
            variant="secondary"
            className="mt-7"
            onClick={() => change({ secret: randomSecret() })}
            data-testid="generate-secret"
          >
            {t('admin.notifications.generateSecret')}
          </Button>
        </div>
        <fieldset
          className="space-y-2"
          aria-describedby={error('events') ? 'webhook-events-error' : undefined}
        >
          <legend className="text-sm font-medium text-fg">{t('admin.notifications.fields.events')}</legend>
          {NOTIFY_EVENTS.map((event) => (
            <Checkbox
              key={event}
              label={t(EVENT_LABEL[event])}
              checked={values.events.includes(event)}
              onChange={(e) =>
                change({
                  events: e.target.checked
                    ? [...values.events, event]
                    : values.events.filter((other) => other !== event),
                })
              }
            />
          ))}
          {error('events') && (
            <p id="webhook-events-error" className="text-sm text-danger-text">
              {error('events')}
            </p>
          )}
        </fieldset>
        <Checkbox
          label={t('admin.notifications.fields.enabled')}
          checked={values.enabled}
          onChange={(event) => change({ enabled: event.target.checked })}
        />
        {form.formError && (
          <Alert tone="error" testId="webhook-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending || update.isPending}
          submitTestId="save-webhook"
        />
      </form>
    </Dialog>
  );
}

function DeliveriesDialog({ hook, name, onClose }: { hook: Webhook; name: string; onClose(): void }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(hook.id);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.notifications.deliveries.title', { name })}
      description={t('admin.notifications.deliveries.description')}
      testId="deliveries-dialog"
      wide
    >
      <div className="mb-3 flex justify-end">
        <Button
          variant="secondary"
          onClick={() => void deliveries.refetch()}
          data-testid="refresh-deliveries"
        >
          <RefreshIcon className="size-4" />
          {t('admin.notifications.deliveries.refresh')}
        </Button>
      </div>
      {deliveries.isPending ? (
        <PageLoading />
      ) : deliveries.isError ? (
        <LoadError error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : deliveries.data.length === 0 ? (
        <EmptyState
          title={t('admin.notifications.deliveries.empty')}
          description={t('admin.notifications.deliveries.emptyDescription')}
          testId="deliveries-empty"
        />
      ) : (
        <ul className="space-y-2">
          {deliveries.data.map((delivery) => (
            <li
              key={delivery.id}
              className="rounded-md border border-border p-3 text-sm"
              data-testid="delivery"
              data-status={delivery.status}
            >
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={STATUS_TONE[delivery.status]}>
                  {t(`admin.notifications.deliveries.status.${delivery.status}`)}
                </Badge>
                <span className="font-mono text-fg">{delivery.event}</span>
                <span className="text-fg-muted">{formatDateTime(delivery.created_at)}</span>
              </div>
              <p className="mt-1 text-fg-muted">
                {t('admin.notifications.deliveries.attempts', { count: delivery.attempts })}
                {delivery.last_status !== null && ` · HTTP ${delivery.last_status}`}
                {delivery.status === 'pending' &&
                  delivery.next_attempt_at &&
                  ` · ${t('admin.notifications.deliveries.next', { at: formatDateTime(delivery.next_attempt_at) })}`}
              </p>
              {delivery.last_error && (
                <p className="mt-1 font-mono text-xs break-all text-danger-text" data-user-content="">
                  {delivery.last_error}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

function SmtpSection() {
  const { t } = useTranslation();
  const settings = useSmtpSettings();
  return (
    <Card title={t('admin.notifications.smtp.title')} description={t('admin.notifications.smtp.description')}>
      {settings.isPending ? (
        <PageLoading />
      ) : settings.isError ? (
        <LoadError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <SmtpForm key={JSON.stringify(settings.data)} settings={settings.data} />
      )}
    </Card>
  );
}

function SmtpForm({ settings }: { settings: SmtpSettings }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useFormState<SmtpFormValues, SmtpFormField, SmtpFormErrorKey>(
    smtpValuesOf(settings),
    { serverField: SMTP_SERVER_FIELD },
  );
  const save = useSaveSmtpSettings();
  const test = useTestSmtp();
  const [to, setTo] = useState('');
  const { values, change } = form;
  const error = (field: SmtpFormField) => form.fieldError(field, (key) => t(key)) ?? undefined;

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateSmtpForm,
      save: (input, done) => save.mutate(input, done),
      savedMessage: () => t('admin.notifications.smtp.saved'),
      fallback: t('errors.unexpected'),
      onClose: () => test.reset(),
    });
  const runTest = () => {
    form.setFormError(null);
    test.mutate(to.trim(), {
      onSuccess: (result) =>
        showToast(t('admin.notifications.smtp.testSent', { to: result.to.join(', ') }), 'success'),
      onError: (failure) => form.showServerError(failure, t('errors.unexpected')),
    });
  };
  const text = (
    field: SmtpFormField,
    extra: Parameters<typeof TextField>[0] extends infer P ? Partial<P> : never = {},
  ) => (
    <TextField
      label={t(`admin.notifications.smtp.fields.${field}`)}
      name={`smtp_${field}`}
      autoComplete="off"
      value={values[field]}
      onChange={(event) => change({ [field]: event.target.value })}
      error={error(field)}
      {...extra}
    />
  );

  return (
    <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4" data-testid="smtp-form">
      {!settings.enabled && <Alert tone="info">{t('admin.notifications.smtp.off')}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        {text('host', {
          placeholder: 'smtp.example.com',
          hint: t('admin.notifications.smtp.hints.host'),
          ...EXAMPLE_VALUE,
        })}
        {text('port', { type: 'number', inputMode: 'numeric', min: 1, max: 65535 })}
        <SelectField
          label={t('admin.notifications.smtp.fields.security')}
          name="smtp_security"
          value={values.security}
          onChange={(event) => change({ security: event.target.value as SmtpFormValues['security'] })}
          hint={t('admin.notifications.smtp.hints.security')}
        >
          {SMTP_SECURITY.map((mode) => (
            <option key={mode} value={mode}>
              {t(`admin.notifications.smtp.security.${mode}`)}
            </option>
          ))}
        </SelectField>
        {text('from', { placeholder: 'Cubby <cubby@example.com>', ...EXAMPLE_VALUE })}
        {text('username')}
        {text('password', {
          type: 'password',
          autoComplete: 'new-password',
          hint: settings.password ? t('admin.notifications.hints.secretKept') : undefined,
        })}
      </div>
      <fieldset className="space-y-3 rounded-lg border border-border p-4">
        <legend className="px-1 text-sm font-semibold text-fg">
          {t('admin.notifications.smtp.test.title')}
        </legend>
        <div className="flex flex-wrap items-end gap-3">
          <TextField
            className="min-w-0 flex-1"
            label={t('admin.notifications.smtp.test.to')}
            hint={t('admin.notifications.smtp.test.toHint')}
            name="smtp_test_to"
            type="email"
            autoComplete="off"
            value={to}
            onChange={(event) => setTo(event.target.value)}
          />
          <Button
            type="button"
            variant="secondary"
            onClick={runTest}
            disabled={test.isPending}
            data-testid="test-smtp"
          >
            {t('admin.notifications.smtp.test.run')}
          </Button>
        </div>
        <p className="text-sm text-fg-muted">{t('admin.notifications.smtp.test.saveFirst')}</p>
      </fieldset>
      {form.formError && (
        <Alert tone="error" testId="smtp-form-error">
          {form.formError}
        </Alert>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending} data-testid="save-smtp">
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
