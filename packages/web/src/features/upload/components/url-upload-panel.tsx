/**
 * Upload from a link (docs/product.md §4 URL upload): enter an http(s) URL, analyse it on the server (name,
 * type, size), optionally rename, then upload — the item joins the upload list, where the browser
 * downloads and stores it.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, type UrlInfo } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessage } from '../../../lib/api/index.ts';
import { useErrorFocus } from '../../../lib/forms/use-error-focus.ts';
import { getUrlInfo } from '../api/upload-api.ts';
import type { UrlSource } from '../transfer/upload-from-url.ts';

/** An http or https URL (docs/product.md §5), or null. */
export function parseHttpUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export interface UrlUploadPanelProps {
  disabled: boolean;
  maxBytes: number | null;
  /** Starts the upload; returns false when the settings are not valid yet. */
  onUpload(source: UrlSource): boolean;
}

export function UrlUploadPanel({ disabled, maxBytes, onUpload }: UrlUploadPanelProps) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [analysing, setAnalysing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [info, setInfo] = useState<UrlInfo | null>(null);
  const [filename, setFilename] = useState('');
  const tooLarge = info?.size != null && maxBytes !== null && info.size > maxBytes;

  const { errorScope, focusFirstError } = useErrorFocus();
  const analyse = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setInfo(null);
    const parsed = parseHttpUrl(url);
    if (!parsed) {
      setUrlError(t('upload.url.invalid'));
      focusFirstError();
      return;
    }
    setAnalysing(true);
    try {
      const answer = await getUrlInfo(parsed);
      setInfo({ ...answer, url: answer.url || parsed, size: answer.size ?? null });
      setFilename(answer.filename);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setAnalysing(false);
    }
  };

  const upload = () => {
    if (!info) return;
    const name = filename.trim() || info.filename;
    if (onUpload({ info, filename: name })) {
      setInfo(null);
      setUrl('');
      setFilename('');
    }
  };

  return (
    <div className="space-y-4" data-testid="url-panel">
      <form
        ref={errorScope}
        onSubmit={(event) => void analyse(event)}
        noValidate
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <div className="min-w-0 flex-1">
          <TextField
            label={t('upload.url.label')}
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/file.zip"
            value={url}
            error={urlError}
            disabled={disabled}
            onChange={(event) => {
              setUrl(event.target.value);
              setUrlError(null);
            }}
          />
        </div>
        <Button
          type="submit"
          variant="secondary"
          className="sm:mt-[1.625rem]"
          disabled={disabled || analysing}
          data-testid="analyse-url"
        >
          {analysing && <Spinner className="size-4" />}
          {t('upload.url.analyse')}
        </Button>
      </form>
      {failure && (
        <Alert tone="error" testId="url-error">
          {failure}
        </Alert>
      )}
      {info && (
        <div
          className="space-y-3 rounded-lg border border-border bg-surface-sunken p-3"
          data-testid="url-info"
        >
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
            <dt className="text-fg-muted">{t('upload.url.type')}</dt>
            <dd className="truncate font-mono" data-user-content="">
              {info.contentType}
            </dd>
            <dt className="text-fg-muted">{t('upload.url.size')}</dt>
            <dd data-testid="url-size">
              {info.size === null
                ? t('upload.item.sizeUnknown')
                : t('upload.item.size', { size: formatBytes(info.size) })}
            </dd>
          </dl>
          <TextField
            label={t('upload.url.filename')}
            name="filename"
            value={filename}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setFilename(event.target.value)}
          />
          {tooLarge && <Alert tone="error">{t('upload.errors.tooLarge')}</Alert>}
          <div className="flex justify-end">
            <Button onClick={upload} disabled={disabled || tooLarge} data-testid="upload-url">
              {t('upload.url.upload')}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
