/**
 * Editing a bundle or a folder link (docs/api.md "Bundles", "Folder shares"): title, password (set,
 * or remove), expiry (kept, a preset from now, or never) and max views; for a bundle also its
 * items — taken out or put in another order — read from the server when the dialog opens and sent
 * back whole, only when they changed (an item whose share is gone is dropped then).
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUNDLE_TITLE_MAX, type BundleDetail } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { Dialog, FormDialogActions } from '../../../../components/dialog.tsx';
import { TextField } from '../../../../components/form-field.tsx';
import { ArrowUpIcon, TrashIcon } from '../../../../components/icons.tsx';
import { LoadError } from '../../../../components/list-states.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { showToast } from '../../../../components/toast/toast-store.ts';
import { errorMessage } from '../../../../lib/api/index.ts';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { ExpiryField, MaxViewsField, PasswordChange, useExpiryPresetLabels } from '../../../shares/index.ts';
import { type LinkKind, useBundleDetail, useUpdateLink } from '../api.ts';
import {
  LINK_EXPIRY_CHOICES,
  type LinkExpiry,
  type LinkFormErrors,
  type LinkSettingsValues,
  linkSettingsOf,
  linkUpdateBody,
} from '../link-form.ts';
import type { ManagedLink } from './link-row.tsx';

type BundleItem = BundleDetail['items'][number];
/** An item's buttons that move it one place up or down. */
const MOVES = [
  { by: -1, label: 'admin.links.edit.moveUp', className: '' },
  { by: 1, label: 'admin.links.edit.moveDown', className: 'rotate-180' },
] as const;

export function LinkDialog({
  kind,
  link,
  name,
  onClose,
}: {
  kind: LinkKind;
  link: ManagedLink;
  name: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const detail = useBundleDetail(kind === 'bundle' ? link.slug : undefined);
  const [values, setValues] = useState<LinkSettingsValues>(() => linkSettingsOf(link));
  const [errors, setErrors] = useState<LinkFormErrors>({});
  const [items, setItems] = useState<BundleItem[] | null>(null);
  if (detail.data && items === null) setItems(detail.data.items);
  const update = useUpdateLink();
  const presets = useExpiryPresetLabels();
  const labels: Record<LinkExpiry, string> = { keep: t('pastes.expiry.keep'), ...presets };
  const change = (patch: Partial<LinkSettingsValues>) => setValues((current) => ({ ...current, ...patch }));
  const error = (field: keyof LinkFormErrors) => (errors[field] ? t(errors[field]) : null);

  const itemsChanged =
    items !== null &&
    detail.data !== undefined &&
    items.map((item) => item.position).join() !== detail.data.items.map((item) => item.position).join();
  const move = (from: number, to: number) =>
    setItems((list) => {
      if (!list) return list;
      const next = [...list];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item!);
      return next;
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = linkUpdateBody(values, link);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    const body = {
      ...result.body,
      ...(itemsChanged
        ? {
            items: items.flatMap((item) =>
              item.value === null ? [] : [{ type: item.type, value: item.value }],
            ),
          }
        : {}),
    };
    update.mutate(
      { kind, slug: link.slug, body },
      {
        onSuccess: () => {
          showToast(t('admin.links.edit.saved', { name }), 'success');
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(kind === 'bundle' ? 'admin.links.edit.bundleTitle' : 'admin.links.edit.folderTitle')}
      description={t('admin.links.edit.description', { name })}
      testId="link-dialog"
      wide
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {update.isError && (
          <Alert tone="error" testId="link-form-error">
            {errorMessage(update.error)}
          </Alert>
        )}
        <TextField
          label={t('admin.links.edit.title')}
          name="title"
          value={values.title}
          maxLength={BUNDLE_TITLE_MAX}
          error={error('title')}
          onChange={(event) => change({ title: event.target.value })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordChange
            password={values.password}
            clearPassword={values.clearPassword}
            hasPassword={link.has_password}
            hint={t('admin.links.edit.passwordHint')}
            error={error('password')}
            onChange={change}
          />
          <MaxViewsField
            value={values.maxViews}
            error={error('maxViews')}
            onChange={(maxViews) => change({ maxViews })}
          />
          <ExpiryField
            value={values.expiry}
            choices={LINK_EXPIRY_CHOICES}
            labels={labels}
            hint={t('pastes.hints.currentExpiry', {
              value: link.expires_at ? formatDateTime(link.expires_at) : t('pastes.expiry.never'),
            })}
            onChange={(expiry) => change({ expiry })}
          />
        </div>
        {kind === 'bundle' && (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-fg">{t('admin.links.edit.items')}</legend>
            <p className="text-xs text-fg-muted">{t('admin.links.edit.itemsHint')}</p>
            {detail.isPending ? (
              <PageLoading />
            ) : detail.isError ? (
              <LoadError error={detail.error} onRetry={() => void detail.refetch()} />
            ) : (
              <ItemList
                items={items ?? []}
                onMove={move}
                onRemove={(index) => setItems((list) => list!.filter((_, i) => i !== index))}
              />
            )}
          </fieldset>
        )}
        <FormDialogActions onCancel={onClose} pending={update.isPending} submitTestId="link-save" />
      </form>
    </Dialog>
  );
}

function ItemList({
  items,
  onMove,
  onRemove,
}: {
  items: BundleItem[];
  onMove(from: number, to: number): void;
  onRemove(index: number): void;
}) {
  const { t } = useTranslation();
  const last = items.length <= 1;
  return (
    <>
      <ul className="divide-y divide-border rounded-lg border border-border" data-testid="bundle-items">
        {items.map((item, index) => (
          <li key={item.position} className="flex items-center gap-2 px-3 py-1.5" data-testid="bundle-item">
            <span className="min-w-0 flex-1 truncate font-mono text-sm" data-user-content="">
              {item.name}
            </span>
            {item.value === null && <Badge tone="warning">{t('admin.links.edit.gone')}</Badge>}
            {MOVES.map(({ by, label, className }) => (
              <Button
                key={by}
                variant="ghost"
                size="sm"
                className="px-2"
                disabled={index + by < 0 || index + by >= items.length}
                onClick={() => onMove(index, index + by)}
                aria-label={t(label, { name: item.name })}
              >
                <ArrowUpIcon className={`size-4 ${className}`} />
              </Button>
            ))}
            <Button
              variant="ghost"
              size="sm"
              className="px-2"
              disabled={last}
              onClick={() => onRemove(index)}
              aria-label={t('admin.links.edit.remove', { name: item.name })}
              data-testid="remove-bundle-item"
            >
              <TrashIcon className="size-4 text-danger-text" />
            </Button>
          </li>
        ))}
      </ul>
      {last && <p className="text-xs text-fg-muted">{t('admin.links.edit.lastItem')}</p>}
    </>
  );
}
