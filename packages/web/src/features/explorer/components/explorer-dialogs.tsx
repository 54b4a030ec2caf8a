/**
 * The explorer's small dialogs: a new folder (its name checked before the call: required, no `/`,
 * no `..`, not taken), a direct link to a file (expiry choice, inline or as a download; the
 * link with a copy button and a QR code), and a share of a file (a file share) or of a folder (a
 * folder share: a read-only link to it).
 */
import type { FsFileLinkAnswer, FsListItem } from '@cubby/shared';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Dialog, DialogActions, FormDialogActions } from '../../../components/dialog.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useErrorFocus } from '../../../lib/forms/use-error-focus.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { showToast } from '../../../components/toast/toast-store.ts';
import { filePageUrl } from '../../file-view/index.ts';
import {
  ShareLinkFields,
  EMPTY_UPLOAD_SETTINGS,
  validateUploadSettings,
  type ShareInput,
  type UploadErrors,
  type UploadSettingsValues,
} from '../../upload/index.ts';
import { folderPageUrl } from '../../folder-view/index.ts';
import { fileLink, shareFile, shareFolder, type FsTree } from '../api/fs-api.ts';
import { nameProblem } from '../explorer-model.ts';

export function NewFolderDialog({
  taken,
  onCreate,
  onClose,
}: {
  taken: ReadonlySet<string>;
  onCreate(name: string): Promise<unknown>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({ mutationFn: onCreate, onSuccess: onClose });
  const { errorScope, focusFirstError } = useErrorFocus();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = nameProblem(name.trim(), taken);
    if (found) {
      setProblem(t(`explorer.nameProblems.${found}`));
      focusFirstError();
      return;
    }
    create.mutate(name.trim());
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('explorer.newFolder.title')}
      testId="new-folder-dialog"
    >
      <form ref={errorScope} onSubmit={submit} noValidate>
        <TextField
          label={t('explorer.newFolder.name')}
          value={name}
          autoFocus
          required
          error={problem ?? undefined}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
          }}
          data-testid="new-folder-name"
        />
        {create.error && (
          <Alert tone="error" className="mt-3">
            {create.error.message}
          </Alert>
        )}
        <FormDialogActions
          onCancel={onClose}
          pending={create.isPending}
          submitLabel={t('explorer.newFolder.create')}
          submitTestId="new-folder-submit"
        />
      </form>
    </Dialog>
  );
}

const LINK_EXPIRIES = [
  { seconds: 3600, key: 'hour' },
  { seconds: 86_400, key: 'day' },
  { seconds: 604_800, key: 'week' },
] as const;

export function LinkDialog({ tree, item, onClose }: { tree: FsTree; item: FsListItem; onClose(): void }) {
  const { t } = useTranslation();
  const [expires, setExpires] = useState<number>(86_400);
  const [download, setDownload] = useState(false);
  const link = useMutation<FsFileLinkAnswer>({
    mutationFn: () => fileLink(tree, item.path, expires, download),
  });
  const url = link.data?.presignedUrl ?? null;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('explorer.link.title', { name: item.name })}
      description={t('explorer.link.description')}
      testId="link-dialog"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          link.mutate();
        }}
        className="space-y-4"
      >
        <SelectField
          label={t('explorer.link.expires')}
          value={String(expires)}
          onChange={(event) => {
            setExpires(Number(event.target.value));
            link.reset();
          }}
          data-testid="link-expiry"
        >
          {LINK_EXPIRIES.map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {t(`explorer.link.expiry.${choice.key}`)}
            </option>
          ))}
        </SelectField>
        <Checkbox
          label={t('explorer.link.forceDownload')}
          checked={download}
          onChange={(event) => {
            setDownload(event.target.checked);
            link.reset();
          }}
          data-testid="link-force-download"
        />
        {link.error && <Alert tone="error">{link.error.message}</Alert>}
        {url && link.data && (
          <div className="space-y-3" data-testid="link-result">
            <p
              className="rounded-md bg-surface-sunken px-3 py-2 font-mono text-xs break-all text-fg"
              data-testid="link-url"
            >
              {url}
            </p>
            <p className="text-xs text-fg-muted">
              {t('explorer.link.validUntil', { time: formatDateTime(link.data.expiresAt) })}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <CopyButton text={url} testId="link-copy">
                {t('explorer.link.copy')}
              </CopyButton>
              <a
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                className="text-sm text-accent-text underline"
              >
                {t('explorer.link.open')}
              </a>
            </div>
            <QrCode value={url} size={160} />
          </div>
        )}
        <DialogActions>
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button type="submit" disabled={link.isPending} data-testid="link-create">
            {link.isPending && <Spinner className="size-4 text-accent-fg" />}
            {url ? t('explorer.link.again') : t('explorer.link.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * A file share of a mount file, or a folder share of a mount folder: link suffix, remark, password,
 * expiry and view limit checked as the upload page checks them, then the share's page link with a
 * copy button and a QR code. The file or folder stays in the mount when the share ends.
 */
export function ShareDialog({ tree, item, onClose }: { tree: FsTree; item: FsListItem; onClose(): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<UploadSettingsValues>(EMPTY_UPLOAD_SETTINGS);
  const [errors, setErrors] = useState<UploadErrors>({});
  const { errorScope, focusFirstError } = useErrorFocus();
  const share = useMutation({
    mutationFn: async (settings: ShareInput) =>
      item.isDirectory
        ? folderPageUrl((await shareFolder(item.path, settings)).slug)
        : filePageUrl((await shareFile(tree, item.path, settings)).slug),
    onSuccess: () => showToast(t('explorer.share.done'), 'success'),
  });
  const change = (patch: Partial<UploadSettingsValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors({});
    share.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateUploadSettings(values, 1);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstError();
      return;
    }
    share.mutate(checked.input);
  };
  const link = share.data ?? null;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('explorer.share.title', { name: item.name })}
      description={item.isDirectory ? t('explorer.share.folderDescription') : t('explorer.share.description')}
      testId="share-dialog"
    >
      <form ref={errorScope} onSubmit={submit} noValidate className="space-y-4">
        <fieldset disabled={share.isPending || link !== null} className="grid gap-4 sm:grid-cols-2">
          <ShareLinkFields values={values} errors={errors} onChange={change} />
        </fieldset>
        {share.error && <Alert tone="error">{share.error.message}</Alert>}
        {link && (
          <div className="space-y-3" data-testid="share-result">
            <p
              className="rounded-md bg-surface-sunken px-3 py-2 font-mono text-xs break-all text-fg"
              data-testid="share-url"
            >
              {link}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <CopyButton text={link} testId="share-copy">
                {t('explorer.share.copy')}
              </CopyButton>
              <a
                href={link}
                target="_blank"
                rel="noopener noreferrer"
                className="text-sm text-accent-text underline"
              >
                {t('explorer.share.open')}
              </a>
            </div>
            <QrCode value={link} size={160} />
          </div>
        )}
        <DialogActions>
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
          {!link && (
            <Button type="submit" disabled={share.isPending} data-testid="share-create">
              {share.isPending && <Spinner className="size-4 text-accent-fg" />}
              {t('explorer.share.create')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
