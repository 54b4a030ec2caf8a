/**
 * The install and update prompts (docs/product.md §2 "PWA prompts"): a small card at the bottom corner. A
 * lazy chunk, loaded only when the browser offers installing or a new version waits.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { readSetting, writeSetting } from '../../lib/offline/offline-db.ts';
import { INSTALL_DISMISSED_KEY, INSTALL_RECHECK_MS, mayOfferInstall } from './install-rule.ts';
import { usePwaStore } from './pwa-store.ts';

function PromptCard({
  testId,
  title,
  text,
  children,
}: {
  testId: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section
      role="dialog"
      aria-label={title}
      data-testid={testId}
      className="pointer-events-auto w-full max-w-sm rounded-lg border border-border bg-surface-raised p-4 text-sm text-fg shadow-lg"
    >
      <h2 className="font-semibold">{title}</h2>
      <p className="mt-1 text-fg-muted">{text}</p>
      <div className="mt-3 flex flex-wrap justify-end gap-2">{children}</div>
    </section>
  );
}

/** Whether the install offer may be shown now; rechecked every 5 seconds. */
function useInstallVisible(offered: boolean): [boolean, () => void] {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!offered) return;
    let live = true;
    const check = () =>
      void readSetting<number>(INSTALL_DISMISSED_KEY)
        .catch(() => undefined)
        .then((dismissedAt) => {
          if (live) setVisible(mayOfferInstall(dismissedAt, Date.now()));
        });
    check();
    const timer = setInterval(check, INSTALL_RECHECK_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [offered]);
  const dismiss = () => {
    setVisible(false);
    void writeSetting(INSTALL_DISMISSED_KEY, Date.now()).catch(() => undefined);
  };
  return [visible && offered, dismiss];
}

export default function PwaPrompts() {
  const { t } = useTranslation();
  const applyUpdate = usePwaStore((state) => state.applyUpdate);
  const installEvent = usePwaStore((state) => state.installEvent);
  const [installVisible, dismissInstall] = useInstallVisible(installEvent !== null);
  const install = async () => {
    usePwaStore.setState({ installEvent: null });
    await installEvent?.prompt();
    await installEvent?.userChoice.catch(() => undefined);
  };
  if (!applyUpdate && !installVisible) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-20 z-40 flex flex-col items-center gap-2 px-4 sm:inset-x-auto sm:end-4 sm:bottom-4 sm:items-end">
      {applyUpdate && (
        <PromptCard testId="update-prompt" title={t('pwa.updateTitle')} text={t('pwa.updateText')}>
          <Button size="sm" variant="ghost" onClick={() => usePwaStore.setState({ applyUpdate: null })}>
            {t('pwa.later')}
          </Button>
          <Button size="sm" onClick={applyUpdate}>
            {t('pwa.reload')}
          </Button>
        </PromptCard>
      )}
      {installVisible && (
        <PromptCard testId="install-prompt" title={t('pwa.installTitle')} text={t('pwa.installText')}>
          <Button size="sm" variant="ghost" onClick={dismissInstall}>
            {t('pwa.notNow')}
          </Button>
          <Button size="sm" onClick={() => void install()}>
            {t('pwa.install')}
          </Button>
        </PromptCard>
      )}
    </div>
  );
}
