/** The CodeMirror editor as a lazy chunk: the Home composer and the explorer's text editor load it on demand. */
import { lazy } from 'react';

export const MarkdownEditor = lazy(() => import('./markdown-editor.tsx'));
