/** Public surface of the Home feature for other features: the Markdown editor (a lazy chunk). */
export { MarkdownEditor } from './components/lazy-markdown-editor.ts';
