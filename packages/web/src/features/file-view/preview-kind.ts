/**
 * How a shared file is previewed, from its MIME type and name: image, video, audio, PDF (the
 * browser's viewer), Markdown (rendered), HTML (in a sandboxed frame), text or code (highlighted),
 * Office documents and everything else as a download card. The name decides where the type is
 * vague (octet-stream, or `.ts` code that a generic table calls MPEG video).
 */
import { DEFAULT_MIME, OFFICE_PREVIEW_EXTENSIONS, extensionOf, mimeFromFilename } from '@cubby/shared';

export type PreviewKind =
  'image' | 'video' | 'audio' | 'pdf' | 'markdown' | 'html' | 'text' | 'office' | 'other';

/** What the online Office viewer renders, and other office documents browsers do not show. */
const OFFICE_EXTENSIONS = new Set([...OFFICE_PREVIEW_EXTENSIONS, 'odt', 'ods', 'odp', 'rtf']);
/** Text types outside text/* that read well as text. */
const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/toml',
  'application/sql',
  'application/javascript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'image/svg+xml',
]);
/** Browsers play these; others (mkv, avi, wmv…) get a download card. */
const PLAYABLE_VIDEO = new Set(['video/mp4', 'video/webm', 'video/ogg', 'video/quicktime']);
const PLAYABLE_AUDIO = new Set([
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/flac',
  'audio/aac',
  'audio/mp4',
  'audio/webm',
  'audio/x-wav',
]);
/** Images browsers show (SVG shows as an image too: no script runs in <img>). */
const SHOWN_IMAGES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/bmp',
  'image/x-icon',
]);

function baseType(mimetype: string): string {
  return (mimetype.split(';')[0] ?? '').trim().toLowerCase();
}

export function previewKind(mimetype: string | null | undefined, filename: string): PreviewKind {
  const declared = baseType(mimetype ?? '');
  const byName = mimeFromFilename(filename);
  const ext = extensionOf(filename);
  // A name that says "code" or "text" wins over a vague or clashing declared type.
  const type =
    declared === '' ||
    declared === DEFAULT_MIME ||
    (byName.startsWith('text/') && !declared.startsWith('text/'))
      ? byName
      : declared;
  if (OFFICE_EXTENSIONS.has(ext)) return 'office';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  if (SHOWN_IMAGES.has(type)) return 'image';
  if (PLAYABLE_VIDEO.has(type)) return 'video';
  if (PLAYABLE_AUDIO.has(type)) return 'audio';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) {
    return 'text';
  }
  return 'other';
}

/** The highlight.js language to try for a text file (its extension; unknown ones stay plain). */
export function codeLanguage(filename: string): string | null {
  const ext = extensionOf(filename);
  return /^[a-z0-9+#-]{1,20}$/.test(ext) ? ext : null;
}
