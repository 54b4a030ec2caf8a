/**
 * The four main destinations (docs/product.md §2). On wide screens they sit in the header; under 768 px a
 * toggle button opens them as a menu that closes once a link is chosen (or on Escape, which gives
 * the focus back to the toggle). It is the disclosure pattern WAI-ARIA recommends for site
 * navigation (a list of links), not an application menu: Tab moves through the links.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CloseIcon, MenuIcon } from '../../components/icons.tsx';
import { paths } from '../../config/paths.ts';

function useNavItems() {
  const { t } = useTranslation();
  return [
    { to: paths.home.getHref(), label: t('nav.home'), end: true },
    { to: paths.upload.getHref(), label: t('nav.upload'), end: false },
    { to: paths.mountExplorer.getHref(), label: t('nav.mountExplorer'), end: false },
    { to: paths.admin.getHref(), label: t('nav.admin'), end: false },
  ];
}

const linkBase =
  'rounded-md text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

export function DesktopNav() {
  const { t } = useTranslation();
  const items = useNavItems();
  return (
    <nav aria-label={t('nav.main')} className="hidden md:block">
      <ul className="flex items-center gap-1">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                `${linkBase} block px-3 py-2 ${isActive ? 'bg-accent-soft text-accent-text' : 'text-fg-muted hover:bg-surface-sunken hover:text-fg'}`
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function MobileNav() {
  const { t } = useTranslation();
  const items = useNavItems();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <div className="md:hidden" onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex size-9 items-center justify-center rounded-md text-fg hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-ring"
        data-testid="mobile-menu-toggle"
      >
        {open ? <CloseIcon /> : <MenuIcon />}
      </button>
      <nav
        id={panelId}
        aria-label={t('nav.main')}
        hidden={!open}
        className="absolute inset-x-0 top-full z-30 border-b border-border bg-surface shadow-lg"
        data-testid="mobile-menu"
      >
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                onClick={() => setOpen(false)}
                className={({ isActive }) =>
                  `${linkBase} block px-3 py-2.5 ${isActive ? 'bg-accent-soft text-accent-text' : 'text-fg hover:bg-surface-sunken'}`
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
