/**
 * The confirmation before revoking or deleting something by id (an app password, an invite, a
 * mount, a webhook…): the mutation's
 * error shown in the dialog, a toast and closing once it is done.
 */
import type { UseMutationResult } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../lib/api/index.ts';

export function RevokeConfirm({
  id,
  mutation,
  title,
  description,
  confirmLabel,
  doneMessage,
  onClose,
}: {
  id: string;
  mutation: UseMutationResult<unknown, Error, string>;
  title: string;
  description: string;
  confirmLabel: string;
  doneMessage: string;
  onClose(): void;
}) {
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      pending={mutation.isPending}
      error={mutation.error ? errorMessage(mutation.error) : null}
      onClose={close}
      testId="confirm-dialog"
      onConfirm={() =>
        mutation.mutate(id, {
          onSuccess: () => {
            showToast(doneMessage, 'success');
            close();
          },
        })
      }
    />
  );
}
