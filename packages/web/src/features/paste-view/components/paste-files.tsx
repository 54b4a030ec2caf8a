/**
 * The files of a multi-file paste (docs/api.md, "Multi-file pastes"), each under its name with its
 * language, copy and raw actions: Markdown rendered as the paste view renders it, every other
 * language as a fenced code block, which the Markdown view highlights (lib/markdown/highlight.ts)
 * for the languages it knows and shows plain and monospaced otherwise.
 */
import { useTranslation } from 'react-i18next';
import type { PasteFile } from '@cubby/shared';
import { Badge } from '../../../components/badge.tsx';
import { buttonClasses } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { MarkdownView } from '../../../lib/markdown/markdown-view.tsx';
import { rawPasteUrl } from '../../pastes/index.ts';

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenced(content: string, language: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language === 'text' ? '' : language}\n${content}\n${fence}`;
}

export function PasteFiles({
  slug,
  files,
  password,
}: {
  slug: string;
  files: PasteFile[];
  password?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4" data-testid="paste-files">
      {files.map((file, index) => {
        const headingId = `paste-file-${index}`;
        return (
          <section
            key={file.name}
            aria-labelledby={headingId}
            className="min-w-0 overflow-hidden rounded-xl border border-border bg-surface shadow-card"
            data-testid="paste-file"
          >
            <header className="flex flex-wrap items-center justify-between gap-2 border-b border-border px-4 py-2">
              <div className="flex min-w-0 items-center gap-2">
                <h2
                  id={headingId}
                  className="font-mono text-sm font-medium break-all text-fg"
                  data-user-content=""
                >
                  {file.name}
                </h2>
                <Badge tone="muted">{t(`pastes.languages.${file.language}`)}</Badge>
              </div>
              <div className="flex gap-2">
                <CopyButton
                  text={file.content}
                  label={t('pasteView.actions.copyFile', { name: file.name })}
                  testId="copy-file"
                >
                  {t('pasteView.actions.copy')}
                </CopyButton>
                <a
                  href={rawPasteUrl(slug, password, file.name)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={buttonClasses('secondary', 'sm')}
                  aria-label={t('pasteView.actions.rawFile', { name: file.name })}
                  data-testid="raw-file"
                >
                  {t('pasteView.actions.raw')}
                </a>
              </div>
            </header>
            <div className="px-4 py-3">
              <MarkdownView
                content={file.language === 'markdown' ? file.content : fenced(file.content, file.language)}
                testId="paste-file-content"
              />
            </div>
          </section>
        );
      })}
    </div>
  );
}
