/** A bordered surface that groups related content, with an optional heading row. */
import type { ReactNode } from 'react';

export interface CardProps {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Heading level of the title (defaults to h2). */
  as?: 'h1' | 'h2' | 'h3';
}

export function Card({
  title,
  description,
  actions,
  children,
  className = '',
  as: Heading = 'h2',
}: CardProps) {
  return (
    <section className={`rounded-xl border border-border bg-surface p-4 shadow-card sm:p-6 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            {title && <Heading className="text-lg font-semibold text-fg">{title}</Heading>}
            {description && <p className="mt-1 text-sm text-fg-muted">{description}</p>}
          </div>
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}
