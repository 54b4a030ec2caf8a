/**
 * Creating or editing a folder rule: the folder (typed or picked), README header and footer
 * (Markdown), hide patterns one per line, a password, and for each whether folders below inherit it.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FsMetaRule } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { Checkbox, TextAreaField, TextField } from '../../../../components/form-field.tsx';
import { submitForm } from '../../../../lib/forms/submit-form.ts';
import { useFormState } from '../../../../lib/forms/use-form-state.ts';
import { BasePathPicker, BrowseButton } from '../../key-management/components/base-path-picker.tsx';
import { useCreateFolderRule, useUpdateFolderRule } from '../api/folder-rules-api.ts';
import {
  EMPTY_FOLDER_RULE,
  SERVER_FIELD,
  validateFolderRule,
  valuesOf,
  type FolderRuleErrorKey,
  type FolderRuleField,
  type FolderRuleValues,
} from '../folder-rule-form.ts';

export function FolderRuleDialog({ rule, onClose }: { rule?: FsMetaRule; onClose(): void }) {
  const { t } = useTranslation();
  const { errorScope, ...form } = useFormState<FolderRuleValues, FolderRuleField, FolderRuleErrorKey>(
    rule ? valuesOf(rule) : EMPTY_FOLDER_RULE,
    { serverField: SERVER_FIELD, conflictField: 'path' },
  );
  const [browsing, setBrowsing] = useState(false);
  const create = useCreateFolderRule();
  const update = useUpdateFolderRule();
  const { values, change } = form;
  const error = (field: FolderRuleField) => form.fieldError(field, (key) => t(key));

  const onSubmit = (event: FormEvent) =>
    submitForm(event, form, {
      validate: validateFolderRule,
      save: (input, done) =>
        rule ? update.mutate({ id: rule.id, input }, done) : create.mutate(input, done),
      savedMessage: (input) => t('admin.folderRules.saved', { path: input.path }),
      fallback: t('errors.unexpected'),
      onClose,
    });

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={rule ? t('admin.folderRules.edit.title') : t('admin.folderRules.create.title')}
      description={t('admin.folderRules.dialogDescription')}
      testId="folder-rule-dialog"
    >
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label={t('admin.folderRules.fields.path')}
          name="path"
          required
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          value={values.path}
          error={error('path')}
          onChange={(event) => change({ path: event.target.value })}
          addon={
            <BrowseButton
              label={t('admin.folderRules.browse')}
              onClick={() => setBrowsing(true)}
              testId="browse-folder-rule-path"
            />
          }
        />
        <TextAreaField
          label={t('admin.folderRules.fields.header')}
          name="header"
          value={values.header}
          error={error('header')}
          rows={4}
          onChange={(event) => change({ header: event.target.value })}
        />
        <Checkbox
          label={t('admin.folderRules.fields.inherit')}
          name="headerInherit"
          checked={values.headerInherit}
          onChange={(event) => change({ headerInherit: event.target.checked })}
        />
        <TextAreaField
          label={t('admin.folderRules.fields.footer')}
          name="footer"
          value={values.footer}
          error={error('footer')}
          rows={4}
          onChange={(event) => change({ footer: event.target.value })}
        />
        <Checkbox
          label={t('admin.folderRules.fields.inherit')}
          name="footerInherit"
          checked={values.footerInherit}
          onChange={(event) => change({ footerInherit: event.target.checked })}
        />
        <TextAreaField
          label={t('admin.folderRules.fields.patterns')}
          hint={t('admin.folderRules.hints.patterns')}
          name="patterns"
          rows={3}
          value={values.patterns}
          error={error('patterns')}
          onChange={(event) => change({ patterns: event.target.value })}
        />
        <Checkbox
          label={t('admin.folderRules.fields.inherit')}
          name="hideInherit"
          checked={values.hideInherit}
          onChange={(event) => change({ hideInherit: event.target.checked })}
        />
        <TextField
          label={t('admin.folderRules.fields.password')}
          hint={t('admin.folderRules.hints.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          error={error('password')}
          onChange={(event) => change({ password: event.target.value })}
        />
        <Checkbox
          label={t('admin.folderRules.fields.inherit')}
          name="passwordInherit"
          checked={values.passwordInherit}
          onChange={(event) => change({ passwordInherit: event.target.checked })}
        />
        {form.formError && (
          <Alert tone="error" testId="folder-rule-form-error">
            {form.formError}
          </Alert>
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending || update.isPending}
          submitTestId="save-folder-rule"
        />
      </form>
      {browsing && (
        <BasePathPicker
          value={values.path}
          title={t('admin.folderRules.pickerTitle')}
          description={t('admin.folderRules.pickerDescription')}
          onChoose={(path) => change({ path })}
          onClose={() => setBrowsing(false)}
        />
      )}
    </Dialog>
  );
}
