/**
 * The only way paste content becomes HTML on the page. DOMPurify with the HTML profile (no SVG, no
 * MathML) and these extra rules, so nothing in a paste can run script, leave the page or restyle it:
 *
 * - forbidden: script, style, iframe/frame, object/embed, form and form controls (a disabled task
 *   list checkbox excepted), link/meta/base, svg, math; `style`, `srcset` and event attributes;
 * - URLs (href, src, xlink:href, action…) only http(s), mailto (links) or relative; never
 *   `javascript:`, `data:`, `blob:` or anything else;
 * - links get `rel="noopener noreferrer nofollow"`, absolute ones also `target="_blank"`;
 * - `class` only for the markers the renderer itself emits (code language, math, mermaid, tasks);
 * - `id`/`name` are prefixed (`user-content-`) so content cannot clobber globals; headings get
 *   generated ids for the outline.
 *
 * KaTeX and Mermaid output (rendered later, lazily) go through their own sanitisers here: MathML
 * is allowed for KaTeX, SVG for Mermaid, and CSS that could load anything is removed from both.
 */
import DOMPurify, { type Config } from 'dompurify';

export interface Heading {
  id: string;
  level: number;
  text: string;
}

const FORBID_TAGS = [
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'button',
  'select',
  'textarea',
  'option',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'noscript',
  'template',
  'portal',
];
const FORBID_ATTR = ['style', 'srcset', 'action', 'formaction', 'background', 'ping', 'poster'];
const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'action', 'formaction', 'cite', 'data'];
const ALLOWED_CLASS = /^(?:language-[\w+#-]{1,40}|math-inline|math-block|mermaid-block|task-list-item)$/;
// `url(#marker)` (a fragment of the same document) is what Mermaid uses for arrowheads; any other
// url(), @import or legacy script-in-CSS form could load something, so the declaration goes.
const UNSAFE_CSS =
  /url\s*\((?!\s*['"]?#)|@import|expression\s*\(|behavior\s*:|-moz-binding|image-set\s*\(|image\s*\(/i;

/** True for http(s), mailto (when allowed) and relative URLs; false for every other scheme. */
export function isSafeUrl(value: string, { allowMailto = true } = {}): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  return scheme === 'http' || scheme === 'https' || (allowMailto && scheme === 'mailto');
}

function isAbsoluteHttp(value: string): boolean {
  return /^\s*(?:https?:)?\/\//i.test(value);
}

/** Removes unsafe URL attributes and marks links; shared by every sanitiser instance. */
function secureElement(node: Element): void {
  for (const name of URL_ATTRIBUTES) {
    const value = node.getAttribute(name);
    if (value === null) continue;
    const isLink = node.localName === 'a' && (name === 'href' || name === 'xlink:href');
    if (!isSafeUrl(value, { allowMailto: isLink })) node.removeAttribute(name);
  }
  if (node.localName === 'a') {
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    const href = node.getAttribute('href') ?? '';
    if (isAbsoluteHttp(href)) node.setAttribute('target', '_blank');
    else node.removeAttribute('target');
  }
  for (const attribute of Array.from(node.attributes)) {
    if (/^on/i.test(attribute.name)) node.removeAttribute(attribute.name);
  }
}

/* ------------------------------------------------------------------ paste HTML (marked output) */

const contentPurifier = DOMPurify();
let headings: Heading[] = [];
let headingIds = new Map<string, number>();

function slugify(text: string): string {
  const slug = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return slug || 'section';
}

if (contentPurifier.isSupported) {
  contentPurifier.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'input' && node instanceof Element) {
      // Task lists: a checkbox that cannot be changed is the only form control left.
      if ((node.getAttribute('type') ?? '').toLowerCase() !== 'checkbox') node.remove();
    }
  });
  contentPurifier.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'class') {
      const kept = data.attrValue.split(/\s+/).filter((name) => ALLOWED_CLASS.test(name));
      data.attrValue = kept.join(' ');
      if (kept.length === 0) data.keepAttr = false;
    }
    if (node.localName === 'input' && !['type', 'checked', 'disabled'].includes(data.attrName)) {
      data.keepAttr = false;
    }
  });
  contentPurifier.addHook('afterSanitizeAttributes', (node) => {
    secureElement(node);
    if (node.localName === 'input') {
      node.setAttribute('disabled', '');
      // A task's checkbox is named by its task, so a screen reader says what is (not) done.
      const task = (node.closest('li')?.textContent ?? '').trim().split('\n')[0]!.slice(0, 200);
      node.setAttribute('aria-label', task || '-');
    }
    const level = /^h([1-6])$/.exec(node.localName)?.[1];
    if (level) {
      const text = (node.textContent ?? '').trim();
      const base = `user-content-${slugify(text)}`;
      const seen = headingIds.get(base) ?? 0;
      headingIds.set(base, seen + 1);
      const id = seen === 0 ? base : `${base}-${seen}`;
      node.setAttribute('id', id);
      if (text) headings.push({ id, level: Number(level), text });
    }
  });
}

const CONTENT_CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS,
  FORBID_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  SANITIZE_DOM: true,
  SANITIZE_NAMED_PROPS: true,
};

/** Sanitises rendered Markdown; returns safe HTML and the headings (with their ids) for an outline. */
export function sanitizeContentHtml(html: string): { html: string; headings: Heading[] } {
  headings = [];
  headingIds = new Map();
  try {
    const safe = contentPurifier.sanitize(html, { ...CONTENT_CONFIG, RETURN_TRUSTED_TYPE: false });
    return { html: String(safe), headings };
  } finally {
    headings = [];
    headingIds = new Map();
  }
}

/* ------------------------------------------------------------- KaTeX and Mermaid output */

function stripUnsafeCss(css: string): string {
  return css
    .split(/(?<=[;{}])/)
    .filter((part) => !UNSAFE_CSS.test(part))
    .join('');
}

function createGeneratedPurifier(): ReturnType<typeof DOMPurify> {
  const purifier = DOMPurify();
  if (!purifier.isSupported) return purifier;
  purifier.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'style') data.attrValue = stripUnsafeCss(data.attrValue);
  });
  purifier.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent) node.textContent = stripUnsafeCss(node.textContent);
  });
  purifier.addHook('afterSanitizeAttributes', secureElement);
  return purifier;
}

const mathPurifier = createGeneratedPurifier();
const diagramPurifier = createGeneratedPurifier();

/** KaTeX's HTML + MathML, with its layout styles (minus anything that loads a URL). */
export function sanitizeMathHtml(html: string): string {
  return String(
    mathPurifier.sanitize(html, {
      USE_PROFILES: { html: true, mathMl: true },
      FORBID_TAGS: FORBID_TAGS.filter((tag) => tag !== 'math'),
      FORBID_ATTR: FORBID_ATTR.filter((name) => name !== 'style'),
      ALLOW_DATA_ATTR: false,
      SANITIZE_NAMED_PROPS: true,
    }),
  );
}

/** Mermaid's SVG: shapes, text and its theme stylesheet; no script, foreignObject or outside URLs. */
export function sanitizeDiagramSvg(svg: string): string {
  return String(
    diagramPurifier.sanitize(svg, {
      USE_PROFILES: { svg: true, svgFilters: true },
      ADD_TAGS: ['style'],
      FORBID_TAGS: ['script', 'foreignObject', 'iframe', 'object', 'embed', 'image', 'use', 'animate', 'set'],
      FORBID_ATTR: ['srcset', 'action', 'formaction'],
      ALLOW_DATA_ATTR: false,
      // The stylesheet Mermaid emits selects its own ids, so they stay as they are.
      SANITIZE_NAMED_PROPS: false,
    }),
  );
}
