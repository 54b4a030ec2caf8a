/**
 * /r/:token (docs/api.md "Upload requests"): the page a stranger opens to send files INTO someone's
 * folder, signed out, phone width first. It shows the owner's message and the limits, asks for the
 * password when there is one, and sends each chosen or dropped file as a streamed form (XHR, so each
 * has its own progress; the browser reads the file from disk as it goes, never whole). Files the
 * limits or types already refuse are named and not sent; the server's refusals are shown in its words.
 */
import { useQuery } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatBytes, LANG_HEADER, type PublicUploadRequest, typeAllowed } from '@cubby/shared';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { TextField } from '../../components/form-field.tsx';
import { PageLoading, Spinner } from '../../components/spinner.tsx';
import { api, errorMessage, getApiBaseUrl } from '../../lib/api/index.ts';
import { formatDateTime } from '../../lib/i18n/format-date.ts';
import { getLanguage } from '../../lib/i18n/index.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { putBlob, TransferError } from '../../lib/transfer/index.ts';

const ACCESS_HEADER = 'X-Upload-Request-Token';
const requestPath = (token: string) => `/public/upload-requests/${encodeURIComponent(token)}`;

interface Sending {
  id: number;
  name: string;
  size: number;
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'failed';
  error?: string;
}

/** Why a file is not sent at all, from what the page already knows, or null. */
function refusal(file: File, info: PublicUploadRequest, t: TFunction): string | null {
  if (!typeAllowed(file.name, info.allowed_types)) {
    return t('uploadRequests.page.typeRefused', { types: info.allowed_types.join(', ') });
  }
  if (info.max_file_size > 0 && file.size > info.max_file_size) {
    return t('uploadRequests.page.tooLarge', { limit: formatBytes(info.max_file_size) });
  }
  return null;
}

export default function UploadRequestPage() {
  const { t } = useTranslation();
  usePageTitle(t('uploadRequests.page.title'));
  const { token = '' } = useParams();
  const [access, setAccess] = useState<string | null>(() =>
    sessionStorage.getItem(`upload-request:${token}`),
  );
  const info = useQuery({
    queryKey: ['upload-request', token, access],
    queryFn: ({ signal }) =>
      api.get<PublicUploadRequest>(requestPath(token), { signal, credential: null, ...headersOf(access) }),
    retry: false,
  });
  const [items, setItems] = useState<Sending[]>([]);
  const [dragging, setDragging] = useState(false);
  const batch = useRef<string | undefined>(undefined);
  const queue = useRef(Promise.resolve());
  const nextId = useRef(0);

  if (info.isPending) return <PageLoading />;
  if (info.isError) {
    return (
      <Card title={t('uploadRequests.page.title')} as="h1" className="mx-auto max-w-xl">
        <Alert tone="error">
          <p data-testid="upload-request-unavailable">{errorMessage(info.error)}</p>
        </Alert>
      </Card>
    );
  }
  const request = info.data;
  if (request.requires_password && access === null) {
    return (
      <PasswordForm
        token={token}
        onOpened={(value) => {
          sessionStorage.setItem(`upload-request:${token}`, value);
          setAccess(value);
        }}
      />
    );
  }

  const update = (id: number, change: Partial<Sending>) =>
    setItems((all) => all.map((item) => (item.id === id ? { ...item, ...change } : item)));
  const send = async (item: Sending, file: File) => {
    update(item.id, { state: 'sending' });
    const form = new FormData();
    form.append('size', String(file.size));
    if (batch.current) form.append('batch', batch.current);
    form.append('file', file, file.name);
    try {
      const { text } = await putBlob(`${getApiBaseUrl()}${requestPath(token)}/files`, form, {
        method: 'POST',
        headers: { [LANG_HEADER]: getLanguage(), ...(access ? { [ACCESS_HEADER]: access } : {}) },
        onProgress: (sent) => update(item.id, { sent: Math.min(sent, file.size) }),
      });
      const answer = JSON.parse(text) as { data: { name: string; batch: string | null } };
      batch.current = answer.data.batch ?? undefined;
      update(item.id, { state: 'done', sent: file.size, name: answer.data.name });
    } catch (error) {
      const detail = error instanceof TransferError ? error.detail : undefined;
      if (error instanceof TransferError && error.status === 401) {
        // The password's access ran out (or the password changed): ask for it again.
        sessionStorage.removeItem(`upload-request:${token}`);
        setAccess(null);
      }
      update(item.id, { state: 'failed', error: detail ?? t('uploadRequests.page.failed') });
    }
  };
  const add = (files: FileList | File[]) => {
    const added = [...files].map((file) => {
      const refused = refusal(file, request, t);
      const item: Sending = {
        id: nextId.current++,
        name: file.name,
        size: file.size,
        sent: 0,
        state: refused ? 'failed' : 'waiting',
        ...(refused ? { error: refused } : {}),
      };
      if (!refused) {
        // One at a time, in the order chosen: the limits are counted in that order too.
        queue.current = queue.current.then(() => send(item, file));
      }
      return item;
    });
    setItems((all) => [...all, ...added]);
    queue.current = queue.current.then(() => void info.refetch());
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  };

  return (
    <Card
      title={t('uploadRequests.page.title')}
      as="h1"
      className="mx-auto max-w-xl"
      description={t('uploadRequests.page.description')}
    >
      {request.message && (
        <p
          className="mb-4 rounded-lg border-l-4 border-accent bg-surface-sunken p-3 text-sm whitespace-pre-wrap text-fg"
          data-user-content=""
          data-testid="upload-request-message"
        >
          {request.message}
        </p>
      )}
      <Limits request={request} />
      <label
        className={`mt-4 flex min-h-32 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed p-4 text-center text-sm focus-within:outline-2 focus-within:outline-ring ${
          dragging ? 'border-accent bg-accent/10' : 'border-border-strong/70'
        }`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="upload-request-drop"
      >
        <span className="font-medium text-fg">{t('uploadRequests.page.drop')}</span>
        <span className="text-fg-muted">{t('uploadRequests.page.orChoose')}</span>
        <input
          type="file"
          multiple
          className="sr-only"
          data-testid="upload-request-input"
          onChange={(event) => {
            if (event.target.files) add(event.target.files);
            event.target.value = '';
          }}
        />
      </label>
      {items.length > 0 && (
        <ul className="mt-4 space-y-3" aria-label={t('uploadRequests.page.sending')}>
          {items.map((item) => (
            <SendingRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {request.uploads && request.uploads.length > 0 && (
        <section className="mt-6">
          <h2 className="mb-2 text-sm font-semibold text-fg">{t('uploadRequests.page.alreadySent')}</h2>
          <ul
            className="divide-y divide-border rounded-lg border border-border"
            data-testid="upload-request-sent"
          >
            {request.uploads.map((upload) => (
              <li
                key={`${upload.name} ${upload.created_at}`}
                className="flex justify-between gap-3 px-3 py-2 text-sm"
              >
                <span className="min-w-0 break-all" data-user-content="">
                  {upload.name}
                </span>
                <span className="shrink-0 text-fg-muted" data-user-content="">
                  {formatBytes(upload.size)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Card>
  );
}

function headersOf(access: string | null): { headers?: Record<string, string> } {
  return access ? { headers: { [ACCESS_HEADER]: access } } : {};
}

function Limits({ request }: { request: PublicUploadRequest }) {
  const { t } = useTranslation();
  const facts = [
    request.max_files > 0 &&
      t('uploadRequests.page.filesLeft', { left: request.remaining_files ?? 0, max: request.max_files }),
    request.max_file_size > 0 &&
      t('uploadRequests.page.perFile', { limit: formatBytes(request.max_file_size) }),
    request.max_total_size > 0 &&
      t('uploadRequests.page.roomLeft', {
        left: formatBytes(request.remaining_bytes ?? 0),
        limit: formatBytes(request.max_total_size),
      }),
    request.allowed_types.length > 0 &&
      t('uploadRequests.page.types', { types: request.allowed_types.join(', ') }),
    request.expires_at && t('uploadRequests.page.expires', { date: formatDateTime(request.expires_at) }),
  ].filter((fact): fact is string => Boolean(fact));
  if (facts.length === 0) return null;
  return (
    <ul className="space-y-1 text-sm text-fg-muted" data-testid="upload-request-limits">
      {facts.map((fact) => (
        <li key={fact}>{fact}</li>
      ))}
    </ul>
  );
}

function SendingRow({ item }: { item: Sending }) {
  const { t } = useTranslation();
  const percent = item.size > 0 ? Math.round((item.sent / item.size) * 100) : item.state === 'done' ? 100 : 0;
  return (
    <li className="rounded-lg border border-border p-3 text-sm" data-testid="upload-request-item">
      <div className="flex justify-between gap-3">
        <span className="min-w-0 font-medium break-all text-fg" data-user-content="">
          {item.name}
        </span>
        <span className="shrink-0 text-fg-muted">{formatBytes(item.size)}</span>
      </div>
      {item.state === 'failed' ? (
        <p className="mt-1 text-danger" role="alert" data-testid="upload-request-item-error">
          {item.error}
        </p>
      ) : (
        <>
          <div
            role="progressbar"
            aria-label={t('uploadRequests.page.progress', { name: item.name })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="mt-2 h-2 overflow-hidden rounded-full bg-surface-sunken"
          >
            <div className="h-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-fg-muted" data-testid="upload-request-item-state">
            {item.state === 'done'
              ? t('uploadRequests.page.done')
              : item.state === 'sending'
                ? t('uploadRequests.page.percent', { percent })
                : t('uploadRequests.page.waiting')}
          </p>
        </>
      )}
    </li>
  );
}

function PasswordForm({ token, onOpened }: { token: string; onOpened(access: string): void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const opened = await api.post<{ access_token: string }>(
        `${requestPath(token)}/verify`,
        { password },
        { credential: null },
      );
      onOpened(opened.access_token);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <Card
      title={t('uploadRequests.page.title')}
      as="h1"
      className="mx-auto max-w-xl"
      description={t('uploadRequests.page.passwordNeeded')}
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        <TextField
          label={t('uploadRequests.page.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          error={error}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="upload-request-password"
        />
        <Button type="submit" disabled={pending} className="w-full" data-testid="upload-request-open">
          {pending && <Spinner className="size-4 text-accent-fg" />}
          {t('uploadRequests.page.open')}
        </Button>
      </form>
    </Card>
  );
}
