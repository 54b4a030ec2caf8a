/** One labelled fact of a record card or detail view (a `dt`/`dd` pair inside a `dl`). */
import type { ReactNode } from 'react';

export function Fact({
  label,
  children,
  className = '',
}: {
  label: string;
  children: ReactNode;
  /** E.g. `col-span-2` for a long value in a two-column card. */
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs font-medium text-fg-muted">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-fg">{children}</dd>
    </div>
  );
}
