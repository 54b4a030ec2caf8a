/**
 * Previews that need the file's text (a lazy chunk): the first MiB is read with `Range`, then shown
 * as highlighted code or plain text (highlight.js loads only for code, as in the paste view),
 * rendered Markdown (the app's sanitising renderer, also lazy), or HTML inside an `<iframe
 * sandbox>` with no permissions at all — its scripts never run and it has no access to this origin.
 */
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { PageLoading } from '../../../components/spinner.tsx';
import { HIGHLIGHT_MAX_CHARS } from '../../../lib/markdown/highlight-limit.ts';
import { codeLanguage, type PreviewKind } from '../preview-kind.ts';
import { TEXT_PREVIEW_LIMIT, readTextHead, type TextHead } from '../read-text-head.ts';

const MarkdownView = lazy(() =>
  import('../../../lib/markdown/markdown-view.tsx').then((module) => ({ default: module.MarkdownView })),
);

export interface TextFilePreviewProps {
  url: string;
  kind: Extract<PreviewKind, 'text' | 'markdown' | 'html'>;
  filename: string;
  size: number;
  /** Reading failed (expired link, gone…). */
  onFailed(): void;
}

function CodeView({ text, filename }: { text: string; filename: string }) {
  const ref = useRef<HTMLElement>(null);
  const language = codeLanguage(filename);
  useEffect(() => {
    const code = ref.current;
    if (!code || !language || text.length > HIGHLIGHT_MAX_CHARS) return;
    const controller = new AbortController();
    void import('../../../lib/markdown/highlight.ts').then(({ highlightCode }) =>
      highlightCode(code.parentElement!.parentElement!, controller.signal),
    );
    return () => controller.abort();
  }, [text, language]);
  return (
    <div className="markdown-body" data-user-content="">
      <pre className="max-h-[70vh] !my-0">
        <code ref={ref} className={language ? `language-${language}` : undefined} data-testid="text-preview">
          {text}
        </code>
      </pre>
    </div>
  );
}

export default function TextFilePreview({ url, kind, filename, size, onFailed }: TextFilePreviewProps) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<{ url: string; head: TextHead } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    readTextHead(url, { size, signal: controller.signal }).then(
      (head) => setLoaded({ url, head }),
      () => {
        if (!controller.signal.aborted) onFailed();
      },
    );
    return () => controller.abort();
  }, [url, size, onFailed]);

  if (loaded?.url !== url) return <PageLoading />;
  const { text, truncated } = loaded.head;
  return (
    <div className="space-y-3">
      {truncated && (
        <Alert tone="info" testId="preview-truncated">
          {t('fileView.preview.truncated', { size: formatBytes(TEXT_PREVIEW_LIMIT) })}
        </Alert>
      )}
      {kind === 'markdown' && (
        <Suspense fallback={<PageLoading />}>
          <MarkdownView content={text} testId="markdown-preview" />
        </Suspense>
      )}
      {kind === 'html' && (
        <iframe
          // No allow-* token: no scripts, no forms, no same-origin access, no top navigation.
          sandbox=""
          srcDoc={text}
          title={t('fileView.preview.htmlTitle')}
          referrerPolicy="no-referrer"
          className="h-[70vh] w-full rounded-md border border-border bg-white"
          data-testid="html-preview"
        />
      )}
      {kind === 'text' && <CodeView text={text} filename={filename} />}
    </div>
  );
}
