/** The switcher itself (a lazy chunk: only admins who ask for it ever load it). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/button.tsx';
import { Dialog, DialogActions } from '../../components/dialog.tsx';
import { TextField } from '../../components/form-field.tsx';
import { ServerIcon } from '../../components/icons.tsx';
import { showToast } from '../../components/toast/toast-store.ts';
import { getBackendOverride, normalizeBackendUrl, setBackendOverride } from '../../lib/api/index.ts';
import { useErrorFocus } from '../../lib/forms/use-error-focus.ts';
import { useAuthStore } from '../auth/index.ts';

export default function EnvSwitcherPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState(getBackendOverride);
  const [value, setValue] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);

  const switchTo = (url: string | null) => {
    setBackendOverride(url);
    setCurrent(url);
    // Data of the old backend must not show as if it came from the new one: refetch everything.
    void queryClient.resetQueries();
    void useAuthStore.getState().validate();
    showToast(url ? t('envSwitcher.switched', { url }) : t('envSwitcher.reset'), 'success');
    setOpen(false);
  };

  const { errorScope, focusFirstError } = useErrorFocus();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const url = normalizeBackendUrl(value);
    if (!url) {
      setError(t('envSwitcher.invalidUrl'));
      focusFirstError();
      return;
    }
    switchTo(url);
  };

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setError(null);
          setValue(current ?? '');
          setOpen(true);
        }}
        className="self-start sm:self-auto"
        data-testid="env-switcher-button"
      >
        <ServerIcon className="size-4" />
        {t('envSwitcher.open')}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t('envSwitcher.title')}
        description={t('envSwitcher.description')}
      >
        <p className="mb-4 text-sm">
          <span className="text-fg-muted">{t('envSwitcher.current')} </span>
          <span
            className={current ? 'font-mono break-all' : 'font-medium'}
            data-testid="env-switcher-current"
          >
            {current ?? t('envSwitcher.sameOrigin')}
          </span>
        </p>
        <form ref={errorScope} onSubmit={onSubmit} noValidate>
          <TextField
            label={t('envSwitcher.urlLabel')}
            hint={t('envSwitcher.urlHint')}
            type="url"
            inputMode="url"
            placeholder="https://cubby.example.com"
            value={value}
            error={error}
            onChange={(event) => {
              setValue(event.target.value);
              setError(null);
            }}
          />
          <DialogActions>
            <Button variant="secondary" onClick={() => switchTo(null)} disabled={current === null}>
              {t('envSwitcher.useDefault')}
            </Button>
            <Button type="submit">{t('envSwitcher.apply')}</Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
