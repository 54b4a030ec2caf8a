/** Public surface of the installable-app feature (issue 14): prompts and their start-up. */
export { PwaPrompts } from './pwa-prompts.tsx';
export { startInstallPrompt } from './pwa-store.ts';
