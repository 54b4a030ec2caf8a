/**
 * Which translations load with the app and which load with the lazy screens that use them. The
 * "core" part (the layout, the paste view, errors, common words) loads up front; each section
 * loads with the screens that name it (`withSections` in `index.ts`), before they render. The two
 * locale files stay single files: at build time the plugin in `vite.config.ts` serves each part of
 * a file as its own module, `<file>.json?section=<part>&locale-section` (outside Vite, e.g. in
 * unit tests, that import is the whole file, which holds every part).
 *
 * A section lists key paths (a top-level key or a deeper one). A key belongs to the part whose
 * path, among the sections' paths and CORE_PATHS, is the longest prefix of it; a key that no path
 * covers is core, so a new group of texts loads up front until it is given a section.
 */
import type { LocaleTree } from '../../locales/locale-check.ts';

export const SECTIONS = {
  home: ['home'],
  upload: ['upload'],
  fileView: ['fileView'],
  explorer: ['explorer'],
  /** The admin panel, with the login form it shows to a visitor who is not signed in (and the invite page). */
  admin: ['admin', 'keys', 'settings', 'textManagement', 'auth.login', 'accounts'],
  /** The backend switcher panel, shown only to an admin who asks for it. */
  envSwitcher: ['envSwitcher'],
  /**
   * The paste settings and editing texts: the editor on Home, uploads, management, the edit dialog,
   * the public paste page.
   */
  pastes: ['pastes'],
  /** The uploader's page of an upload request, and the admin module that manages them. */
  uploadRequests: ['uploadRequests'],
  /** The install and update prompts, loaded with them. */
  pwa: ['pwa'],
} as const satisfies Record<string, readonly string[]>;

export type Section = keyof typeof SECTIONS;
export type LocalePart = 'core' | Section;

/** Texts under a section's path that must still load up front. */
export const CORE_PATHS: readonly string[] = [
  // A paste's format and password badge: the paste and file views.
  'pastes.format',
  'pastes.protected',
  // A multi-file paste's file count and languages: the paste view and the public page.
  'pastes.fileCount',
  'pastes.languages',
  // Shown after a sign-out from another tab, on whatever screen is open.
  'settings.account.updated',
];

const OWNERS: [path: string, part: LocalePart][] = [
  ...Object.entries(SECTIONS).flatMap(([section, list]) =>
    list.map((path): [string, LocalePart] => [path, section as Section]),
  ),
  ...CORE_PATHS.map((path): [string, LocalePart] => [path, 'core']),
];

/** The part a key (`a.b.c`) loads with. */
export function partOf(key: string): LocalePart {
  let best: [string, LocalePart] | undefined;
  for (const owner of OWNERS) {
    const [path] = owner;
    if ((key === path || key.startsWith(`${path}.`)) && (!best || path.length > best[0].length)) best = owner;
  }
  return best?.[1] ?? 'core';
}

/** The texts of one part of a locale, in the same nesting (empty branches left out). */
export function pickPart(tree: LocaleTree, part: LocalePart, prefix = ''): LocaleTree {
  const out: LocaleTree = {};
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') {
      if (partOf(key) === part) out[name] = value;
    } else {
      const inner = pickPart(value, part, key);
      if (Object.keys(inner).length > 0) out[name] = inner;
    }
  }
  return out;
}
