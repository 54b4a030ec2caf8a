/**
 * The storage configs: one card each with name, provider, bucket (and folder) or disk folder,
 * endpoint, quota, masked access key and last use, the default and "usable by API keys" badges,
 * and the test / make default / edit / delete actions. Cards reflow from one column of facts on
 * a phone to a row on a wide screen.
 */
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { Fact } from '../../../../components/fact.tsx';
import { Badge } from '../../../../components/badge.tsx';
import { Button } from '../../../../components/button.tsx';
import { CheckIcon, PencilIcon, ServerIcon, TrashIcon } from '../../../../components/icons.tsx';
import { formatDateTime } from '../../../../lib/i18n/format-date.ts';
import { useStorageConfigName } from '../../../../lib/i18n/storage-config-name.ts';
import type { StorageConfig } from '../api/types.ts';
import { PROVIDER_PRESETS, providerOf } from '../storage-form.ts';

export interface StorageConfigListProps {
  configs: StorageConfig[];
  onTest(config: StorageConfig): void;
  onSetDefault(config: StorageConfig): void;
  onEdit(config: StorageConfig): void;
  onDelete(config: StorageConfig): void;
  /** The config whose "make default" call is running. */
  settingDefaultId: string | null;
}

/** Where a config keeps its files: `bucket/folder` or the folder on the server's disk. */
function location(config: StorageConfig): string {
  if (config.driver === 'local') return config.root_path ?? '';
  if (config.driver === 'sftp' || config.driver === 'ftp') {
    const port = config.port ? `:${config.port}` : '';
    return `${config.username ? `${config.username}@` : ''}${config.host ?? ''}${port}${config.root ?? ''}`;
  }
  if (config.driver === 'webdav') {
    const folder = (config.default_folder ?? '').replace(/^\/+|\/+$/g, '');
    return `${config.endpoint_url ?? ''}${folder ? `/${folder}` : ''}`;
  }
  const folder = (config.default_folder ?? '').replace(/^\/+|\/+$/g, '');
  return folder ? `${config.bucket_name ?? ''}/${folder}` : (config.bucket_name ?? '');
}

/** Test, make default (unless it is), edit and delete. */
function ConfigActions({
  config,
  ...props
}: { config: StorageConfig } & Omit<StorageConfigListProps, 'configs'>) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const actions = [
    {
      testId: 'test-storage-config',
      icon: <CheckIcon className="size-4" />,
      text: t('admin.storage.test.open'),
      name: t('admin.storage.test.action', { name: storageName(config.name) }),
      run: props.onTest,
    },
    ...(config.is_default === 1
      ? []
      : [
          {
            testId: 'set-default-storage-config',
            icon: null,
            text: t('admin.storage.setDefault.open'),
            name: t('admin.storage.setDefault.action', { name: storageName(config.name) }),
            run: props.onSetDefault,
            disabled: props.settingDefaultId !== null,
          },
        ]),
    {
      testId: 'edit-storage-config',
      icon: <PencilIcon className="size-4" />,
      text: t('common.edit'),
      name: t('admin.storage.edit.action', { name: storageName(config.name) }),
      run: props.onEdit,
    },
    {
      testId: 'delete-storage-config',
      icon: <TrashIcon className="size-4 text-danger-text" />,
      text: t('common.delete'),
      name: t('admin.storage.delete.action', { name: storageName(config.name) }),
      run: props.onDelete,
    },
  ];
  return (
    <div className="flex flex-wrap gap-2">
      {actions.map((action) => (
        <Button
          key={action.testId}
          variant="secondary"
          size="sm"
          data-testid={action.testId}
          disabled={'disabled' in action ? action.disabled : false}
          onClick={() => action.run(config)}
          aria-label={action.name}
        >
          {action.icon}
          {action.text}
        </Button>
      ))}
    </div>
  );
}

export function StorageConfigList(props: StorageConfigListProps) {
  const { t } = useTranslation();
  const storageName = useStorageConfigName();
  const { configs } = props;
  return (
    <ul className="space-y-3" aria-label={t('admin.storage.listLabel')}>
      {configs.map((config) => {
        const provider = PROVIDER_PRESETS[providerOf(config.provider_type, config.driver)];
        const local = config.driver === 'local';
        const s3 = config.driver === 's3';
        return (
          <li key={config.id} data-testid="storage-config-row" data-config-name={config.name}>
            <article
              className="rounded-lg border border-border bg-surface p-4"
              aria-labelledby={`storage-config-${config.id}`}
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="flex min-w-0 items-start gap-3">
                  <ServerIcon className="mt-0.5 size-5 shrink-0 text-fg-muted" />
                  <div className="min-w-0">
                    <h3
                      id={`storage-config-${config.id}`}
                      className="font-semibold break-words text-fg"
                      data-user-content=""
                    >
                      {storageName(config.name)}
                    </h3>
                    <div className="mt-1 flex flex-wrap gap-1">
                      <Badge tone="muted" testId="storage-provider">
                        {t(`admin.storage.providers.${provider.id}`)}
                      </Badge>
                      {config.is_default === 1 && (
                        <Badge tone="accent" testId="storage-default">
                          {t('admin.storage.badges.default')}
                        </Badge>
                      )}
                      {config.is_public === 1 ? (
                        <Badge tone="success" testId="storage-public">
                          {t('admin.storage.badges.public')}
                        </Badge>
                      ) : (
                        <Badge tone="muted">{t('admin.storage.badges.adminOnly')}</Badge>
                      )}
                    </div>
                  </div>
                </div>
                <ConfigActions config={config} {...props} />
              </div>
              <dl className="mt-3 grid grid-cols-1 gap-3 border-t border-border pt-3 sm:grid-cols-2 xl:grid-cols-4">
                <Fact
                  label={t(
                    local
                      ? 'admin.storage.fields.rootPath'
                      : s3
                        ? 'admin.storage.columns.location'
                        : 'admin.storage.columns.server',
                  )}
                  // Without an endpoint and a key to show, the address gets their room.
                  className={s3 ? '' : 'xl:col-span-2'}
                >
                  <span className="font-mono break-all" data-user-content="" data-testid="storage-location">
                    {location(config)}
                  </span>
                </Fact>
                {s3 && (
                  <Fact label={t('admin.storage.fields.endpoint')}>
                    <span className="font-mono break-all" data-user-content="">
                      {config.endpoint_url || t('admin.storage.standardEndpoint')}
                    </span>
                  </Fact>
                )}
                {s3 && (
                  <Fact label={t('admin.storage.fields.accessKeyId')}>
                    <span
                      className="font-mono break-all"
                      data-user-content=""
                      data-testid="storage-access-key"
                    >
                      {config.access_key_id_masked ?? '—'}
                    </span>
                  </Fact>
                )}
                <Fact label={t('admin.storage.fields.quota')}>
                  {config.total_storage_bytes ? (
                    <span data-user-content="">{formatBytes(config.total_storage_bytes)}</span>
                  ) : (
                    t('admin.storage.noQuota')
                  )}
                </Fact>
                <Fact label={t('admin.storage.columns.lastUsed')}>
                  {config.last_used ? (
                    <time dateTime={config.last_used}>{formatDateTime(config.last_used)}</time>
                  ) : (
                    t('admin.storage.neverUsed')
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
