/**
 * The folders of a folder picker as a list of buttons, each opening its folder: the key's base-path
 * picker and the explorer's copy/move picker. Mounts (and the way to them) show a server icon.
 */
import { FolderIcon, ServerIcon } from './icons.tsx';

export interface FolderButton {
  name: string;
  path: string;
  /** A mount, or a folder that only exists on the way to one. */
  isVirtual: boolean;
}

export function FolderButtons({
  folders,
  label,
  enterLabel,
  onOpen,
}: {
  folders: readonly FolderButton[];
  /** The list's accessible name. */
  label: string;
  /** Each button's accessible name ("Open 2026"). */
  enterLabel(name: string): string;
  onOpen(path: string): void;
}) {
  return (
    <ul aria-label={label} className="max-h-72 overflow-y-auto">
      {folders.map((folder) => (
        <li key={folder.path}>
          <button
            type="button"
            className="flex w-full min-w-0 items-center gap-2 px-3 py-2 text-left text-sm text-fg hover:bg-surface-sunken focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
            onClick={() => onOpen(folder.path)}
            aria-label={enterLabel(folder.name)}
            data-testid="picker-folder"
            data-path={folder.path}
          >
            {folder.isVirtual ? (
              <ServerIcon className="size-4 shrink-0 text-accent-text" />
            ) : (
              <FolderIcon className="size-4 shrink-0 text-warning-text" />
            )}
            <span className="min-w-0 break-all" data-user-content="">
              {folder.name}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
