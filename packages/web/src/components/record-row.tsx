/**
 * One record of a list as a bordered row: its name with badges and actions on top, its facts
 * (`Fact`s) below in a grid that reflows from one column on a phone to `columns` on a wide screen.
 */
import type { ReactNode } from 'react';

export function RecordRow({
  title,
  badges,
  actions,
  children,
  columns = 'grid-cols-1 sm:grid-cols-3',
  hint,
  testId,
}: {
  title: ReactNode;
  badges?: ReactNode;
  actions?: ReactNode;
  /** The facts. */
  children: ReactNode;
  /** Grid columns of the facts (Tailwind classes). */
  columns?: string;
  /** Shown on hovering the title (e.g. the full text a short name stands for). */
  hint?: string;
  testId?: string;
}) {
  return (
    <li className="rounded-lg border border-border p-3 sm:p-4" data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex min-w-0 flex-wrap items-center gap-2 font-medium text-fg">
          {/* A name someone chose, or data (an address, a device): not wording of the app. */}
          <span className="truncate" title={hint} data-user-content="">
            {title}
          </span>
          {badges}
        </p>
        {actions && <div className="flex gap-2">{actions}</div>}
      </div>
      <dl className={`mt-2 grid gap-2 ${columns}`}>{children}</dl>
    </li>
  );
}
