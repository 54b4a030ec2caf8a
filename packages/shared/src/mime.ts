/**
 * File name extension → MIME type, for names whose type nothing else tells (a URL source without a
 * Content-Type, an upload whose browser sent none). As CloudPaste (docs/compatibility.md §8): the text after
 * the last dot, lower-cased; a name without a dot is looked up whole (`Dockerfile`, `Makefile`); unknown →
 * application/octet-stream.
 */

export const DEFAULT_MIME = 'application/octet-stream';

const TYPES: Record<string, readonly string[]> = {
  // images
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'image/svg+xml': ['svg', 'svgz'],
  'image/bmp': ['bmp'],
  'image/x-icon': ['ico'],
  'image/tiff': ['tif', 'tiff'],
  'image/heic': ['heic'],
  'image/heif': ['heif'],
  'image/jxl': ['jxl'],
  'image/vnd.adobe.photoshop': ['psd'],
  // video
  'video/mp4': ['mp4', 'm4v'],
  'video/webm': ['webm'],
  'video/ogg': ['ogv'],
  'video/quicktime': ['mov'],
  'video/x-matroska': ['mkv'],
  'video/x-msvideo': ['avi'],
  'video/x-ms-wmv': ['wmv'],
  'video/x-flv': ['flv'],
  'video/mpeg': ['mpeg', 'mpg'],
  'video/mp2t': ['m2ts'],
  'video/3gpp': ['3gp'],
  // audio
  'audio/mpeg': ['mp3'],
  'audio/wav': ['wav'],
  'audio/ogg': ['ogg', 'oga', 'opus'],
  'audio/flac': ['flac'],
  'audio/aac': ['aac'],
  'audio/mp4': ['m4a'],
  'audio/webm': ['weba'],
  'audio/x-ms-wma': ['wma'],
  'audio/midi': ['mid', 'midi'],
  'audio/aiff': ['aif', 'aiff'],
  // documents
  'application/pdf': ['pdf'],
  'application/rtf': ['rtf'],
  'application/msword': ['doc', 'dot'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template': ['dotx'],
  'application/vnd.ms-word.document.macroEnabled.12': ['docm'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.ms-excel.sheet.macroEnabled.12': ['xlsm'],
  'application/vnd.ms-excel.sheet.binary.macroEnabled.12': ['xlsb'],
  'application/vnd.ms-powerpoint': ['ppt', 'pps'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow': ['ppsx'],
  'application/vnd.ms-powerpoint.presentation.macroEnabled.12': ['pptm'],
  'application/vnd.oasis.opendocument.text': ['odt'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'application/vnd.oasis.opendocument.presentation': ['odp'],
  'application/epub+zip': ['epub'],
  // text, web and data
  'text/plain': [
    'txt',
    'text',
    'log',
    'ini',
    'conf',
    'cfg',
    'env',
    'properties',
    'lock',
    'gitignore',
    'editorconfig',
  ],
  'text/markdown': ['md', 'markdown', 'mdx'],
  'text/html': ['html', 'htm'],
  'text/css': ['css', 'scss', 'sass', 'less'],
  'text/csv': ['csv'],
  'text/tab-separated-values': ['tsv'],
  'text/javascript': ['js', 'mjs', 'cjs', 'jsx'],
  'text/typescript': ['ts', 'tsx', 'mts', 'cts'],
  'application/json': ['json', 'jsonc', 'json5', 'map'],
  'application/xml': ['xml', 'xsd', 'xsl'],
  'text/yaml': ['yml', 'yaml'],
  'application/toml': ['toml'],
  'text/calendar': ['ics'],
  'text/vcard': ['vcf'],
  'application/sql': ['sql'],
  'application/x-sqlite3': ['sqlite', 'sqlite3', 'db'],
  // source code
  'text/x-python': ['py', 'pyw'],
  'text/x-java': ['java'],
  'text/x-c': ['c', 'h'],
  'text/x-c++': ['cpp', 'cc', 'cxx', 'hpp', 'hh', 'hxx'],
  'text/x-csharp': ['cs'],
  'text/x-go': ['go'],
  'text/x-rust': ['rs'],
  'text/x-ruby': ['rb'],
  'text/x-php': ['php'],
  'text/x-shellscript': ['sh', 'bash', 'zsh'],
  'text/x-powershell': ['ps1'],
  'text/x-kotlin': ['kt', 'kts'],
  'text/x-swift': ['swift'],
  'text/x-scala': ['scala'],
  'text/x-lua': ['lua'],
  'text/x-perl': ['pl', 'pm'],
  'text/x-r': ['r'],
  'text/x-dart': ['dart'],
  'text/x-vue': ['vue'],
  'text/x-svelte': ['svelte'],
  'text/x-diff': ['diff', 'patch'],
  'text/x-dockerfile': ['dockerfile'],
  'text/x-makefile': ['makefile'],
  // archives
  'application/zip': ['zip'],
  'application/x-tar': ['tar'],
  'application/gzip': ['gz', 'tgz'],
  'application/x-bzip2': ['bz2'],
  'application/x-xz': ['xz'],
  'application/zstd': ['zst'],
  'application/x-7z-compressed': ['7z'],
  'application/vnd.rar': ['rar'],
  'application/java-archive': ['jar'],
  // executables and packages
  'application/vnd.android.package-archive': ['apk'],
  'application/x-msdownload': ['exe', 'dll', 'msi'],
  'application/x-apple-diskimage': ['dmg'],
  'application/x-iso9660-image': ['iso'],
  'application/vnd.debian.binary-package': ['deb'],
  'application/x-rpm': ['rpm'],
  'application/wasm': ['wasm'],
  // fonts
  'font/woff': ['woff'],
  'font/woff2': ['woff2'],
  'font/ttf': ['ttf'],
  'font/otf': ['otf'],
};

/** Extension (lower case, no dot) → MIME type. */
export const MIME_BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(TYPES).flatMap(([mime, exts]) => exts.map((ext) => [ext, mime]))),
);

/** The extension of a file name as the table knows it: after the last dot, or the whole name. */
export function extensionOf(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return (dot === -1 ? base : base.slice(dot + 1)).toLowerCase();
}

/** The MIME type for a file name, or application/octet-stream when its extension is unknown. */
export function mimeFromFilename(filename: string): string {
  const ext = extensionOf(filename);
  return Object.hasOwn(MIME_BY_EXTENSION, ext) ? MIME_BY_EXTENSION[ext]! : DEFAULT_MIME;
}

/**
 * Word, Excel and PowerPoint documents Microsoft's online viewer (view.officeapps.live.com) renders,
 * by extension. OpenDocument (odt, ods, odp) is left out: Microsoft documents those only for its
 * Microsoft 365 (WOPI) viewer, not for the public one Cubby's Office preview sends files to.
 */
export const OFFICE_PREVIEW_EXTENSIONS: readonly string[] = Object.freeze([
  'doc',
  'docx',
  'docm',
  'dot',
  'dotx',
  'xls',
  'xlsx',
  'xlsm',
  'xlsb',
  'ppt',
  'pptx',
  'pptm',
  'pps',
  'ppsx',
]);

/** Whether the online Office viewer can show a file of this name (a name without a dot is not one). */
export function isOfficePreviewable(filename: string): boolean {
  const base = filename.split(/[/\\]/).pop() ?? '';
  return base.includes('.') && OFFICE_PREVIEW_EXTENSIONS.includes(extensionOf(base));
}
