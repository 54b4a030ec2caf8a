/**
 * The Markdown draft of the Home editor (docs/product.md §3, §4): `{content, savedAt}` under the `settings`
 * key `markdown_draft`, saved every 30 seconds while the editor is not empty and offered for
 * restore while it is under 24 hours old.
 */
import { deleteSetting, readSetting, writeSetting } from './offline-db.ts';

export const MARKDOWN_DRAFT_KEY = 'markdown_draft';
export const DRAFT_AUTOSAVE_MS = 30_000;
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface MarkdownDraft {
  content: string;
  /** Milliseconds since the epoch. */
  savedAt: number;
}

/** Whether a stored draft may be offered: not empty, a sane date, under 24 hours old. */
export function isRestorable(draft: unknown, now = Date.now()): draft is MarkdownDraft {
  if (!draft || typeof draft !== 'object') return false;
  const { content, savedAt } = draft as Partial<MarkdownDraft>;
  if (typeof content !== 'string' || content.trim() === '' || typeof savedAt !== 'number') return false;
  const age = now - savedAt;
  return age >= 0 && age < DRAFT_MAX_AGE_MS;
}

/** The stored draft if it may be restored; otherwise null (an old draft is removed). */
export async function loadMarkdownDraft(now = Date.now()): Promise<MarkdownDraft | null> {
  const draft = await readSetting<MarkdownDraft>(MARKDOWN_DRAFT_KEY);
  if (isRestorable(draft, now)) return draft;
  if (draft !== undefined) await deleteSetting(MARKDOWN_DRAFT_KEY);
  return null;
}

export async function saveMarkdownDraft(content: string, now = Date.now()): Promise<void> {
  if (content.trim() === '') return;
  await writeSetting<MarkdownDraft>(MARKDOWN_DRAFT_KEY, { content, savedAt: now });
}

export function clearMarkdownDraft(): Promise<void> {
  return deleteSetting(MARKDOWN_DRAFT_KEY);
}
