/**
 * Inline rename, as in a desktop file manager: the name becomes a text box with the part before the
 * extension selected; Enter or leaving the box renames, Escape keeps the old name.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export function RenameInput({
  name,
  isDirectory,
  onCommit,
  onCancel,
}: {
  name: string;
  isDirectory: boolean;
  onCommit(name: string): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    const box = input.current;
    if (!box) return;
    box.focus();
    const dot = isDirectory ? -1 : name.lastIndexOf('.');
    box.setSelectionRange(0, dot > 0 ? dot : name.length);
  }, [name, isDirectory]);

  const finish = (commit: boolean) => {
    if (done.current) return;
    done.current = true;
    const value = input.current?.value ?? name;
    if (commit && value !== name) onCommit(value);
    else onCancel();
  };

  return (
    <input
      ref={input}
      defaultValue={name}
      aria-label={t('explorer.rename.label', { name })}
      data-testid="rename-input"
      className="w-full min-w-0 rounded border border-accent bg-surface px-1.5 py-0.5 text-sm text-fg focus:outline-2 focus:outline-ring"
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') finish(true);
        if (event.key === 'Escape') finish(false);
      }}
      onBlur={() => finish(true)}
    />
  );
}
