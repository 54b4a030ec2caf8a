/** Renders the toast queue in a polite live region at the bottom of the viewport. */
import { useTranslation } from 'react-i18next';
import { useToastStore, type ToastTone } from './toast-store.ts';

const toneClasses: Record<ToastTone, string> = {
  info: 'border-border',
  success: 'border-success',
  warning: 'border-warning',
  error: 'border-danger',
};

export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.tone === 'error' || toast.tone === 'warning' ? 'alert' : 'status'}
          data-testid="toast"
          className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border-l-4 bg-surface-raised px-4 py-3 text-sm text-fg shadow-lg ring-1 ring-border ${toneClasses[toast.tone]}`}
        >
          <p className="flex-1 break-words">{toast.message}</p>
          <button
            type="button"
            onClick={() => dismiss(toast.id)}
            className="rounded text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
            aria-label={t('common.dismiss')}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>
  );
}
