/**
 * One's two-factor sign-in (docs/accounts.md "Two-factor sign-in"): whether it is on, how many
 * recovery codes are left and whether the admin requires it. Setting it up shows the authenticator
 * secret as a QR code and as text, takes a first code, then shows the ten recovery codes once (copy,
 * download as .txt). New recovery codes and turning it off each take a current code or a recovery
 * code. Also the whole of the page a person sees while the admin requires them to set it up.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../../components/alert.tsx';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { Card } from '../../../../components/card.tsx';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { QrCode } from '../../../../components/qr-code.tsx';
import { PageLoading, Spinner } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { downloadText } from '../../../../lib/download.ts';
import { SecondFactorField, useSecondFactorInput, type SecondFactor } from '../../../auth/index.ts';
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRenewRecoveryCodes,
  useSetupTwoFactor,
  useTwoFactorStatus,
  type TwoFactorStatus,
} from '../api/two-factor-api.ts';

/** What the section shows below the status. */
type View =
  | { name: 'status' }
  | { name: 'setup'; secret: string; url: string }
  /** `enabled`: the codes of a set-up just finished (not renewed ones). */
  | { name: 'codes'; codes: string[]; enabled: boolean }
  | { name: 'confirm'; action: 'disable' | 'renew' };

export function TwoFactorSection({
  onEnabled,
  title,
}: {
  /** Called once the person has seen their recovery codes after turning it on. */
  onEnabled?: () => void;
  title?: string;
}) {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const [view, setView] = useState<View>({ name: 'status' });
  const back = () => setView({ name: 'status' });

  return (
    <Card title={title ?? t('accounts.twoFactor.title')} description={t('accounts.twoFactor.description')}>
      {status.isPending ? (
        <PageLoading />
      ) : status.isError ? (
        <LoadError error={status.error} onRetry={() => void status.refetch()} />
      ) : view.name === 'setup' ? (
        <SetupPanel
          secret={view.secret}
          url={view.url}
          onEnabled={(codes) => setView({ name: 'codes', codes, enabled: true })}
          onCancel={back}
        />
      ) : view.name === 'codes' ? (
        <RecoveryCodes
          codes={view.codes}
          onDone={() => {
            back();
            if (view.enabled) onEnabled?.();
          }}
        />
      ) : view.name === 'confirm' ? (
        <ConfirmPanel
          action={view.action}
          onDone={(codes) => (codes ? setView({ name: 'codes', codes, enabled: false }) : back())}
          onCancel={back}
        />
      ) : (
        <StatusPanel
          status={status.data}
          onSetup={(secret, url) => setView({ name: 'setup', secret, url })}
          onConfirm={(action) => setView({ name: 'confirm', action })}
        />
      )}
    </Card>
  );
}

function StatusPanel({
  status,
  onSetup,
  onConfirm,
}: {
  status: TwoFactorStatus;
  onSetup: (secret: string, url: string) => void;
  onConfirm: (action: 'disable' | 'renew') => void;
}) {
  const { t } = useTranslation();
  const setup = useSetupTwoFactor();
  const start = () =>
    setup.mutate(undefined, { onSuccess: (answer) => onSetup(answer.secret, answer.otpauth_url) });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2" data-testid="two-factor-status">
        <Badge tone={status.totp ? 'success' : 'muted'}>
          {status.totp ? t('accounts.twoFactor.on') : t('accounts.twoFactor.off')}
        </Badge>
        {status.required && <Badge tone="warning">{t('accounts.twoFactor.requiredByAdmin')}</Badge>}
        {status.totp && (
          <span className="text-sm text-fg-muted">
            {t('accounts.twoFactor.codesLeft', { count: status.recovery_codes_left })}
          </span>
        )}
      </div>
      {setup.isError && <Alert tone="error">{errorMessage(setup.error)}</Alert>}
      <div className="flex flex-wrap gap-2">
        {status.totp ? (
          <>
            <Button variant="secondary" onClick={() => onConfirm('renew')} data-testid="two-factor-renew">
              {t('accounts.twoFactor.renew')}
            </Button>
            <Button variant="danger" onClick={() => onConfirm('disable')} data-testid="two-factor-disable">
              {t('accounts.twoFactor.disable')}
            </Button>
          </>
        ) : (
          <Button onClick={start} disabled={setup.isPending} data-testid="two-factor-set-up">
            {setup.isPending && <Spinner className="size-4 text-accent-fg" />}
            {t('accounts.twoFactor.setUp')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The secret (QR code and text) and the first code that turns it on. */
function SetupPanel({
  secret,
  url,
  onEnabled,
  onCancel,
}: {
  secret: string;
  url: string;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const enable = useEnableTwoFactor();
  return (
    <div className="space-y-4" data-testid="two-factor-setup">
      <ol className="list-decimal space-y-1 ps-5 text-sm text-fg">
        <li>{t('accounts.twoFactor.scan')}</li>
        <li>{t('accounts.twoFactor.enterFirst')}</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <QrCode value={url} size={176} label={t('accounts.twoFactor.qrLabel')} />
        <div className="min-w-0 space-y-2">
          <p className="text-sm text-fg-muted">{t('accounts.twoFactor.manual')}</p>
          <code
            className="block rounded bg-surface-sunken px-2 py-1 font-mono text-sm break-all text-fg"
            data-testid="two-factor-secret"
            data-user-content=""
          >
            {secret}
          </code>
          <CopyButton text={secret}>{t('accounts.twoFactor.copySecret')}</CopyButton>
        </div>
      </div>
      <FactorForm
        codeOnly
        mutation={enable}
        submitLabel={t('accounts.twoFactor.turnOn')}
        onSubmit={(factor, failed) =>
          enable.mutate(factor.otp ?? '', {
            onSuccess: (answer) => onEnabled(answer.recovery_codes),
            onError: failed,
          })
        }
        onCancel={onCancel}
      />
    </div>
  );
}

/** The recovery codes, shown this once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n') + '\n';
  return (
    <div className="space-y-4" data-testid="recovery-codes">
      <Alert tone="warning">
        <p className="font-medium">{t('accounts.twoFactor.storeNow')}</p>
        <p className="mt-1">{t('accounts.twoFactor.storeNowHint')}</p>
      </Alert>
      <ol
        className="grid grid-cols-1 gap-1 rounded-lg bg-surface-sunken p-3 font-mono text-sm text-fg min-[420px]:grid-cols-2"
        aria-label={t('accounts.twoFactor.codesLabel')}
        data-user-content=""
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={text}>{t('common.copy')}</CopyButton>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => downloadText('cubby-recovery-codes.txt', text, 'text/plain')}
        >
          {t('accounts.twoFactor.download')}
        </Button>
        <Button size="sm" onClick={onDone} data-testid="recovery-codes-stored">
          {t('accounts.twoFactor.stored')}
        </Button>
      </div>
    </div>
  );
}

/** A current code or a recovery code, for new recovery codes or to turn it off. */
function ConfirmPanel({
  action,
  onDone,
  onCancel,
}: {
  action: 'disable' | 'renew';
  onDone: (codes?: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const renew = useRenewRecoveryCodes();
  const off = action === 'disable';
  return (
    <FactorForm
      intro={off ? t('accounts.twoFactor.disableHint') : t('accounts.twoFactor.renewHint')}
      mutation={off ? disable : renew}
      submitLabel={off ? t('accounts.twoFactor.disable') : t('accounts.twoFactor.renew')}
      danger={off}
      onSubmit={(factor, failed) => {
        if (off) {
          disable.mutate(factor, {
            onSuccess: () => {
              showToast(t('accounts.twoFactor.disabled'), 'success');
              onDone();
            },
            onError: failed,
          });
        } else {
          renew.mutate(factor, { onSuccess: (answer) => onDone(answer.recovery_codes), onError: failed });
        }
      }}
      onCancel={onCancel}
    />
  );
}

/** A second factor to send, the server's error in the person's language, and submit and cancel. */
function FactorForm({
  intro,
  codeOnly = false,
  mutation,
  submitLabel,
  danger = false,
  onSubmit,
  onCancel,
}: {
  intro?: ReactNode;
  codeOnly?: boolean;
  mutation: { isPending: boolean; isError: boolean; error: unknown; reset: () => void };
  submitLabel: string;
  danger?: boolean;
  /** Sends the factor; `failed` empties the field for another try. */
  onSubmit: (factor: SecondFactor, failed: () => void) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const input = useSecondFactorInput(() => mutation.reset());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const factor = input.take();
    if (factor) onSubmit(factor, input.clear);
  };
  return (
    <form onSubmit={submit} noValidate className="max-w-sm space-y-3" data-testid="two-factor-form">
      {intro && <p className="text-sm text-fg">{intro}</p>}
      <SecondFactorField {...input.field} codeOnly={codeOnly} autoFocus={!codeOnly} />
      {mutation.isError && (
        <Alert tone="error" testId="two-factor-error">
          {errorMessage(mutation.error)}
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          variant={danger ? 'danger' : 'primary'}
          disabled={mutation.isPending}
          data-testid="two-factor-submit"
        >
          {mutation.isPending && <Spinner className="size-4" />}
          {submitLabel}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
