/**
 * Editing a text share (its creator: the admin, or the key that made it): content, format,
 * title, whether it is listed publicly, remark, link suffix, expiry, max views and password (set or
 * remove); the files of a multi-file paste (docs/api.md "Multi-file pastes") — added, renamed, given
 * another language, edited or removed (at least one stays) with the tabs of the Home editor, and
 * "Add file" turns a one-text paste into one of several files. The files are sent whole, checked as
 * on create. The dialog reads the paste
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
import { AddFileButton, type DraftFile, FileTabs, fileName, useDraftFiles } from './file-tabs.tsx';
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
  /** Empty for a paste of one text; else every file, each with its own text. */
  const { files, setFiles, active, setActive, add, change } = useDraftFiles(detail.files);
  const current = files[active];
  const update = useUpdatePaste();

  const changeText = (text: string) => {
    if (current) changeFile(active, { content: text });
    else setContent(text);
    form.clearErrors(['content']);
  };
  const addFile = () => add({ language: format === 'markdown' ? 'markdown' : 'text', content });
  const changeFile = (index: number, patch: Partial<DraftFile>) => {
    change(index, patch);
    form.clearErrors(['content']);
  };
  const removeFile = (index: number) => {
    setFiles((list) => list.filter((_, i) => i !== index));
    setActive(0);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const named = files.map((file, index) => ({
      name: fileName(file, index),
      language: file.language,
      content: file.content,
    }));
    const result = validateUpdate({
      content,
      // A multi-file paste's format follows its first file, as on create.
      format: named[0] ? (named[0].language === 'markdown' ? 'markdown' : 'text') : format,
      values: form.values,
      original: { slug: detail.slug, hasPassword: detail.has_password },
      ...(named.length > 0 ? { files: named } : {}),
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
      {files.length === 0 && (
        <SelectField
          label={t('pastes.fields.format')}
          name="format"
          value={format}
          onChange={(event) => setFormat(event.target.value as PasteFormat)}
        >
          <option value="markdown">{t('pastes.format.markdown')}</option>
          <option value="text">{t('pastes.format.text')}</option>
        </SelectField>
      )}
      <div className="rounded-md border border-border">
        {current && (
          <FileTabs
            files={files}
            active={active}
            onSelect={setActive}
            onChange={changeFile}
            onRemove={removeFile}
            removable={files.length > 1}
          />
        )}
        <div className="px-3 py-2">
          <AddFileButton files={files.length} onClick={addFile} />
        </div>
      </div>
      <div className="space-y-1.5">
        <label htmlFor="edit-paste-content" className="block text-sm font-medium text-fg">
          {current
            ? t('pastes.files.editorLabel', { name: fileName(current, active) })
            : t('pastes.fields.content')}
        </label>
        <textarea
          id="edit-paste-content"
          name="content"
          value={current ? current.content : content}
          rows={10}
          spellCheck={false}
          data-user-content=""
          aria-invalid={contentError ? true : undefined}
          aria-describedby={contentError ? 'edit-paste-content-error' : undefined}
          onChange={(event) => changeText(event.target.value)}
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
