/**
 * The state of a confirm dialog before a delete: what is being confirmed (`null`: closed) and the
 * error of the last attempt, shown in the dialog so the user can retry or cancel.
 */
import { useState } from 'react';
import { errorMessage } from '../../lib/api/index.ts';

export function useConfirmation<T>() {
  const [confirming, setConfirming] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    confirming,
    error,
    open: (what: T) => setConfirming(what),
    close: () => {
      setConfirming(null);
      setError(null);
    },
    /** A new attempt: the last one's error goes. */
    retry: () => setError(null),
    fail: (failure: unknown) => setError(errorMessage(failure)),
  };
}
