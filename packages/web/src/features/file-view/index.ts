/**
 * Public surface of the file share page for other features: a share's address, what kind of
 * preview a file gets, and the inline preview itself (the explorer shows mount files with it).
 */
export { filePageUrl } from './file-urls.ts';
export { previewKind, type PreviewKind } from './preview-kind.ts';
export { InlinePreview } from './components/file-preview.tsx';
export { FileUnavailable } from './components/file-unavailable.tsx';
export { SharePasswordGate } from './components/file-password-gate.tsx';
