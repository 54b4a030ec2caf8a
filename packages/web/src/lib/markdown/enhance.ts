/**
 * The heavy parts of rendering, each loaded (dynamic import) only when the content needs it:
 * highlight.js for fenced code with a language, KaTeX for math, Mermaid for diagrams. They work on
 * the sanitised DOM: the marker elements carry their source as text, never as HTML.
 */
import type { RenderedMarkdown } from './render-markdown.ts';

export interface EnhanceOptions {
  dark: boolean;
  /** Stop touching the DOM (the content changed or the view went away). */
  signal: AbortSignal;
}

export async function enhanceRendered(
  root: HTMLElement,
  needs: RenderedMarkdown['needs'],
  options: EnhanceOptions,
): Promise<void> {
  const jobs: Promise<void>[] = [];
  if (needs.code) jobs.push(import('./highlight.ts').then((m) => m.highlightCode(root, options.signal)));
  if (needs.math) jobs.push(import('./math.ts').then((m) => m.renderMath(root, options.signal)));
  if (needs.mermaid)
    jobs.push(import('./diagrams.ts').then((m) => m.renderDiagrams(root, options.dark, options.signal)));
  await Promise.allSettled(jobs);
}
