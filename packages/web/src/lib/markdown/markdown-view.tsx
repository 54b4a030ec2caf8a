/**
 * Shows Markdown content: rendered and sanitised synchronously, then enhanced (code highlighting,
 * math, diagrams) by lazy chunks when the content uses them. The container is marked as user
 * content (`data-user-content`), which the i18n key check skips.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useThemeStore } from '../theme/theme-store.ts';
import { enhanceRendered } from './enhance.ts';
import { renderMarkdown, type Heading } from './render-markdown.ts';

export interface MarkdownViewProps {
  content: string;
  className?: string;
  /** Called with the headings whenever the content changes (for an outline). */
  onHeadings?(headings: Heading[]): void;
  testId?: string;
}

export function MarkdownView({ content, className = '', onHeadings, testId }: MarkdownViewProps) {
  const rendered = useMemo(() => renderMarkdown(content), [content]);
  const themeMode = useThemeStore((state) => state.mode);
  // The applied theme (auto resolves through the system preference) is the class on <html>.
  const dark = useMemo(
    () => themeMode !== 'light' && document.documentElement.classList.contains('dark'),
    [themeMode],
  );
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    onHeadings?.(rendered.headings);
  }, [rendered, onHeadings]);

  useEffect(() => {
    const root = ref.current;
    const { code, math, mermaid } = rendered.needs;
    if (!root || !(code || math || mermaid)) return;
    const controller = new AbortController();
    void enhanceRendered(root, rendered.needs, { dark, signal: controller.signal });
    return () => controller.abort();
  }, [rendered, dark]);

  return (
    <div
      // A new diagram theme needs fresh markup, so the element is replaced when the theme changes.
      key={rendered.needs.mermaid && dark ? 'dark' : 'light'}
      ref={ref}
      data-user-content=""
      data-testid={testId}
      className={`markdown-body ${className}`}
      dangerouslySetInnerHTML={{ __html: rendered.html }}
    />
  );
}
