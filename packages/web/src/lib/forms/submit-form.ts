/**
 * The submit of a create-or-edit dialog: check the values on the client (errors next to their
 * fields), then save; on success a toast and the dialog closes, on failure the server's answer is
 * shown in the form.
 */
import type { FormEvent } from 'react';
import { showToast } from '../../components/toast/toast-store.ts';

interface SubmittableForm<V, E> {
  values: V;
  setErrors(errors: E): void;
  setFormError(message: string | null): void;
  showServerError(error: unknown, fallback: string): void;
}

export interface SubmitOptions<V, I, E> {
  validate(values: V): { ok: true; input: I } | { ok: false; errors: E };
  /** Creates or updates; calls back as a mutation does. */
  save(input: I, callbacks: { onSuccess(): void; onError(error: unknown): void }): void;
  /** The toast after saving. */
  savedMessage(input: I): string;
  /** Shown when a failure carries no message of the server's. */
  fallback: string;
  onClose(): void;
}

export function submitForm<V, I, E>(
  event: FormEvent,
  form: SubmittableForm<V, E>,
  options: SubmitOptions<V, I, E>,
) {
  event.preventDefault();
  form.setFormError(null);
  const result = options.validate(form.values);
  if (!result.ok) {
    form.setErrors(result.errors);
    return;
  }
  const { input } = result;
  options.save(input, {
    onSuccess: () => {
      showToast(options.savedMessage(input), 'success');
      options.onClose();
    },
    onError: (error) => form.showServerError(error, options.fallback),
  });
}
