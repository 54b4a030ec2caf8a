/**
 * A button that opens a menu of choices, one of them checked (the WAI-ARIA menu-button pattern
 * with `menuitemradio` items): the button has `aria-haspopup="menu"` and `aria-expanded`; Enter,
 * Space or Down Arrow opens the menu on the checked item (Up Arrow on the last one); in the menu the
 * arrows move and wrap, Home and End go to the ends, a letter goes to the next item starting with
 * it, Enter or Space chooses, Escape closes and gives the focus back to the button, Tab closes and
 * moves on. A click outside closes it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuChoice<V extends string> {
  value: V;
  label: string;
  /** Language of the label, when it is not the page's. */
  lang?: string;
}

export interface MenuButtonProps<V extends string> {
  /** The button's visible content; it is also its accessible name, so name it there (sr-only text). */
  children: ReactNode;
  choices: readonly MenuChoice<V>[];
  value: V;
  onChoose(value: V): void;
  /** Accessible name of the menu. */
  menuLabel: string;
  buttonClassName?: string;
  testId?: string;
}

export function MenuButton<V extends string>({
  children,
  choices,
  value,
  onChoose,
  menuLabel,
  buttonClassName = '',
  testId,
}: MenuButtonProps<V>) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const rootRef = useRef<HTMLDivElement>(null);
  /** The item to focus once the menu is rendered. */
  const [focusIndex, setFocusIndex] = useState(0);
  const ids = useId();

  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const checkedIndex = Math.max(
    0,
    choices.findIndex((choice) => choice.value === value),
  );
  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const choose = (choice: MenuChoice<V>) => {
    close(true);
    if (choice.value !== value) onChoose(choice.value);
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? checkedIndex : choices.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const last = choices.length - 1;
    const current = itemRefs.current.findIndex((item) => item === document.activeElement);
    const move = (index: number) => {
      event.preventDefault();
      setFocusIndex(index);
      itemRefs.current[index]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(current >= last ? 0 : current + 1);
      case 'ArrowUp':
        return move(current <= 0 ? last : current - 1);
      case 'Home':
      case 'PageUp':
        return move(0);
      case 'End':
      case 'PageDown':
        return move(last);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        return close(true);
      case 'Tab':
        return close(false);
      case 'Enter':
      case ' ': {
        event.preventDefault();
        const choice = choices[current];
        if (choice) choose(choice);
        return;
      }
      default: {
        if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
        const letter = event.key.toLocaleLowerCase();
        const order = choices.map((_, offset) => (current + 1 + offset) % choices.length);
        const next = order.find((index) => choices[index]!.label.toLocaleLowerCase().startsWith(letter));
        if (next !== undefined) move(next);
      }
    }
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        id={`${ids}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${ids}-menu` : undefined}
        onClick={() => (open ? close(false) : openAt(checkedIndex))}
        onKeyDown={onButtonKeyDown}
        data-testid={testId}
        data-value={value}
        className={buttonClassName}
      >
        {children}
      </button>
      {open && (
        <ul
          id={`${ids}-menu`}
          role="menu"
          aria-label={menuLabel}
          onKeyDown={onMenuKeyDown}
          className="absolute end-0 top-full z-40 mt-1 min-w-36 rounded-lg border border-border bg-surface-raised p-1 shadow-lg"
        >
          {choices.map((choice, index) => (
            <li
              key={choice.value}
              ref={(element) => {
                itemRefs.current[index] = element;
              }}
              role="menuitemradio"
              aria-checked={choice.value === value}
              tabIndex={-1}
              lang={choice.lang}
              onClick={() => choose(choice)}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-fg hover:bg-surface-sunken focus:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring aria-checked:font-semibold"
            >
              <span aria-hidden="true" className="w-3 text-accent-text">
                {choice.value === value ? '✓' : ''}
              </span>
              {choice.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
