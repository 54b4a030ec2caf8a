/** Where the install and update prompts appear; their code loads only when there is one to show. */
import { lazy, Suspense } from 'react';
import { withSections } from '../../lib/i18n/index.ts';
import { usePwaStore } from './pwa-store.ts';

// Precached by the service worker; should it still fail to load, no prompt rather than an error page.
const PwaPrompts = lazy(() =>
  withSections(import('./pwa-prompts.tsx'), ['pwa']).catch(() => ({ default: () => null })),
);

export function PwaPromptsSlot() {
  const pending = usePwaStore((state) => state.installEvent !== null || state.applyUpdate !== null);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <PwaPrompts />
    </Suspense>
  );
}
