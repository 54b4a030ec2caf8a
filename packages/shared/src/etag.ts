/**
 * Entity tags, one home for every door and the browser: how a tag is written bare (as answers and
 * the explorer keep it), and how two are compared — HTTP's weak comparison for `If-Match`,
 * `If-None-Match` and WebDAV's `If` (RFC 9110 §8.8.3.2), and a storage's part digests, which S3 and
 * its clients spell in either case.
 */

/** A tag without its weak marker and quotes: `W/"abc"` → `abc`. */
export function bareEtag(tag: string): string {
  return tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** Weak comparison: equal once the weak marker and quotes are gone. */
export function sameEtag(a: string, b: string): boolean {
  return bareEtag(a) === bareEtag(b);
}

/** A storage's digest of a part or object (hex: any case): equal bare and lower-cased. */
export function sameDigest(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && bareEtag(a).toLowerCase() === bareEtag(b).toLowerCase();
}

/** Whether a header's list of tags (`"a", W/"b"`) names `etag` (weak comparison; `*` is the caller's). */
export function etagListHas(header: string, etag: string): boolean {
  return header.split(',').some((tag) => tag.trim() !== '' && sameEtag(tag, etag));
}
