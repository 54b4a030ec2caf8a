/** The Content-Disposition value for downloads, shared by the local routes and S3 presigned GETs. */

/** RFC 6266 / 5987: an ASCII fallback name plus the exact UTF-8 name in `filename*`. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
