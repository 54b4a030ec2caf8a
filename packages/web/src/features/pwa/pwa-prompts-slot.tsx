/** Where the install and update prompts appear; their code loads only when there is one to show. */
import { lazy, Suspense } from 'react';
import { withSections } from '../../lib/i18n/index.ts';
import { usePwaStore } from './pwa-store.ts';

const PwaPrompts = lazy(() => withSections(import('./pwa-prompts.tsx'), ['pwa']));

export function PwaPromptsSlot() {
  const pending = usePwaStore((state) => state.installEvent !== null || state.applyUpdate !== null);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <PwaPrompts />
    </Suspense>
  );
}
