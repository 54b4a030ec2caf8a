/**
 * The bar above the folder's entries: how many there are and, once some are chosen, the actions on
 * them. It keeps its place and its height whatever is chosen and sticks to the top of the window
 * while the list scrolls, so choosing an entry never moves the list nor covers the entry under the
 * pointer (the second click of a double click lands where the first did); toasts keep clear of it.
 * At phone width the actions show as icons and the row scrolls sideways when they do not fit.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { CloseIcon } from '../../../components/icons.tsx';
import { keepToastsClearOf } from '../../../components/toast/toast-store.ts';
import type { MenuAction } from './context-menu.tsx';

/** Its height in pixels: the list keeps entries it scrolls to clear of it. */
export const SELECTION_BAR_HEIGHT = 48;

export function SelectionBar({
  total,
  selected,
  actions,
  onClear,
}: {
  /** Entries in the folder. */
  total: number;
  /** Entries chosen. */
  selected: number;
  actions: readonly MenuAction[];
  onClear(): void;
}) {
  const { t } = useTranslation();
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => keepToastsClearOf(bar.current!), []);
  return (
    <div
      ref={bar}
      className="sticky top-0 z-20 flex items-center gap-3 rounded-lg border border-border bg-surface-raised px-3 text-sm shadow-card"
      style={{ height: SELECTION_BAR_HEIGHT }}
      data-testid="explorer-bar"
    >
      <span
        className={`shrink-0 text-fg-muted ${selected > 0 ? 'hidden lg:inline' : ''}`}
        data-testid="explorer-count"
      >
        {t('explorer.count', { count: total })}
      </span>
      {selected > 0 && (
        <div
          role="toolbar"
          aria-label={t('explorer.selectionActions')}
          className="flex min-w-0 flex-1 items-center gap-2"
          data-testid="selection-bar"
        >
          <span className="shrink-0 font-medium text-fg" aria-live="polite">
            {t('explorer.selected', { count: selected })}
          </span>
          {/* Relative: the labels hidden at phone width (sr-only, absolute) stay inside the scroller. */}
          <div className="relative flex min-w-0 flex-1 items-center gap-2 overflow-x-auto p-1">
            {actions.map((action) => (
              <Button
                key={action.id}
                size="sm"
                variant={action.danger ? 'danger' : 'secondary'}
                onClick={action.run}
                title={action.label}
                className="max-sm:px-2"
                data-testid={`selection-${action.id}`}
              >
                {action.icon}
                <span className="max-sm:sr-only">{action.label}</span>
              </Button>
            ))}
          </div>
          <Button
            size="sm"
            variant="ghost"
            onClick={onClear}
            title={t('explorer.clearSelection')}
            className="max-sm:px-2"
            data-testid="selection-clear"
          >
            <CloseIcon className="size-4" />
            <span className="max-sm:sr-only">{t('explorer.clearSelection')}</span>
          </Button>
        </div>
      )}
    </div>
  );
}
