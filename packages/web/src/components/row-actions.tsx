/**
 * The action buttons of a list row (preview, edit, delete…). In a compact table row they show only
 * their icons, with the text as tooltip and the full name for assistive tech; in a card the text
 * shows from the `sm` width up.
 */
import type { ReactNode } from 'react';
import { Button } from './button.tsx';

export interface RowAction {
  testId: string;
  icon: ReactNode;
  /** Short visible text ("Edit"). */
  text: string;
  /** Accessible name naming the row ("Edit report.pdf"). */
  name: string;
  onClick(): void;
}

/** Class of an action's visible text, for links placed beside the buttons. */
export function rowActionTextClass(compact: boolean): string {
  return compact ? 'sr-only' : 'sr-only sm:not-sr-only';
}

export function RowActions({
  actions,
  compact = false,
  children,
}: {
  actions: RowAction[];
  compact?: boolean;
  /** Extra controls before the buttons (e.g. a link styled as a button). */
  children?: ReactNode;
}) {
  return (
    <div className={`flex gap-1.5 ${compact ? 'flex-nowrap justify-end' : 'flex-wrap'}`}>
      {children}
      {actions.map((action) => (
        <Button
          key={action.testId}
          variant="secondary"
          size="sm"
          className={compact ? 'px-2' : ''}
          onClick={action.onClick}
          aria-label={action.name}
          title={compact ? action.text : undefined}
          data-testid={action.testId}
        >
          {action.icon}
          <span className={rowActionTextClass(compact)}>{action.text}</span>
        </Button>
      ))}
    </div>
  );
}
