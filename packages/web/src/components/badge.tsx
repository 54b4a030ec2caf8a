/** A small rounded label (status, permission, format). */
export type BadgeTone = 'accent' | 'muted' | 'danger' | 'success' | 'warning';

const tones: Record<BadgeTone, string> = {
  accent: 'bg-accent-soft text-accent-text',
  muted: 'bg-surface-sunken text-fg-muted',
  danger: 'bg-danger-soft text-danger-text',
  success: 'bg-success-soft text-success-text',
  warning: 'bg-warning-soft text-warning-text',
};

export function Badge({
  children,
  tone = 'accent',
  testId,
}: {
  children: string;
  tone?: BadgeTone;
  testId?: string;
}) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}
