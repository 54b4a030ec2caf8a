/** A confirmation before something that cannot be undone (delete, clear); shows the call's error. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog, DialogActions } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

export interface ConfirmDialogProps {
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onClose(): void;
  pending?: boolean;
  error?: string | null;
  testId?: string;
  /** Choices to make before confirming (what becomes of a deleted person's shares). */
  children?: ReactNode;
}

export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  onConfirm,
  onClose,
  pending = false,
  error,
  testId,
  children,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      role="alertdialog"
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      testId={testId}
    >
      {children}
      {error && <Alert tone="error">{error}</Alert>}
      <DialogActions>
        <Button variant="secondary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending} data-testid="confirm">
          {pending && <Spinner className="size-4 text-white" />}
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
