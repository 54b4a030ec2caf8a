/**
 * A small queue of transient notices (toasts). Messages are stored already translated: they come
 * from API errors, which are translated when thrown.
 */
import { create } from 'zustand';

export type ToastTone = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
}

interface ToastState {
  toasts: Toast[];
  /** What the toasts must not cover (a bar of controls), if anything. */
  keepClear: HTMLElement | null;
  dismiss(id: number): void;
}

let nextId = 1;
const DEFAULT_DURATION_MS = 5000;

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  keepClear: null,
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
}));

/** Shows a toast; it disappears after `durationMs` or when dismissed. */
export function showToast(message: string, tone: ToastTone = 'info', durationMs = DEFAULT_DURATION_MS): void {
  const id = nextId++;
  useToastStore.setState((state) => ({
    // The same message twice in a row (e.g. several failed calls) is shown once.
    toasts: [...state.toasts.filter((toast) => toast.message !== message), { id, tone, message }].slice(-4),
  }));
  setTimeout(() => useToastStore.getState().dismiss(id), durationMs);
}

/**
 * Keeps the toasts clear of `element` (the explorer's selection bar) while it is shown: they move
 * above it when they would cover it. Returns the release.
 */
export function keepToastsClearOf(element: HTMLElement): () => void {
  useToastStore.setState({ keepClear: element });
  return () => {
    if (useToastStore.getState().keepClear === element) useToastStore.setState({ keepClear: null });
  };
}
