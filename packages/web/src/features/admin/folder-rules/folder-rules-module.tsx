/**
 * Admin module "folder-rules" (docs/architecture.md, "Folder rules"): per folder a README above and
 * below its listing, hide patterns and a password, each inherited by the folders below or not;
 * listed, created and edited in a dialog, deleted after a confirmation.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FsMetaRule } from '@cubby/shared';
import { Badge } from '../../../components/badge.tsx';
import { PencilIcon, TrashIcon } from '../../../components/icons.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { useDeleteFolderRule, useFolderRules } from './api/folder-rules-api.ts';
import { FolderRuleDialog } from './components/folder-rule-dialog.tsx';
import { ManagedListCard } from '../components/managed-list-card.tsx';
import { RevokeConfirm } from '../components/revoke-confirm.tsx';

type Editing = { kind: 'create' } | { kind: 'edit'; rule: FsMetaRule };

export default function FolderRulesModule() {
  const { t } = useTranslation();
  const rules = useFolderRules();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<FsMetaRule | null>(null);
  const remove = useDeleteFolderRule();

  return (
    <ManagedListCard
      title={t('admin.modules.folderRules')}
      description={t('admin.descriptions.folderRules')}
      create={{
        label: t('admin.folderRules.create.open'),
        testId: 'create-folder-rule',
        onClick: () => setEditing({ kind: 'create' }),
      }}
      list={rules}
      items={rules.data}
      empty={{
        title: t('admin.folderRules.empty.title'),
        description: t('admin.folderRules.empty.description'),
        testId: 'folder-rules-empty',
      }}
      rows={(items) => (
        <ul className="divide-y divide-border">
          {items.map((rule) => (
            <li
              key={rule.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="folder-rule-row"
            >
              <div className="min-w-0 space-y-1">
                <p className="font-mono text-sm break-all text-fg" data-user-content="">
                  {rule.path}
                </p>
                <div className="flex flex-wrap gap-1.5">
                  {(rule.header_markdown || rule.footer_markdown) && (
                    <Badge tone="muted">{t('admin.folderRules.badges.readme')}</Badge>
                  )}
                  {rule.hide_patterns.length > 0 && (
                    <Badge tone="muted">
                      {t('admin.folderRules.badges.hidden', { count: rule.hide_patterns.length })}
                    </Badge>
                  )}
                  {rule.has_password && (
                    <Badge tone="warning">{t('admin.folderRules.badges.password')}</Badge>
                  )}
                </div>
              </div>
              <RowActions
                actions={[
                  {
                    testId: 'edit-folder-rule',
                    icon: <PencilIcon className="size-4" />,
                    text: t('common.edit'),
                    name: t('admin.folderRules.editNamed', { path: rule.path }),
                    onClick: () => setEditing({ kind: 'edit', rule }),
                  },
                  {
                    testId: 'delete-folder-rule',
                    icon: <TrashIcon className="size-4" />,
                    text: t('common.delete'),
                    name: t('admin.folderRules.deleteNamed', { path: rule.path }),
                    onClick: () => setDeleting(rule),
                  },
                ]}
              />
            </li>
          ))}
        </ul>
      )}
    >
      {editing && (
        <FolderRuleDialog
          key={editing.kind === 'edit' ? editing.rule.id : 'create'}
          rule={editing.kind === 'edit' ? editing.rule : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <RevokeConfirm
          id={deleting.id}
          mutation={remove}
          title={t('admin.folderRules.delete.title')}
          description={t('admin.folderRules.delete.description', { path: deleting.path })}
          confirmLabel={t('admin.folderRules.delete.confirm')}
          doneMessage={t('admin.folderRules.delete.done', { path: deleting.path })}
          onClose={() => setDeleting(null)}
        />
      )}
    </ManagedListCard>
  );
}
