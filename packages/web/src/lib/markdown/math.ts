/** Math rendering (lazy chunk): KaTeX with `trust: false`, its output sanitised once more. */
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { sanitizeMathHtml } from './sanitize.ts';

export function renderMath(root: HTMLElement, signal: AbortSignal): void {
  for (const element of root.querySelectorAll<HTMLElement>('.math-inline, .math-block')) {
    if (signal.aborted) return;
    if (element.dataset.rendered) continue;
    const html = katex.renderToString(element.textContent ?? '', {
      displayMode: element.classList.contains('math-block'),
      throwOnError: false,
      trust: false,
      strict: 'ignore',
      maxSize: 50,
      maxExpand: 500,
      output: 'htmlAndMathml',
    });
    element.innerHTML = sanitizeMathHtml(html);
    element.dataset.rendered = 'yes';
  }
}
