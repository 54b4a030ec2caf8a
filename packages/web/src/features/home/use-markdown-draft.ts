/**
 * The editor's draft (docs/product.md §4): saved to the offline database every 30 seconds while the editor is
 * not empty and has changed, and a stored draft under 24 hours old is offered once on arrival.
 * It is also saved at once when the editor goes away — the user leaves Home, or Home fails and the
 * error page replaces it — and when the page is hidden (another tab, a phone's home screen), so
 * text typed since the last save is not lost. (A write started as the page unloads, at a reload,
 * does not land in Chromium: there the 30-second save is what there is.) The text is noted as it
 * changes (`note`), outside rendering: a render that fails never reaches an effect, and the text it
 * failed on is then the one to keep.
 * Storage problems (private mode, no IndexedDB) only mean there is no draft.
 */
import { useEffect, useRef, useState } from 'react';
import {
  DRAFT_AUTOSAVE_MS,
  clearMarkdownDraft,
  loadMarkdownDraft,
  saveMarkdownDraft,
  type MarkdownDraft,
} from '../../lib/offline/markdown-draft.ts';

export function useMarkdownDraft() {
  const [offer, setOffer] = useState<MarkdownDraft | null>(null);
  const latest = useRef('');
  const saved = useRef<string | null>(null);

  useEffect(() => {
    let active = true;
    loadMarkdownDraft()
      .then((draft) => {
        if (active && draft && draft.content !== latest.current) setOffer(draft);
      })
      .catch(() => {});
    const save = () => {
      const current = latest.current;
      if (current.trim() === '' || current === saved.current) return;
      saved.current = current;
      saveMarkdownDraft(current).catch(() => {
        saved.current = null;
      });
    };
    const timer = setInterval(save, DRAFT_AUTOSAVE_MS);
    const onHidden = () => {
      if (document.visibilityState === 'hidden') save();
    };
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      active = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onHidden);
      save();
    };
  }, []);

  return {
    /** A stored draft the user may restore, until restored or discarded. */
    offer,
    /** The editor's text changed (call before rendering it). */
    note: (text: string) => {
      latest.current = text;
    },
    /** Hides the offer (the draft is restored by the caller). */
    accept: () => setOffer(null),
    /** Hides the offer and deletes the stored draft. */
    discard: () => {
      setOffer(null);
      clearMarkdownDraft().catch(() => {});
    },
    /** After the share was created: the text is safe, the draft goes. */
    forget: (text: string) => {
      saved.current = text;
      setOffer(null);
      clearMarkdownDraft().catch(() => {});
    },
  };
}
