/** A paste's content in a dialog, rendered by the same sanitising renderer as the paste view. */
import { useTranslation } from 'react-i18next';
import type { PasteSummary } from '@cubby/shared';
import { Alert } from '../../../../components/alert.tsx';
import { Dialog } from '../../../../components/dialog.tsx';
import { PageLoading } from '../../../../components/spinner.tsx';
import { MarkdownView } from '../../../../lib/markdown/markdown-view.tsx';
import { useManagementScope, usePasteDetail } from '../../../pastes/index.ts';

export function PreviewPasteDialog({ paste, onClose }: { paste: PasteSummary; onClose(): void }) {
  const { t } = useTranslation();
  const scope = useManagementScope();
  const detail = usePasteDetail(scope, paste.id);
  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title={t('textManagement.preview.title', { slug: paste.slug })}
      testId="preview-paste-dialog"
    >
      {detail.isPending ? (
        <PageLoading />
      ) : detail.isError ? (
        <Alert tone="error">{detail.error.message}</Alert>
      ) : detail.data.content.trim() === '' ? (
        <p className="text-sm text-fg-muted">{t('textManagement.preview.empty')}</p>
      ) : detail.data.format === 'markdown' ? (
        <MarkdownView content={detail.data.content} testId="preview-content" />
      ) : (
        <pre
          data-testid="preview-content"
          data-user-content=""
          className="font-mono text-sm break-words whitespace-pre-wrap text-fg"
        >
          {detail.data.content}
        </pre>
      )}
    </Dialog>
  );
}
