/** Public surface of the installable-app feature (issue 14): the prompts and their start-up. */
export { PwaPromptsSlot } from './pwa-prompts-slot.tsx';
export { startInstallPrompt } from './pwa-store.ts';
