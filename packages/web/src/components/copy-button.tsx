/** A button that copies a text and says so (toast), e.g. a share link or a paste's content. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard.ts';
import { Button, type ButtonSize, type ButtonVariant } from './button.tsx';
import { CopyIcon } from './icons.tsx';
import { showToast } from './toast/toast-store.ts';

export function CopyButton({
  text,
  children,
  label,
  variant = 'secondary',
  size = 'sm',
  testId,
}: {
  /** The text to copy, or a function giving it at click time. */
  text: string | (() => string);
  children: ReactNode;
  /** Accessible name when the visible text is not enough. */
  label?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  testId?: string;
}) {
  const { t } = useTranslation();
  const copy = async () => {
    const ok = await copyText(typeof text === 'function' ? text() : text);
    showToast(ok ? t('common.copied') : t('common.copyFailed'), ok ? 'success' : 'error', 2500);
  };
  return (
    <Button variant={variant} size={size} onClick={() => void copy()} aria-label={label} data-testid={testId}>
      <CopyIcon className="size-4" />
      {children}
    </Button>
  );
}
