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
import { CopyButton } from '../../../components/copy-button.tsx';
import { Fact } from '../../../components/fact.tsx';
import { PencilIcon, TrashIcon } from '../../../components/icons.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { useDeleteSsoProvider, useSsoProviders } from './api/oidc-providers.ts';
import { LdapSection } from './ldap-section.tsx';
import { SsoDialog } from './sso-dialog.tsx';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

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
  const [deleting, setDeleting] = useState<OidcProviderView | null>(null);
  const remove = useDeleteSsoProvider();

  return (
    <ManagedListCard
      title={t('admin.modules.sso')}
      description={t('admin.descriptions.sso')}
      create={{
        label: t('admin.sso.create.open'),
        testId: 'create-sso-provider',
        onClick: () => setEditing({ kind: 'create' }),
      }}
      list={providers}
      items={providers.data}
      empty={{
        title: t('admin.sso.empty.title'),
        description: t('admin.sso.empty.description'),
        testId: 'sso-empty',
      }}
      rows={(items) => (
        <ul className="space-y-3">
          {items.map((provider) => (
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
                      onClick: () => setDeleting(provider),
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
    >
      {editing && (
        <SsoDialog
          key={editing.kind === 'edit' ? editing.provider.id : 'create'}
          provider={editing.kind === 'edit' ? editing.provider : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <RevokeConfirm
          id={deleting.id}
          mutation={remove}
          title={t('admin.sso.delete.title')}
          description={t('admin.sso.delete.description', { name: deleting.name })}
          confirmLabel={t('admin.sso.delete.confirm')}
          doneMessage={t('admin.sso.delete.done', { name: deleting.name })}
          onClose={() => setDeleting(null)}
        />
      )}
    </ManagedListCard>
  );
}
