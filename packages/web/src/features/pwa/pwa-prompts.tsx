/** The install and update prompts (spec §2 "PWA prompts"): a small card at the bottom corner. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { acceptInstall, dismissInstall, usePwaStore } from './pwa-store.ts';

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

export function PwaPrompts() {
  const { t } = useTranslation();
  const applyUpdate = usePwaStore((state) => state.applyUpdate);
  const installVisible = usePwaStore((state) => state.installVisible);
  const dismissUpdate = () => usePwaStore.setState({ applyUpdate: null });
  if (!applyUpdate && !installVisible) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-20 z-40 flex flex-col items-center gap-2 px-4 sm:inset-x-auto sm:end-4 sm:bottom-4 sm:items-end">
      {applyUpdate && (
        <PromptCard testId="update-prompt" title={t('pwa.updateTitle')} text={t('pwa.updateText')}>
          <Button size="sm" variant="ghost" onClick={dismissUpdate}>
            {t('pwa.later')}
          </Button>
          <Button size="sm" onClick={applyUpdate}>
            {t('pwa.reload')}
          </Button>
        </PromptCard>
      )}
      {installVisible && (
        <PromptCard testId="install-prompt" title={t('pwa.installTitle')} text={t('pwa.installText')}>
          <Button size="sm" variant="ghost" onClick={() => void dismissInstall()}>
            {t('pwa.notNow')}
          </Button>
          <Button size="sm" onClick={() => void acceptInstall()}>
            {t('pwa.install')}
          </Button>
        </PromptCard>
      )}
    </div>
  );
}
