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
  dismiss(id: number): void;
}

let nextId = 1;
const DEFAULT_DURATION_MS = 5000;

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
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
