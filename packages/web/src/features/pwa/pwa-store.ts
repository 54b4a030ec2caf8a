/**
 * State of the install and update prompts (docs/product.md §2 "PWA prompts", §4, §9), the part that loads
 * with the app: the browser's install offer is caught as soon as it comes, and a waiting new
 * version is announced by `start-pwa.ts`. The prompts themselves, and the 7-day rule, load only
 * when there is something to offer (`pwa-prompts.tsx`).
 */
import { create } from 'zustand';

/** Chromium's `beforeinstallprompt` event. */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface PwaState {
  installEvent: InstallPromptEvent | null;
  /** Set while a new version waits: activates it (the page reloads once it controls). */
  applyUpdate: (() => void) | null;
}

export const usePwaStore = create<PwaState>()(() => ({ installEvent: null, applyUpdate: null }));

/** Keeps the browser's install offer for the install prompt. */
export function startInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    usePwaStore.setState({ installEvent: event as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => usePwaStore.setState({ installEvent: null }));
}
