/**
 * "Copy as" for a created share: the Markdown source, the rendered (sanitised) HTML, or the plain
 * text a reader sees. Plain text is read through DOMParser, which neither loads nor runs anything.
 */
import type { PasteFormat } from '@cubby/shared';
import { escapeHtml, renderMarkdown } from '../../lib/markdown/render-markdown.ts';

export type CopyFormat = 'markdown' | 'html' | 'text';

export function contentAs(target: CopyFormat, content: string, format: PasteFormat): string {
  if (target === 'markdown' || (target === 'text' && format === 'text')) return content;
  const html = format === 'markdown' ? renderMarkdown(content).html : `<pre>${escapeHtml(content)}</pre>`;
  if (target === 'html') return html;
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return (body.innerText || body.textContent || '').trim();
}
