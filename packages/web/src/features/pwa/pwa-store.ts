/**
 * State of the install and update prompts (spec §2 "PWA prompts", §4, §9). The install prompt is
 * offered while the browser says the app is installable and the user has not dismissed it in the
 * last 7 days (checked every 5 seconds); the update prompt while a new worker waits, and the new
 * version only takes over when the user asks (`applyUpdate`).
 */
import { create } from 'zustand';
import { readSetting, writeSetting } from '../../lib/offline/offline-db.ts';

export const INSTALL_DISMISSED_KEY = 'pwa_install_dismissed_at';
export const INSTALL_PROMPT_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_RECHECK_MS = 5000;

/** Chromium's `beforeinstallprompt` event. */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface PwaState {
  installEvent: InstallPromptEvent | null;
  installVisible: boolean;
  /** Set while a new version waits: activates it (the page reloads once it controls). */
  applyUpdate: (() => void) | null;
}

export const usePwaStore = create<PwaState>()(() => ({
  installEvent: null,
  installVisible: false,
  applyUpdate: null,
}));

/** Whether the install prompt may show, given when it was last dismissed. */
export function mayOfferInstall(dismissedAt: number | undefined, now: number): boolean {
  return dismissedAt === undefined || !(now - dismissedAt < INSTALL_PROMPT_INTERVAL_MS) || now < dismissedAt;
}

async function recheckInstall(): Promise<void> {
  const { installEvent } = usePwaStore.getState();
  if (!installEvent) {
    usePwaStore.setState({ installVisible: false });
    return;
  }
  const dismissedAt = await readSetting<number>(INSTALL_DISMISSED_KEY).catch(() => undefined);
  usePwaStore.setState({ installVisible: mayOfferInstall(dismissedAt, Date.now()) });
}

export async function dismissInstall(): Promise<void> {
  usePwaStore.setState({ installVisible: false });
  await writeSetting(INSTALL_DISMISSED_KEY, Date.now()).catch(() => undefined);
}

export async function acceptInstall(): Promise<void> {
  const { installEvent } = usePwaStore.getState();
  usePwaStore.setState({ installVisible: false, installEvent: null });
  if (!installEvent) return;
  await installEvent.prompt();
  await installEvent.userChoice.catch(() => undefined);
}

/** Listens for installability and rechecks the prompt every 5 seconds. */
export function startInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    usePwaStore.setState({ installEvent: event as InstallPromptEvent });
    void recheckInstall();
  });
  window.addEventListener('appinstalled', () =>
    usePwaStore.setState({ installEvent: null, installVisible: false }),
  );
  setInterval(() => void recheckInstall(), INSTALL_RECHECK_MS);
}
