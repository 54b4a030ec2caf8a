/**
 * Renders the toast queue at the bottom of the viewport, in two live regions that are in the page
 * from the start (a region created together with its text is not announced): information and
 * successes in a polite status region, errors and warnings in an alert region. The toasts
 * themselves carry no role, so each is announced once, by the region it is added to. Where they
 * would cover the bar they keep clear of (keepToastsClearOf), they stand just above it.
 */
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useToastStore, type Toast, type ToastTone } from './toast-store.ts';

/** The toasts' distance from a bar they keep clear of (from the window's bottom: `bottom-4`). */
const GAP_PX = 8;

const toneClasses: Record<ToastTone, string> = {
  info: 'border-border',
  success: 'border-success',
  warning: 'border-warning',
  error: 'border-danger',
};

const isUrgent = (toast: Toast) => toast.tone === 'error' || toast.tone === 'warning';

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss(): void }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="toast"
      data-tone={toast.tone}
      className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border-l-4 bg-surface-raised px-4 py-3 text-sm text-fg shadow-lg ring-1 ring-border ${toneClasses[toast.tone]}`}
    >
      <p className="flex-1 break-words">{toast.message}</p>
      <button
        type="button"
        onClick={onDismiss}
        className="rounded text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        aria-label={t('common.dismiss')}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  const keepClear = useToastStore((state) => state.keepClear);
  const column = useRef<HTMLDivElement>(null);
  const shown = toasts.length > 0;
  // Where the column would cover the bar it keeps clear of, it stands just above it instead.
  useLayoutEffect(() => {
    const element = column.current;
    if (!keepClear || !element || !shown) return;
    const place = () => {
      element.style.bottom = '';
      const bar = keepClear.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      const covers = bar.bottom > box.top && bar.top < box.bottom;
      if (covers && bar.top - GAP_PX - box.height >= 0)
        element.style.bottom = `${window.innerHeight - bar.top + GAP_PX}px`;
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(element);
    observer.observe(keepClear);
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
      element.style.bottom = '';
    };
  }, [keepClear, shown]);
  const region = (urgent: boolean) => (
    <div
      role={urgent ? 'alert' : 'status'}
      aria-live={urgent ? 'assertive' : 'polite'}
      aria-atomic="false"
      data-testid={urgent ? 'toast-alerts' : 'toast-status'}
      className="flex w-full flex-col items-center gap-2"
    >
      {toasts
        .filter((toast) => isUrgent(toast) === urgent)
        .map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
        ))}
    </div>
  );
  return (
    <div
      ref={column}
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4"
    >
      {region(true)}
      {region(false)}
    </div>
  );
}
