/**
 * Light, dark or auto theme (docs/product.md §1, §4). The mode is stored in localStorage `themeMode`; the
 * inline script in index.html applies it before first paint, and this store keeps it applied:
 * in auto mode the page follows `prefers-color-scheme` live. The dark theme is the `dark` class
 * on <html>; colours come from CSS variables (see index.css).
 */
import { create } from 'zustand';

export const THEME_MODES = ['auto', 'light', 'dark'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];
export const THEME_STORAGE_KEY = 'themeMode';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function readMode(): ThemeMode {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'auto';
  } catch {
    return 'auto';
  }
}

function systemPrefersDark(): boolean {
  return window.matchMedia(DARK_QUERY).matches;
}

function applyTheme(mode: ThemeMode): void {
  const dark = mode === 'dark' || (mode === 'auto' && systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  root.setAttribute('data-theme-mode', mode);
}

/** The mode that follows `mode` in the cycle auto → light → dark → auto. */
export function nextThemeMode(mode: ThemeMode): ThemeMode {
  return THEME_MODES[(THEME_MODES.indexOf(mode) + 1) % THEME_MODES.length]!;
}

interface ThemeState {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
  cycle(): void;
}

export const useThemeStore = create<ThemeState>()((set, get) => ({
  mode: readMode(),
  setMode(mode) {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, mode);
    } catch {
      // Not persisted; still applied for this page.
    }
    set({ mode });
    applyTheme(mode);
  },
  cycle() {
    get().setMode(nextThemeMode(get().mode));
  },
}));

/** Applies the stored mode and follows system changes while in auto mode. Called once at start. */
export function startTheme(): void {
  applyTheme(useThemeStore.getState().mode);
  window.matchMedia(DARK_QUERY).addEventListener('change', () => {
    if (useThemeStore.getState().mode === 'auto') applyTheme('auto');
  });
}
