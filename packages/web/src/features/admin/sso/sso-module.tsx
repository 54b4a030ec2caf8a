/**
 * Admin module "sso" (docs/accounts.md, "Single sign-on"): the OpenID Connect providers people may
 * sign in with — each with the redirect URI to register at the provider (with a copy button) —
 * created and edited in a dialog, and deleted after a confirmation; below them, the LDAP directory
 * (ldap-section.tsx).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OidcProviderView } from '@cubby/shared';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Fact } from '../../../components/fact.tsx';
import { PencilIcon, PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { useConfirmation } from '../../shares/index.ts';
import { useDeleteSsoProvider, useSsoProviders } from './api/oidc-providers.ts';
import { LdapSection } from './ldap-section.tsx';
import { SsoDialog } from './sso-dialog.tsx';

type Editing = { kind: 'create' } | { kind: 'edit'; provider: OidcProviderView };

export default function SsoModule() {
  return (
    <div className="space-y-6">
      <OidcProviders />
      <LdapSection />
    </div>
  );
}

function OidcProviders() {
  const { t } = useTranslation();
  const providers = useSsoProviders();
  const [editing, setEditing] = useState<Editing | null>(null);
  const deletion = useConfirmation<OidcProviderView>();
  const remove = useDeleteSsoProvider();

  const confirmDelete = () => {
    const provider = deletion.confirming;
    if (!provider) return;
    deletion.retry();
    remove.mutate(provider.id, {
      onSuccess: () => {
        showToast(t('admin.sso.delete.done', { name: provider.name }), 'success');
        deletion.close();
      },
      onError: deletion.fail,
    });
  };

  return (
    <Card
      as="h1"
      title={t('admin.modules.sso')}
      description={t('admin.descriptions.sso')}
      actions={
        <Button onClick={() => setEditing({ kind: 'create' })} data-testid="create-sso-provider">
          <PlusIcon className="size-4" />
          {t('admin.sso.create.open')}
        </Button>
      }
    >
      {providers.isPending ? (
        <PageLoading />
      ) : providers.isError ? (
        <LoadError error={providers.error} onRetry={() => void providers.refetch()} />
      ) : providers.data.length === 0 ? (
        <EmptyState
          title={t('admin.sso.empty.title')}
          description={t('admin.sso.empty.description')}
          testId="sso-empty"
        />
      ) : (
        <ul className="space-y-3">
          {providers.data.map((provider) => (
            <li key={provider.id} className="rounded-lg border border-border p-4" data-testid="sso-provider">
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <h2 className="flex min-w-0 flex-wrap items-center gap-2 font-semibold text-fg">
                  <span className="break-words" data-user-content="">
                    {provider.name}
                  </span>
                  <Badge tone={provider.enabled ? 'success' : 'muted'}>
                    {provider.enabled ? t('admin.sso.status.enabled') : t('admin.sso.status.disabled')}
                  </Badge>
                </h2>
                <RowActions
                  actions={[
                    {
                      testId: 'edit-sso-provider',
                      icon: <PencilIcon className="size-4" />,
                      text: t('common.edit'),
                      name: t('admin.sso.edit.name', { name: provider.name }),
                      onClick: () => setEditing({ kind: 'edit', provider }),
                    },
                    {
                      testId: 'delete-sso-provider',
                      icon: <TrashIcon className="size-4" />,
                      text: t('common.delete'),
                      name: t('admin.sso.delete.name', { name: provider.name }),
                      onClick: () => deletion.open(provider),
                    },
                  ]}
                />
              </div>
              <dl className="grid gap-3 sm:grid-cols-2">
                <Fact label={t('admin.sso.fields.issuer')}>
                  <span className="font-mono break-all" data-user-content="">
                    {provider.issuer}
                  </span>
                </Fact>
                <Fact label={t('admin.sso.fields.access')}>
                  <span className="flex flex-wrap gap-1.5">
                    <Badge tone="muted">
                      {provider.allow_signup ? t('admin.sso.facts.signup') : t('admin.sso.facts.noSignup')}
                    </Badge>
                    {provider.link_by_email && <Badge tone="muted">{t('admin.sso.facts.linkByEmail')}</Badge>}
                    {provider.role_claim && (
                      <Badge tone="muted">
                        {t('admin.sso.facts.roleClaim', { claim: provider.role_claim })}
                      </Badge>
                    )}
                  </span>
                </Fact>
                <Fact label={t('admin.sso.fields.redirectUri')} className="sm:col-span-2">
                  <span className="flex flex-wrap items-center gap-2">
                    <code className="font-mono break-all" data-testid="sso-redirect-uri" data-user-content="">
                      {provider.redirect_uri}
                    </code>
                    <CopyButton text={provider.redirect_uri} label={t('admin.sso.copyRedirect')}>
                      {t('common.copy')}
                    </CopyButton>
                  </span>
                </Fact>
              </dl>
            </li>
          ))}
        </ul>
      )}

      {editing && (
        <SsoDialog
          key={editing.kind === 'edit' ? editing.provider.id : 'create'}
          provider={editing.kind === 'edit' ? editing.provider : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {deletion.confirming && (
        <ConfirmDialog
          title={t('admin.sso.delete.title')}
          description={t('admin.sso.delete.description', { name: deletion.confirming.name })}
          confirmLabel={t('admin.sso.delete.confirm')}
          onConfirm={confirmDelete}
          onClose={deletion.close}
          pending={remove.isPending}
          error={deletion.error}
          testId="confirm-dialog"
        />
      )}
    </Card>
  );
}
