/**
 * Admin module "upload-requests" (docs/api.md "Upload requests"): links strangers upload files into
 * a folder or a new bundle through. Lists the requests (the admin's all, a member's own) with their
 * target (a folder, or the bundle's link), limits, counts, expiry and state, and the files each
 * received; creates one for a folder picked with the folder browser or for a new bundle, changes it,
 * copies its link, and revokes it (uploads stop at once, files stay).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, type UploadRequestInfo } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Dialog, FormDialogActions } from '../../../components/dialog.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { api, errorMessage } from '../../../lib/api/index.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { BasePathPicker, BrowseButton } from '../key-management/components/base-path-picker.tsx';
import { requestBody, type RequestForm, toForm } from './request-form.ts';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

const LIST_KEY = ['upload-requests'] as const;
/** The dialog's number fields: the expiry in hours, and the limits (empty or 0: none). */
const NUMBER_FIELDS = [
  {
    key: 'expires_in',
    label: 'uploadRequests.admin.fields.expiresIn',
    hint: 'uploadRequests.admin.zeroNever',
  },
  { key: 'max_files', label: 'uploadRequests.admin.fields.maxFiles', hint: 'uploadRequests.admin.zeroNone' },
  {
    key: 'max_file_size_mb',
    label: 'uploadRequests.admin.fields.maxFileSize',
    hint: 'uploadRequests.admin.zeroNone',
  },
  {
    key: 'max_total_size_mb',
    label: 'uploadRequests.admin.fields.maxTotalSize',
    hint: 'uploadRequests.admin.zeroNone',
  },
] as const satisfies readonly { key: keyof RequestForm; label: string; hint: string }[];
const requestPath = (token: string) => `/upload-requests/${encodeURIComponent(token)}`;

export default function UploadRequestsModule() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: ({ signal }) => api.get<{ items: UploadRequestInfo[] }>('/upload-requests', { signal }),
  });
  const [editing, setEditing] = useState<{ request?: UploadRequestInfo } | null>(null);
  const [revoking, setRevoking] = useState<UploadRequestInfo | null>(null);
  const revoke = useMutation({
    mutationFn: (token: string) => api.delete<unknown>(requestPath(token)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: LIST_KEY }),
  });
  return (
    <ManagedListCard
      title={t('admin.modules.uploadRequests')}
      description={t('admin.descriptions.uploadRequests')}
      create={{
        label: t('uploadRequests.admin.create'),
        testId: 'create-upload-request',
        onClick: () => setEditing({}),
      }}
      list={list}
      items={list.data?.items}
      empty={{
        title: t('uploadRequests.admin.emptyTitle'),
        description: t('uploadRequests.admin.emptyDescription'),
        testId: 'upload-requests-empty',
      }}
      rows={(items) => (
        <ul className="space-y-3" data-testid="upload-request-list">
          {items.map((request) => (
            <RequestRow
              key={request.id}
              request={request}
              onEdit={() => setEditing({ request })}
              onRevoke={() => setRevoking(request)}
            />
          ))}
        </ul>
      )}
    >
      {editing && (
        <RequestDialog
          request={editing.request}
          onClose={() => setEditing(null)}
          onSaved={() => void queryClient.invalidateQueries({ queryKey: LIST_KEY })}
        />
      )}
      {revoking && (
        <RevokeConfirm
          id={revoking.token}
          mutation={revoke}
          title={t('uploadRequests.admin.revokeTitle')}
          description={
            revoking.target_path === null
              ? t('uploadRequests.admin.revokeBundleDescription')
              : t('uploadRequests.admin.revokeDescription', { path: revoking.target_path })
          }
          confirmLabel={t('uploadRequests.admin.revoke')}
          doneMessage={t('uploadRequests.admin.revoked')}
          onClose={() => setRevoking(null)}
        />
      )}
    </ManagedListCard>
  );
}

function RequestRow({
  request,
  onEdit,
  onRevoke,
}: {
  request: UploadRequestInfo;
  onEdit(): void;
  onRevoke(): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: [...LIST_KEY, request.token, request.files_count],
    queryFn: ({ signal }) => api.get<UploadRequestInfo>(requestPath(request.token), { signal }),
    enabled: open,
  });
  // Wording and data apart: the allowed types are the owner's own list (marked as such).
  const limits: ReactNode[] = [
    request.max_files > 0 && t('uploadRequests.admin.maxFiles', { max: request.max_files }),
    request.max_file_size > 0 &&
      t('uploadRequests.admin.perFile', { limit: formatBytes(request.max_file_size) }),
    request.max_total_size > 0 &&
      t('uploadRequests.admin.total', { limit: formatBytes(request.max_total_size) }),
    request.allowed_types.length > 0 && <span data-user-content="">{request.allowed_types.join(', ')}</span>,
    request.has_password && t('uploadRequests.admin.protected'),
  ].filter(Boolean);
  const tone = request.state === 'active' ? 'success' : request.state === 'expired' ? 'warning' : 'muted';
  return (
    <li className="rounded-lg border border-border p-3 text-sm" data-testid="upload-request-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          {request.target_path === null ? (
            <p className="font-medium text-fg" data-testid="upload-request-target">
              {t('uploadRequests.admin.intoBundle')}{' '}
              {request.bundle_url ? (
                <a
                  href={request.bundle_url}
                  className="font-mono break-all text-accent-text underline underline-offset-2"
                  data-user-content=""
                  data-testid="upload-request-bundle"
                >
                  {request.bundle_url}
                </a>
              ) : (
                <span className="text-fg-muted">{t('uploadRequests.admin.bundleGone')}</span>
              )}
            </p>
          ) : (
            <p
              className="font-mono font-medium break-all text-fg"
              data-user-content=""
              data-testid="upload-request-target"
            >
              {request.target_path}
            </p>
          )}
          <p className="text-fg-muted" data-testid="upload-request-counts">
            {t('uploadRequests.admin.received', {
              count: request.files_count,
              size: formatBytes(request.bytes_total),
            })}
          </p>
        </div>
        <Badge tone={tone} testId="upload-request-state">
          {t(`uploadRequests.admin.states.${request.state}`)}
        </Badge>
      </div>
      {limits.length > 0 && (
        <p className="mt-1 text-fg-muted">
          {limits.map((fact, index) => (
            <Fragment key={index}>
              {index > 0 && ' · '}
              {fact}
            </Fragment>
          ))}
        </p>
      )}
      <p className="mt-1 text-fg-muted">
        {request.expires_at
          ? t('uploadRequests.admin.expires', { date: formatDateTime(request.expires_at) })
          : t('uploadRequests.admin.noExpiry')}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton text={request.url} testId="upload-request-copy">
          {t('uploadRequests.admin.copyLink')}
        </CopyButton>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="upload-request-show-files"
        >
          {open ? t('uploadRequests.admin.hideFiles') : t('uploadRequests.admin.showFiles')}
        </Button>
        <Button variant="secondary" size="sm" onClick={onEdit} data-testid="upload-request-edit">
          {t('uploadRequests.admin.edit')}
        </Button>
        {request.state !== 'revoked' && (
          <Button variant="danger" size="sm" onClick={onRevoke} data-testid="upload-request-revoke">
            {t('uploadRequests.admin.revoke')}
          </Button>
        )}
      </div>
      {open && (
        <div className="mt-3" data-testid="upload-request-files">
          {detail.isPending ? (
            <PageLoading />
          ) : detail.isError ? (
            <LoadError error={detail.error} onRetry={() => void detail.refetch()} />
          ) : (detail.data.uploads ?? []).length === 0 ? (
            <p className="text-fg-muted">{t('uploadRequests.admin.noFiles')}</p>
          ) : (
            <ul className="divide-y divide-border rounded-lg border border-border">
              {detail.data.uploads!.map((file) => (
                <li key={file.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
                  <span
                    className="min-w-0 font-mono break-all"
                    data-user-content=""
                    data-testid="upload-request-file"
                  >
                    {file.path ?? file.name}
                  </span>
                  <span className="shrink-0 text-fg-muted">
                    <span data-user-content="">{formatBytes(file.size)}</span> ·{' '}
                    <time dateTime={file.created_at}>{formatDateTime(file.created_at)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}

function RequestDialog({
  request,
  onClose,
  onSaved,
}: {
  request: UploadRequestInfo | undefined;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<RequestForm>(() => toForm(request));
  const [picking, setPicking] = useState(false);
  const set = <K extends keyof RequestForm>(key: K, value: RequestForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      request
        ? api.put<UploadRequestInfo>(requestPath(request.token), body)
        : api.post<UploadRequestInfo>('/upload-requests', body),
    onSuccess: () => {
      showToast(t(request ? 'uploadRequests.admin.saved' : 'uploadRequests.admin.created'), 'success');
      onSaved();
      onClose();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(requestBody(form, request !== undefined));
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(request ? 'uploadRequests.admin.editTitle' : 'uploadRequests.admin.createTitle')}
      description={t('uploadRequests.admin.dialogDescription')}
      testId="upload-request-dialog"
      wide
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {save.isError && <Alert tone="error">{errorMessage(save.error)}</Alert>}
        {!request && (
          <SelectField
            label={t('uploadRequests.admin.fields.into')}
            value={form.into}
            hint={form.into === 'bundle' ? t('uploadRequests.admin.bundleHint') : undefined}
            onChange={(event) => set('into', event.target.value as RequestForm['into'])}
            data-testid="upload-request-into"
          >
            <option value="folder">{t('uploadRequests.admin.intoFolderOption')}</option>
            <option value="bundle">{t('uploadRequests.admin.intoBundleOption')}</option>
          </SelectField>
        )}
        {form.into === 'folder' && (
          <TextField
            label={t('uploadRequests.admin.fields.target')}
            required
            value={form.target_path}
            onChange={(event) => set('target_path', event.target.value)}
            data-testid="upload-request-target-input"
            addon={
              <BrowseButton
                label={t('uploadRequests.admin.browse')}
                onClick={() => setPicking(true)}
                testId="upload-request-browse"
              />
            }
          />
        )}
        <TextField
          label={t('uploadRequests.admin.fields.message')}
          value={form.message}
          onChange={(event) => set('message', event.target.value)}
          data-testid="upload-request-message-input"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('uploadRequests.admin.fields.password')}
            type="password"
            autoComplete="new-password"
            value={form.password}
            hint={request?.has_password ? t('uploadRequests.admin.passwordKept') : undefined}
            onChange={(event) => set('password', event.target.value)}
          />
          {NUMBER_FIELDS.map(({ key, label, hint }) => (
            <TextField
              key={key}
              label={t(label)}
              type="number"
              min={0}
              inputMode="decimal"
              value={form[key]}
              hint={t(hint)}
              onChange={(event) => set(key, event.target.value)}
            />
          ))}
          <TextField
            label={t('uploadRequests.admin.fields.allowedTypes')}
            value={form.allowed_types}
            placeholder=".pdf, image/*"
            // An example list (extensions and types), not wording.
            data-user-content=""
            hint={t('uploadRequests.admin.typesHint')}
            onChange={(event) => set('allowed_types', event.target.value)}
          />
        </div>
        <Checkbox
          label={t('uploadRequests.admin.fields.showUploads')}
          checked={form.show_uploads}
          onChange={(event) => set('show_uploads', event.target.checked)}
        />
        {form.into === 'folder' && (
          <Checkbox
            label={t('uploadRequests.admin.fields.subfolder')}
            checked={form.subfolder_per_upload}
            onChange={(event) => set('subfolder_per_upload', event.target.checked)}
          />
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={save.isPending}
          submitLabel={request ? undefined : t('uploadRequests.admin.create')}
          submitTestId="upload-request-save"
        />
      </form>
      {picking && (
        <BasePathPicker
          value={form.target_path || '/'}
          title={t('uploadRequests.admin.pickerTitle')}
          description={t('uploadRequests.admin.pickerDescription')}
          onChoose={(path) => set('target_path', path)}
          onClose={() => setPicking(false)}
        />
      )}
    </Dialog>
  );
}
