/**
 * Mermaid diagrams (lazy chunk): `securityLevel: 'strict'` (no click callbacks, no HTML labels),
 * the SVG sanitised before it is inserted. A diagram that fails to parse keeps its source text.
 */
import mermaid from 'mermaid';
import { sanitizeDiagramSvg } from './sanitize.ts';

let counter = 0;

/** Renders the diagrams below `root` in the light or dark theme, until `signal` aborts. */
export async function renderDiagrams(root: HTMLElement, dark: boolean, signal: AbortSignal): Promise<void> {
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    theme: dark ? 'dark' : 'default',
    maxTextSize: 50_000,
  });
  for (const block of root.querySelectorAll<HTMLElement>('.mermaid-block')) {
    if (signal.aborted) return;
    if (block.dataset.rendered) continue;
    const source = block.textContent ?? '';
    try {
      const { svg } = await mermaid.render(`mermaid-diagram-${++counter}`, source);
      if (signal.aborted) return;
      block.innerHTML = sanitizeDiagramSvg(svg);
      block.dataset.rendered = 'yes';
    } catch {
      block.dataset.rendered = 'failed';
    } finally {
      // Mermaid leaves its scratch element in <body> when rendering fails.
      document.getElementById(`dmermaid-diagram-${counter}`)?.remove();
    }
  }
}
