/**
 * /invite/:token (docs/accounts.md "People"): what an invite offers (the role, the email it is for),
 * or why it cannot be used (404: not valid; 410: used, revoked or expired); then a username and a
 * password (typed twice) make the account, which is signed in at once and taken to the admin area.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { UserRole } from '@cubby/shared';
import { Alert } from '../../components/alert.tsx';
import { Button } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { TextField } from '../../components/form-field.tsx';
import { PageLoading, Spinner } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { api, errorMessage, isApiError } from '../../lib/api/index.ts';
import { useErrorFocus } from '../../lib/forms/use-error-focus.ts';
import { formatDateTime } from '../../lib/i18n/format-date.ts';
import { usePageTitle } from '../../lib/i18n/use-page-title.ts';
import { validateAcceptInvite } from '../admin/index.ts';
import { useAuthStore } from '../auth/index.ts';

interface InviteOffer {
  role: UserRole;
  email: string | null;
  expires_at: string;
}

const invitePath = (token: string) => `/public/invites/${encodeURIComponent(token)}`;

type FieldErrors = Partial<Record<'username' | 'password' | 'confirm', string>>;

export default function InvitePage() {
  const { t } = useTranslation();
  usePageTitle(t('accounts.invitePage.title'));
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const offer = useQuery({
    queryKey: ['invite', token],
    queryFn: ({ signal }) => api.get<InviteOffer>(invitePath(token), { signal, credential: null }),
    retry: false,
  });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const { errorScope, focusFirstError } = useErrorFocus();
  const accept = useMutation({
    mutationFn: async (input: { username: string; password: string }) => {
      await api.post<unknown>(`${invitePath(token)}/accept`, input, { credential: null });
      await useAuthStore.getState().adminLogin(input.username, input.password);
    },
    onSuccess: () => void navigate(paths.admin.getHref(), { replace: true }),
    onError: (failure) => {
      const details = isApiError(failure) ? (failure.details ?? {}) : {};
      setErrors({ username: details.username, password: details.password });
      focusFirstError();
    },
  });

  if (offer.isPending) return <PageLoading />;
  if (offer.isError) {
    const status = isApiError(offer.error) ? offer.error.status : 0;
    const key =
      status === 404 ? 'accounts.invitePage.notValid' : status === 410 ? 'accounts.invitePage.used' : null;
    return (
      <Card title={t('accounts.invitePage.title')} as="h1" className="mx-auto max-w-lg">
        <Alert tone="error">
          <p data-testid="invite-unavailable">{key ? t(key) : offer.error.message}</p>
        </Alert>
      </Card>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateAcceptInvite({ username, password, confirm });
    const found = result.ok ? {} : result.errors;
    setErrors({
      username: found.username && t(found.username),
      password: found.password && t(found.password),
      confirm: found.confirm && t(found.confirm),
    });
    if (result.ok) accept.mutate(result.input);
    else focusFirstError();
  };

  const { role, email, expires_at: expiresAt } = offer.data;
  return (
    <Card
      title={t('accounts.invitePage.title')}
      as="h1"
      className="mx-auto max-w-lg"
      description={
        email
          ? t('accounts.invitePage.offerFor', { role: t(`accounts.roles.${role}`), email })
          : t('accounts.invitePage.offer', { role: t(`accounts.roles.${role}`) })
      }
    >
      <p className="mb-4 text-sm text-fg-muted">
        {t('accounts.invitePage.expires', { date: formatDateTime(expiresAt) })}
      </p>
      <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-4">
        {accept.isError && <Alert tone="error">{errorMessage(accept.error)}</Alert>}
        <TextField
          label={t('accounts.fields.username')}
          name="username"
          autoComplete="username"
          required
          value={username}
          hint={t('accounts.hints.username')}
          error={errors.username ?? null}
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label={t('accounts.fields.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          hint={t('accounts.hints.password')}
          error={errors.password ?? null}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          label={t('accounts.fields.confirmPassword')}
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          error={errors.confirm ?? null}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <Button type="submit" disabled={accept.isPending} className="w-full">
          {accept.isPending && <Spinner className="size-4 text-accent-fg" />}
          {t('accounts.invitePage.submit')}
        </Button>
      </form>
    </Card>
  );
}
