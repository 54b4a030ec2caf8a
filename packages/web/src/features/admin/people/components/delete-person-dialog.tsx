/**
 * Deleting a person (docs/accounts.md "People"): what becomes of their pastes and file shares —
 * kept (owned by no one), handed to an admin, or deleted with their files — chosen before confirming.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserView } from '@cubby/shared';
import { ConfirmDialog } from '../../../../components/confirm-dialog.tsx';
import { SelectField } from '../../../../components/form-field.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { useDeleteUser, type UserDeleteInput } from '../api/people-api.ts';

const CHOICES = ['keep', 'transfer', 'delete'] as const;

export function DeletePersonDialog({
  user,
  admins,
  onClose,
}: {
  user: UserView;
  /** Who the shares may be handed to: the other admins. */
  admins: UserView[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteUser();
  const [shares, setShares] = useState<UserDeleteInput['shares']>('keep');
  const [heir, setHeir] = useState(admins[0]?.id ?? '');

  return (
    <ConfirmDialog
      testId="delete-person-dialog"
      title={t('accounts.people.deleteTitle', { name: user.username })}
      description={t('accounts.people.deleteDescription')}
      confirmLabel={t('common.delete')}
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error) : null}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(
          { id: user.id, input: shares === 'transfer' ? { shares, transfer_to: heir } : { shares } },
          {
            onSuccess: () => {
              showToast(t('accounts.people.deleted', { name: user.username }), 'success');
              onClose();
            },
          },
        )
      }
    >
      <div className="mt-4 space-y-3">
        <SelectField
          label={t('accounts.people.sharesChoice')}
          name="shares"
          value={shares}
          onChange={(event) => setShares(event.target.value as UserDeleteInput['shares'])}
        >
          {CHOICES.filter((choice) => choice !== 'transfer' || admins.length > 0).map((choice) => (
            <option key={choice} value={choice}>
              {t(`accounts.people.shares.${choice}`)}
            </option>
          ))}
        </SelectField>
        {shares === 'transfer' && (
          <SelectField
            label={t('accounts.people.transferTo')}
            name="transferTo"
            value={heir}
            onChange={(event) => setHeir(event.target.value)}
          >
            {admins.map((admin) => (
              <option key={admin.id} value={admin.id} data-user-content="">
                {admin.username}
              </option>
            ))}
          </SelectField>
        )}
      </div>
    </ConfirmDialog>
  );
}
