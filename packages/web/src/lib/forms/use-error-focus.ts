/**
 * Moves the focus to a form's first invalid control once its errors are on screen (WCAG 3.3.1):
 * pass `errorScope` as the `ref` of the form (or of whatever holds the fields) and call
 * `focusFirstError()` where the errors are set. The request is a state change, so the focus moves
 * after React has rendered the errors with it (`aria-invalid` on the controls, `aria-describedby`
 * pointing at the messages), whether they were set on submit or when the server answered.
 */
import { useCallback, useEffect, useState } from 'react';

export function useErrorFocus<T extends HTMLElement = HTMLFormElement>() {
  // A callback ref kept in state (not a ref object), so the form state that carries it can be
  // read during render.
  const [scope, errorScope] = useState<T | null>(null);
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request === 0) return;
    scope?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [request, scope]);
  const focusFirstError = useCallback(() => setRequest((count) => count + 1), []);
  return { errorScope, focusFirstError };
}
