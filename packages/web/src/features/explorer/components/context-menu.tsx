/**
 * The actions menu of the selected entries, opened by a right-click (at the pointer), the "more"
 * button of a row, or the Menu key / Shift+F10 (at the focused row). WAI-ARIA menu: the first item
 * takes the focus, arrows/Home/End move, Enter/Space run, Escape or Tab close and give the focus
 * back to what had it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface MenuAction {
  id: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  run(): void;
}

export interface MenuAnchor {
  x: number;
  y: number;
}

export function ContextMenu({
  anchor,
  label,
  actions,
  onClose,
}: {
  anchor: MenuAnchor;
  label: string;
  actions: MenuAction[];
  onClose(): void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  const [position, setPosition] = useState({ left: anchor.x, top: anchor.y });

  // Keep the menu inside the window.
  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (!box) return;
    const left = Math.max(8, Math.min(anchor.x, window.innerWidth - box.width - 8));
    const top = Math.max(8, Math.min(anchor.y, window.innerHeight - box.height - 8));
    setPosition({ left, top });
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [anchor.x, anchor.y]);

  useEffect(() => {
    const close = (event: Event) => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    window.addEventListener('pointerdown', close, true);
    window.addEventListener('resize', onClose);
    window.addEventListener('scroll', onClose, true);
    return () => {
      window.removeEventListener('pointerdown', close, true);
      window.removeEventListener('resize', onClose);
      window.removeEventListener('scroll', onClose, true);
    };
  }, [onClose]);

  const closeAndRestore = () => {
    onClose();
    opener.current?.focus();
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => items[(index + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        focus(at + 1);
        break;
      case 'ArrowUp':
        focus(at - 1);
        break;
      case 'Home':
        focus(0);
        break;
      case 'End':
        focus(items.length - 1);
        break;
      case 'Escape':
        closeAndRestore();
        break;
      case 'Tab':
        closeAndRestore();
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return createPortal(
    <div
      ref={menu}
      role="menu"
      aria-label={label}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
      style={{ left: position.left, top: position.top }}
      className="fixed z-50 min-w-48 rounded-lg border border-border bg-surface-raised p-1 shadow-lg"
      data-testid="explorer-menu"
    >
      {actions.map((action) => (
        <button
          key={action.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          data-testid={`menu-${action.id}`}
          onClick={() => {
            onClose();
            opener.current?.focus();
            action.run();
          }}
          className={`flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm focus:bg-accent-soft focus:outline-none hover:bg-surface-sunken ${
            action.danger ? 'text-danger-text' : 'text-fg'
          }`}
        >
          {action.icon}
          {action.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
