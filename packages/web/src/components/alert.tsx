/** An inline message inside a form or page (errors are announced as alerts). */
import type { ReactNode } from 'react';

export type AlertTone = 'info' | 'success' | 'warning' | 'error';

const tones: Record<AlertTone, string> = {
  info: 'border-accent/40 bg-accent-soft text-fg',
  success: 'border-success/50 bg-success-soft text-success-text',
  warning: 'border-warning/60 bg-warning-soft text-warning-text',
  error: 'border-danger/50 bg-danger-soft text-danger-text',
};

export function Alert({
  tone = 'info',
  children,
  className = '',
  testId,
  id,
}: {
  tone?: AlertTone;
  children: ReactNode;
  className?: string;
  testId?: string;
  /** For a control the message describes (`aria-describedby`). */
  id?: string;
}) {
  return (
    <div
      id={id}
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-md border px-3 py-2 text-sm break-words ${tones[tone]} ${className}`}
    >
      {children}
    </div>
  );
}
