/**
 * Admin module "shared-links" (docs/api.md "Bundles", "Folder shares"): the bundles and the folder
 * links made so far — the admin's everyone's, a member's or key's their own, as the server decides
 * (modules/shares ownShares/managedShares) — each with its state, what it holds, views, expiry and
 * link, an edit dialog and revoke (after a confirmation; the link answers 410 at once). A key sees
 * the bundles when it may make them (`file` or `text`) and the folder links when it has `mount`.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Card } from '../../../components/card.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ListBody, type ListQueryState } from '../../../components/list-states.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { showToast } from '../../../components/toast/toast-store.ts';
import { useAuthStore } from '../../auth/index.ts';
import { useConfirmation } from '../../shares/index.ts';
import { BUNDLE_PAGE_SIZE, type LinkKind, useBundles, useFolderShares, useRevokeLink } from './api.ts';
import { LinkDialog } from './components/link-dialog.tsx';
import { LinkRow, type ManagedLink } from './components/link-row.tsx';

interface Chosen {
  kind: LinkKind;
  link: ManagedLink;
  name: string;
}

export default function SharedLinksModule() {
  const { t } = useTranslation();
  const { authType, permissions } = useAuthStore(
    useShallow((state) => ({ authType: state.authType, permissions: state.apiKeyPermissions })),
  );
  const person = authType !== 'apikey';
  const [page, setPage] = useState(1);
  const bundles = useBundles(page, person || permissions.file || permissions.text);
  const folders = useFolderShares(person || permissions.mount);
  const [editing, setEditing] = useState<Chosen | null>(null);
  const revocation = useConfirmation<Chosen>();
  const revoke = useRevokeLink();
  const { confirming } = revocation;

  const confirmRevoke = () => {
    if (!confirming) return;
    revocation.retry();
    revoke.mutate(
      { kind: confirming.kind, slug: confirming.link.slug },
      {
        onSuccess: () => {
          showToast(t('admin.links.revoke.done', { name: confirming.name }), 'success');
          revocation.close();
        },
        onError: revocation.fail,
      },
    );
  };
  const row = (chosen: Chosen, holds: { label: string; value: ReactNode }) => (
    <LinkRow
      key={chosen.link.id}
      link={chosen.link}
      name={chosen.name}
      holds={holds}
      testId={chosen.kind === 'bundle' ? 'bundle-row' : 'folder-link-row'}
      onEdit={() => setEditing(chosen)}
      onRevoke={() => revocation.open(chosen)}
    />
  );

  return (
    <Card as="h1" title={t('admin.modules.sharedLinks')} description={t('admin.descriptions.sharedLinks')}>
      <div className="space-y-8">
        {(person || permissions.file || permissions.text) && (
          <LinkSection
            id="bundles"
            title={t('admin.links.bundles.title')}
            description={t('admin.links.bundles.description')}
            query={bundles}
            empty={{
              title: t('admin.links.bundles.empty'),
              description: t('admin.links.bundles.emptyDescription'),
              testId: 'bundles-empty',
            }}
            count={bundles.data?.bundles.length ?? 0}
            footer={
              bundles.data && bundles.data.pagination.total > BUNDLE_PAGE_SIZE ? (
                <Pagination
                  page={page}
                  totalPages={Math.ceil(bundles.data.pagination.total / BUNDLE_PAGE_SIZE)}
                  total={bundles.data.pagination.total}
                  onPageChange={setPage}
                />
              ) : null
            }
          >
            {bundles.data?.bundles.map((bundle) =>
              row(
                { kind: 'bundle', link: bundle, name: bundle.title ?? bundle.slug },
                {
                  label: t('admin.links.facts.items'),
                  value: t('admin.links.itemCount', { count: bundle.item_count }),
                },
              ),
            )}
          </LinkSection>
        )}
        {(person || permissions.mount) && (
          <LinkSection
            id="folder-links"
            title={t('admin.links.folders.title')}
            description={t('admin.links.folders.description')}
            query={folders}
            empty={{
              title: t('admin.links.folders.empty'),
              description: t('admin.links.folders.emptyDescription'),
              testId: 'folder-links-empty',
            }}
            count={folders.data?.length ?? 0}
          >
            {folders.data?.map((share) =>
              row(
                { kind: 'folder', link: share, name: share.title ?? share.path },
                {
                  label: t('admin.links.facts.path'),
                  value: (
                    <span className="font-mono break-all" data-user-content="">
                      {share.path}
                    </span>
                  ),
                },
              ),
            )}
          </LinkSection>
        )}
      </div>
      {editing && (
        <LinkDialog
          key={`${editing.kind}:${editing.link.id}`}
          kind={editing.kind}
          link={editing.link}
          name={editing.name}
          onClose={() => setEditing(null)}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={t(
            confirming.kind === 'bundle'
              ? 'admin.links.revoke.bundleTitle'
              : 'admin.links.revoke.folderTitle',
          )}
          description={t('admin.links.revoke.description', { name: confirming.name })}
          confirmLabel={t('admin.links.revoke.confirm')}
          onConfirm={confirmRevoke}
          onClose={revocation.close}
          pending={revoke.isPending}
          error={revocation.error}
          testId="confirm-dialog"
        />
      )}
    </Card>
  );
}

/** One kind of link: its heading, then the list (or its loading, error or empty state) and pages. */
function LinkSection({
  id,
  title,
  description,
  query,
  empty,
  count,
  footer,
  children,
}: {
  id: string;
  title: string;
  description: string;
  query: ListQueryState;
  empty: { title: string; description: string; testId: string };
  count: number;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} data-testid={`${id}-section`}>
      <h2 id={`${id}-heading`} className="text-base font-semibold text-fg">
        {title}
      </h2>
      <p className="mb-3 text-sm text-fg-muted">{description}</p>
      <ListBody query={query} count={count} empty={empty}>
        <ul className="space-y-3" aria-label={title}>
          {children}
        </ul>
      </ListBody>
      {footer && <div className="mt-4 border-t border-border pt-4">{footer}</div>}
    </section>
  );
}
