/**
 * Markdown to safe HTML: `marked` with GitHub-flavoured Markdown (tables, task lists,
 * strikethrough, autolinks), `$…$` / `$$…$$` math and ```mermaid blocks turned into marker
 * elements that the lazy enhancers render later, then {@link sanitizeContentHtml}. Synchronous and
 * light, so the paste view shows text as soon as it has it; highlight.js, KaTeX and Mermaid load
 * only for content that uses them (see enhance.ts).
 */
import { Marked, type TokenizerAndRendererExtension, type Tokens } from 'marked';
import { sanitizeContentHtml, type Heading } from './sanitize.ts';

export type { Heading } from './sanitize.ts';

export interface RenderedMarkdown {
  html: string;
  headings: Heading[];
  /** Which lazy enhancers the content needs. */
  needs: { code: boolean; math: boolean; mermaid: boolean };
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

const mathBlock: TokenizerAndRendererExtension = {
  name: 'mathBlock',
  level: 'block',
  start: (src) => src.match(/^\$\$/m)?.index,
  tokenizer(src) {
    const match = /^\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/.exec(src);
    if (match) return { type: 'mathBlock', raw: match[0], text: match[1]!.trim() };
    return undefined;
  },
  renderer: (token) => `<div class="math-block">${escapeHtml(String(token.text))}</div>\n`,
};

const mathInline: TokenizerAndRendererExtension = {
  name: 'mathInline',
  level: 'inline',
  start: (src) => {
    const index = src.indexOf('$');
    return index < 0 ? undefined : index;
  },
  tokenizer(src) {
    // $$…$$ inline, or $…$ that neither starts nor ends with a space and is not followed by a digit
    // (so "it costs $5 and $6" stays text).
    const match = /^\$\$([^$]+?)\$\$|^\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)/.exec(src);
    if (!match) return undefined;
    const display = match[1] !== undefined;
    return { type: 'mathInline', raw: match[0], text: (match[1] ?? match[2])!, display };
  },
  renderer: (token) =>
    `<span class="${token.display ? 'math-block' : 'math-inline'}">${escapeHtml(String(token.text))}</span>`,
};

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  extensions: [mathBlock, mathInline],
  renderer: {
    code(token: Tokens.Code) {
      const lang = (token.lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      if (lang === 'mermaid')
        return `<div class="mermaid-block"><pre>${escapeHtml(token.text)}</pre></div>\n`;
      const cls = /^[\w+#-]{1,40}$/.test(lang) ? ` class="language-${lang}"` : '';
      return `<pre><code${cls}>${escapeHtml(token.text)}</code></pre>\n`;
    },
    listitem(item: Tokens.ListItem) {
      if (!item.task) return false;
      const box = `<input type="checkbox" disabled${item.checked ? ' checked' : ''}> `;
      // The default renderer puts the box in; ours only adds the marker class.
      const body = this.parser.parse(item.tokens, Boolean(item.loose));
      return `<li class="task-list-item">${body.startsWith('<p>') ? body.replace('<p>', `<p>${box}`) : box + body}</li>\n`;
    },
    checkbox: () => '',
  },
});

/** Markdown to HTML before sanitising: never put this on a page (exported for tests). */
export function markdownToUnsafeHtml(source: string): string {
  return marked.parse(source, { async: false });
}

/** Renders Markdown to sanitised HTML. Needs a DOM (DOMPurify); call it in the browser. */
export function renderMarkdown(source: string): RenderedMarkdown {
  const { html, headings } = sanitizeContentHtml(markdownToUnsafeHtml(source));
  return {
    html,
    headings,
    needs: {
      code: html.includes('<code class="language-'),
      math: html.includes('class="math-'),
      mermaid: html.includes('class="mermaid-block"'),
    },
  };
}
