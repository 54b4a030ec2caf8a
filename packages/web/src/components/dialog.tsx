/**
 * A modal dialog on top of Radix (focus trap, Escape to close, labelled by its title; the focus
 * goes back to what had it before). The body
 * scrolls inside the viewport, so long forms still fit on a 375 px screen.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Role of the dialog; use `alertdialog` for confirmations. */
  role?: 'dialog' | 'alertdialog';
  /** When true, clicks outside and Escape do not close it (e.g. while showing a secret once). */
  modalLock?: boolean;
  testId?: string;
  /** A wider dialog, for forms with a text area or a preview. */
  wide?: boolean;
}

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  role = 'dialog',
  modalLock = false,
  testId,
  wide = false,
}: DialogProps) {
  const { t } = useTranslation();
  // Our dialogs are opened by state, not by a Radix trigger, so Radix would give the focus back to
  // nothing: remember what had it when the dialog opened, and give it back on close.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/50 backdrop-blur-[1px]" />
        <RadixDialog.Content
          role={role}
          data-testid={testId}
          onInteractOutside={modalLock ? (event) => event.preventDefault() : undefined}
          onEscapeKeyDown={modalLock ? (event) => event.preventDefault() : undefined}
          onCloseAutoFocus={(event) => {
            const back = opener.current;
            if (back?.isConnected) {
              event.preventDefault();
              back.focus();
            }
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] ${wide ? 'max-w-3xl' : 'max-w-lg'} -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-border bg-surface-raised text-fg shadow-2xl focus:outline-none`}
        >
          <div className="flex items-start justify-between gap-4 border-b border-border px-5 py-4">
            <div className="min-w-0">
              <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
              {description && (
                <RadixDialog.Description className="mt-1 text-sm text-fg-muted">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close
              className="-m-1 rounded-md p-1 text-fg-muted hover:bg-surface-sunken hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
              aria-label={t('common.close')}
            >
              <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true" fill="currentColor">
                <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4z" />
              </svg>
            </RadixDialog.Close>
          </div>
          <div className="overflow-y-auto px-5 py-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A row of dialog buttons, stacked on narrow screens. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}

/** The footer of a form dialog: Cancel, and the submit button (disabled, with a spinner, while pending). */
export function FormDialogActions({
  onCancel,
  pending,
  submitLabel,
  submitTestId,
}: {
  onCancel(): void;
  pending: boolean;
  /** Defaults to "Save". */
  submitLabel?: ReactNode;
  submitTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button variant="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" disabled={pending} data-testid={submitTestId}>
        {pending && <Spinner className="size-4 text-accent-fg" />}
        {submitLabel ?? t('common.save')}
      </Button>
    </DialogActions>
  );
}
