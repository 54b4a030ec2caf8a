/**
 * Editing a text share (its creator: the admin, or the key that made it): content, format,
 * title, whether it is listed publicly, remark, link suffix, expiry, max views and password (set or
 * remove); for a multi-file paste the content is its first file's (the others keep theirs). The dialog reads the paste
 * through management (no view counted) and hands the saved record to `onSaved`.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PASTE_TITLE_MAX, type PasteDetail, type PasteFormat } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../components/dialog.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { usePasteDetail } from '../api/get-paste-detail.ts';
import { useManagementScope } from '../api/management-scope.ts';
import { useUpdatePaste } from '../api/update-paste.ts';
import { EMPTY_SETTINGS, validateUpdate, type PasteSettingsValues } from '../paste-form.ts';
import { PasteSettingsFields } from './paste-settings-fields.tsx';
import { usePasteForm } from './use-paste-form.ts';

export interface EditPasteDialogProps {
  /** The paste's id or slug. */
  pasteId: string;
  onClose(): void;
  onSaved?(detail: PasteDetail): void;
}

export default function EditPasteDialog({ pasteId, onClose, onSaved }: EditPasteDialogProps) {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const detail = usePasteDetail(scope, pasteId);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('pastes.edit.title')}
      description={detail.data ? t('pastes.edit.description', { slug: detail.data.slug }) : undefined}
      testId="edit-paste-dialog"
      wide
    >
      {detail.isPending ? (
        <PageLoading />
      ) : detail.isError ? (
        <Alert tone="error">{detail.error.message}</Alert>
      ) : (
        <EditPasteForm detail={detail.data} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

function settingsOf(detail: PasteDetail): PasteSettingsValues {
  return {
    ...EMPTY_SETTINGS,
    remark: detail.remark ?? '',
    slug: detail.slug,
    expiry: 'keep',
    maxViews: detail.max_views > 0 ? String(detail.max_views) : '',
  };
}

function EditPasteForm({
  detail,
  onClose,
  onSaved,
}: {
  detail: PasteDetail;
  onClose(): void;
  onSaved?(detail: PasteDetail): void;
}) {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const { errorScope, ...form } = usePasteForm(settingsOf(detail));
  const [content, setContent] = useState(detail.content);
  const [format, setFormat] = useState<PasteFormat>(detail.format);
  const [title, setTitle] = useState(detail.title ?? '');
  const [isPublic, setIsPublic] = useState(detail.is_public);
  const firstFile = detail.files?.[0]?.name;
  const update = useUpdatePaste();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateUpdate({
      content,
      format,
      values: form.values,
      original: { slug: detail.slug, hasPassword: detail.has_password },
    });
    form.setFormError(null);
    if (!result.ok) {
      form.setErrors(result.errors);
      return;
    }
    const input = {
      ...result.input,
      ...(title.trim() !== (detail.title ?? '') ? { title: title.trim() } : {}),
      ...(isPublic !== detail.is_public ? { is_public: isPublic } : {}),
    };
    update.mutate(
      { scope, id: detail.id, input },
      {
        onSuccess: (saved) => {
          showToast(t('pastes.edit.saved'), 'success');
          onSaved?.(saved);
          onClose();
        },
        onError: (error) => form.showServerError(error, t('errors.unexpected')),
      },
    );
  };

  const contentError = form.fieldError('content', (key) => t(key));
  return (
    <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField
        label={t('pastes.fields.title')}
        name="title"
        value={title}
        maxLength={PASTE_TITLE_MAX}
        onChange={(event) => setTitle(event.target.value)}
      />
      <SelectField
        label={t('pastes.fields.format')}
        name="format"
        value={format}
        onChange={(event) => setFormat(event.target.value as PasteFormat)}
      >
        <option value="markdown">{t('pastes.format.markdown')}</option>
        <option value="text">{t('pastes.format.text')}</option>
      </SelectField>
      <div className="space-y-1.5">
        <label htmlFor="edit-paste-content" className="block text-sm font-medium text-fg">
          {firstFile ? t('pastes.edit.firstFile', { name: firstFile }) : t('pastes.fields.content')}
        </label>
        <textarea
          id="edit-paste-content"
          name="content"
          value={content}
          rows={10}
          spellCheck={false}
          data-user-content=""
          aria-invalid={contentError ? true : undefined}
          aria-describedby={contentError ? 'edit-paste-content-error' : undefined}
          onChange={(event) => {
            setContent(event.target.value);
            form.clearErrors(['content']);
          }}
          className={`block min-h-48 w-full resize-y rounded-md border bg-surface px-3 py-2 font-mono text-sm text-fg focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring ${contentError ? 'border-danger' : 'border-border-strong/70'}`}
        />
        {contentError && (
          <p id="edit-paste-content-error" className="text-xs font-medium text-danger-text">
            {contentError}
          </p>
        )}
      </div>
      <PasteSettingsFields
        form={form}
        edit={{
          currentExpiry: detail.expires_at ? formatDateTime(detail.expires_at) : t('pastes.expiry.never'),
          hasPassword: detail.has_password,
        }}
      />
      <Checkbox
        label={t('pastes.fields.public')}
        description={t('pastes.hints.public')}
        checked={isPublic}
        onChange={(event) => setIsPublic(event.target.checked)}
      />
      {form.formError && (
        <Alert tone="error" testId="paste-form-error">
          {form.formError}
        </Alert>
      )}
      <FormDialogActions onCancel={onClose} pending={update.isPending} />
    </form>
  );
}
