/**
 * Formatting buttons of the editor (Markdown only), with accessible names and tooltips; a command
 * with a keyboard shortcut names it in its tooltip and in `aria-keyshortcuts`.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import {
  COMMAND_SHORTCUTS,
  EDITOR_COMMANDS,
  describeShortcut,
  type EditorCommand,
} from '../editor-commands.ts';

/** Apple devices: CodeMirror's `Mod` is ⌘ there. */
const APPLE = typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform);

const ICONS: Record<EditorCommand, ReactElement> = {
  bold: <path d="M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z" strokeWidth={2.4} />,
  italic: <path d="M11 5h7M6 19h7M14.5 5l-5 14" />,
  heading: <path d="M6 5v14M18 5v14M6 12h12" strokeWidth={2.2} />,
  link: (
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  ),
  code: <path d="M8 8l-4 4 4 4M16 8l4 4-4 4" />,
  quote: <path d="M7 7h4v4c0 3-2 5-4 6M14 7h4v4c0 3-2 5-4 6" />,
  bulletList: <path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />,
  taskList: <path d="M4 6l1.5 1.5L8 5M4 13l1.5 1.5L8 12M11 6h9M11 13h9M11 19h9" />,
  table: <path d="M4 5h16v14H4zM4 10h16M4 15h16M10 5v14" />,
};

export function EditorToolbar({
  onCommand,
  disabled,
}: {
  onCommand(command: EditorCommand): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div role="toolbar" aria-label={t('home.toolbar.label')} className="flex flex-wrap items-center gap-0.5">
      {EDITOR_COMMANDS.map((command) => {
        const name = t(`home.toolbar.${command}`);
        const shortcutKeys = COMMAND_SHORTCUTS[command];
        const shortcut = shortcutKeys ? describeShortcut(shortcutKeys, APPLE) : null;
        return (
          <button
            key={command}
            type="button"
            disabled={disabled}
            onClick={() => onCommand(command)}
            title={shortcut ? t('home.toolbar.withShortcut', { name, shortcut: shortcut.label }) : name}
            aria-label={name}
            aria-keyshortcuts={shortcut?.aria}
            data-testid={`toolbar-${command}`}
            className="inline-flex size-8 items-center justify-center rounded-md text-sm text-fg-muted hover:bg-surface-sunken hover:text-fg focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
          >
            <svg
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth={1.9}
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              {ICONS[command]}
            </svg>
          </button>
        );
      })}
    </div>
  );
}
