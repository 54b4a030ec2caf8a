/**
 * The longest text shown or edited with syntax highlighting (in characters). Highlighting a longer
 * one would hold up the page: the file preview would colour it for seconds, and the editor's
 * Markdown parser reads a paragraph whole again on every keystroke (0.6 to 1.3 s per key measured
 * on 4.4 million characters without a line break).
 */
export const HIGHLIGHT_MAX_CHARS = 200_000;
