/**
 * The headings of a Markdown paste as anchor links: a sidebar on wide screens, a collapsible list
 * above the text on narrow ones.
 */
import { useTranslation } from 'react-i18next';
import type { Heading } from '../../../lib/markdown/render-markdown.ts';
import { useMediaQuery } from '../../../lib/use-media-query.ts';

export function PasteOutline({ headings }: { headings: Heading[] }) {
  const { t } = useTranslation();
  const wide = useMediaQuery('(min-width: 1024px)');
  const top = Math.min(...headings.map((heading) => heading.level));
  const list = (
    <ol className="mt-2 space-y-1 text-sm" data-user-content="">
      {headings.map((heading) => (
        <li key={heading.id} style={{ paddingInlineStart: `${(heading.level - top) * 0.75}rem` }}>
          <a
            href={`#${heading.id}`}
            className="block truncate rounded px-1 py-0.5 text-fg-muted hover:bg-surface-sunken hover:text-fg"
            title={heading.text}
          >
            {heading.text}
          </a>
        </li>
      ))}
    </ol>
  );
  return (
    <nav aria-label={t('pasteView.outline')} data-testid="paste-outline" className="min-w-0">
      {wide ? (
        <div className="sticky top-4 rounded-xl border border-border bg-surface p-4 shadow-card">
          <h2 className="text-sm font-semibold text-fg">{t('pasteView.outline')}</h2>
          {list}
        </div>
      ) : (
        <details className="rounded-xl border border-border bg-surface px-4 py-3 shadow-card">
          <summary className="cursor-pointer text-sm font-semibold text-fg">{t('pasteView.outline')}</summary>
          {list}
        </details>
      )}
    </nav>
  );
}
