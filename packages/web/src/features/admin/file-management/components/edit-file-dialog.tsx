/**
 * Editing a file share: remark, link suffix, expiry, max views, password (set or remove) and how
 * the file is served (through the server, or by redirect to the storage). Only what changed is
 * sent; saving nothing closes the dialog.
 */
import type { FileItem } from '@cubby/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { SelectField } from '../../../../components/form-field.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useManagementScope, PasteSettingsFields, usePasteForm } from '../../../pastes/index.ts';
import { useUpdateFileShare } from '../api/file-shares.ts';
import { settingsOf, validateFileUpdate } from '../file-form.ts';

/** Mounted only while open (with a `key` per share), so the form starts from the share. */
export function EditFileDialog({ file, onClose }: { file: FileItem; onClose(): void }) {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const { errorScope, ...form } = usePasteForm(settingsOf(file));
  const [useProxy, setUseProxy] = useState(file.use_proxy === 1);
  const update = useUpdateFileShare();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.setFormError(null);
    const result = validateFileUpdate(form.values, useProxy, file);
    if (!result.ok) {
      form.setErrors(result.errors);
      return;
    }
    if (Object.keys(result.input).length === 0) {
      onClose();
      return;
    }
    update.mutate(
      { scope, id: file.id, input: result.input },
      {
        onSuccess: () => {
          showToast(t('admin.files.edit.saved', { name: file.filename }), 'success');
          onClose();
        },
        onError: (error) => form.showServerError(error, t('errors.unexpected')),
      },
    );
  };

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={t('admin.files.edit.title')}
      description={t('admin.files.edit.description', { name: file.filename })}
      testId="edit-file-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        <PasteSettingsFields
          form={form}
          edit={{
            currentExpiry: file.expires_at ? formatDateTime(file.expires_at) : t('admin.files.never'),
            hasPassword: file.has_password,
          }}
          passwordHint={t('admin.files.hints.password')}
        />
        <SelectField
          label={t('admin.files.fields.mode')}
          name="useProxy"
          value={useProxy ? 'proxy' : 'direct'}
          hint={useProxy ? t('admin.files.hints.proxy') : t('admin.files.hints.direct')}
          onChange={(event) => setUseProxy(event.target.value === 'proxy')}
        >
          <option value="proxy">{t('admin.files.mode.proxy')}</option>
          <option value="direct">{t('admin.files.mode.direct')}</option>
        </SelectField>
        {form.formError && (
          <Alert tone="error" testId="file-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions onCancel={onClose} pending={update.isPending} submitTestId="save-file" />
      </form>
    </Dialog>
  );
}
