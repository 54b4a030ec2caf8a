/**
 * The editor's draft (spec §4): saved to the offline database every 30 seconds while the editor is
 * not empty and has changed, and a stored draft under 24 hours old is offered once on arrival.
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

export function useMarkdownDraft(content: string) {
  const [offer, setOffer] = useState<MarkdownDraft | null>(null);
  const latest = useRef(content);
  const saved = useRef<string | null>(null);

  useEffect(() => {
    latest.current = content;
  }, [content]);

  useEffect(() => {
    let active = true;
    loadMarkdownDraft()
      .then((draft) => {
        if (active && draft && draft.content !== latest.current) setOffer(draft);
      })
      .catch(() => {});
    const timer = setInterval(() => {
      const current = latest.current;
      if (current.trim() === '' || current === saved.current) return;
      saved.current = current;
      saveMarkdownDraft(current).catch(() => {
        saved.current = null;
      });
    }, DRAFT_AUTOSAVE_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, []);

  return {
    /** A stored draft the user may restore, until restored or discarded. */
    offer,
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
