/**
 * The key list: one card per key with name, masked key, permissions, base path, expiry ("never"
 * for the far-future date), last use, and edit / delete actions. Cards reflow from one column on
 * a phone to a row of facts on a wide screen.
 */
import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@cubby/shared';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { PencilIcon, TrashIcon } from '../../../../components/icons.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { isNeverExpiring } from '../key-form.ts';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-fg-muted">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-fg">{children}</dd>
    </div>
  );
}

export function KeyList({
  keys,
  onEdit,
  onDelete,
  now,
}: {
  keys: ApiKeyView[];
  /** When the list was fetched: keys whose expiry is before it are marked expired. */
  now: number;
  onEdit(key: ApiKeyView): void;
  onDelete(key: ApiKeyView): void;
}) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-3" aria-label={t('keys.listLabel')}>
      {keys.map((key) => {
        const never = isNeverExpiring(key.expires_at);
        const expired = !never && new Date(key.expires_at).getTime() <= now;
        const permissions = [
          key.text_permission && t('keys.permissions.text'),
          key.file_permission && t('keys.permissions.file'),
          key.mount_permission && t('keys.permissions.mount'),
        ].filter((value): value is string => Boolean(value));
        return (
          <li key={key.id} data-testid="api-key-row" data-key-name={key.name}>
            <article className="rounded-lg border border-border bg-surface p-4" aria-label={key.name}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="font-semibold break-words text-fg">{key.name}</h3>
                  <p className="font-mono text-sm break-all text-fg-muted" data-testid="key-masked">
                    {key.key_masked}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    data-testid="edit-key"
                    onClick={() => onEdit(key)}
                    aria-label={t('keys.edit.action', { name: key.name })}
                  >
                    <PencilIcon className="size-4" />
                    {t('common.edit')}
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    data-testid="delete-key"
                    onClick={() => onDelete(key)}
                    aria-label={t('keys.delete.action', { name: key.name })}
                  >
                    <TrashIcon className="size-4 text-danger-text" />
                    {t('common.delete')}
                  </Button>
                </div>
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-border pt-3 xl:grid-cols-5">
                <Fact label={t('keys.fields.permissions')}>
                  <span className="flex flex-wrap gap-1">
                    {permissions.length > 0 ? (
                      permissions.map((name) => <Badge key={name}>{name}</Badge>)
                    ) : (
                      <Badge tone="muted">{t('keys.permissions.none')}</Badge>
                    )}
                  </span>
                </Fact>
                <Fact label={t('keys.fields.basePath')}>
                  <span className="font-mono">{key.basic_path}</span>
                </Fact>
                <Fact label={t('keys.fields.expiry')}>
                  {never ? (
                    t('keys.never')
                  ) : (
                    <span className="inline-flex flex-wrap items-center gap-1.5">
                      <time dateTime={key.expires_at}>{formatDateTime(key.expires_at)}</time>
                      {expired && <Badge tone="danger">{t('keys.expired')}</Badge>}
                    </span>
                  )}
                </Fact>
                <Fact label={t('keys.fields.created')}>
                  <time dateTime={key.created_at}>{formatDateTime(key.created_at)}</time>
                </Fact>
                <Fact label={t('keys.fields.lastUsed')}>
                  {key.last_used ? (
                    <time dateTime={key.last_used}>{formatDateTime(key.last_used)}</time>
                  ) : (
                    t('keys.neverUsed')
                  )}
                </Fact>
              </dl>
            </article>
          </li>
        );
      })}
    </ul>
  );
}
