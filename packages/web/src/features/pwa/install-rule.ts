/**
 * The install prompt's rule (docs/product.md §4, §9): offered again 7 days after "Not now",
 * checked every 5 s.
 */
export const INSTALL_DISMISSED_KEY = 'pwa_install_dismissed_at';
export const INSTALL_PROMPT_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_RECHECK_MS = 5000;

/** Whether the install prompt may show, given when it was last dismissed. */
export function mayOfferInstall(dismissedAt: number | undefined, now: number): boolean {
  if (dismissedAt === undefined || !Number.isFinite(dismissedAt) || now < dismissedAt) return true;
  return now - dismissedAt >= INSTALL_PROMPT_INTERVAL_MS;
}
