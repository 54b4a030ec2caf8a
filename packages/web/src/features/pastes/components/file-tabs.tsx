/**
 * The file tabs of a multi-file paste (docs/api.md, "Multi-file pastes"), in the Home editor and the
 * edit dialog: one button per file (its name, or "File n" until it has one) and the active file's
 * name, language and remove button. The editor of the active file's text is the caller's (on Home
 * the first file is the big editor above). Buttons wrap on a narrow screen rather than scroll.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PASTE_FILE_NAME_MAX,
  PASTE_MAX_FILES,
  PASTE_LANGUAGES,
  type PasteFile,
  type PasteLanguage,
} from '@cubby/shared';
import { Button } from '../../../components/button.tsx';
import { SelectField, TextField } from '../../../components/form-field.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';

export interface DraftFile {
  /** A key for React only. */
  key: number;
  name: string;
  language: PasteLanguage;
  content: string;
}

/** The name a file is sent under: its own, or `file-<n>` when left empty. */
export const fileName = (file: DraftFile, index: number) => file.name.trim() || `file-${index + 1}`;

export function FileTabs({
  files,
  active,
  onSelect,
  onChange,
  onRemove,
  removable = true,
}: {
  files: DraftFile[];
  active: number;
  onSelect(index: number): void;
  onChange(index: number, change: Partial<Pick<DraftFile, 'name' | 'language'>>): void;
  onRemove(index: number): void;
  /** False while the paste must keep the files it has (its last one). */
  removable?: boolean;
}) {
  const { t } = useTranslation();
  const current = files[active];
  return (
    <div className="space-y-3 border-b border-border px-3 py-2" data-testid="file-tabs">
      <div role="group" aria-label={t('pastes.files.label')} className="flex flex-wrap gap-1">
        {files.map((file, index) => (
          <button
            key={file.key}
            type="button"
            aria-pressed={index === active}
            onClick={() => onSelect(index)}
            data-testid="file-tab"
            className={`max-w-48 truncate rounded px-2.5 py-1 font-mono text-xs focus-visible:outline-2 focus-visible:outline-ring ${index === active ? 'bg-surface-sunken font-medium text-fg' : 'text-fg-muted hover:text-fg'}`}
          >
            {file.name.trim() ? (
              <span data-user-content="">{file.name}</span>
            ) : (
              t('pastes.files.untitled', { n: index + 1 })
            )}
          </button>
        ))}
      </div>
      {current && (
        <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end">
          <TextField
            label={t('pastes.files.name')}
            value={current.name}
            placeholder={`file-${active + 1}`}
            // The default name is what the file is sent under: data, not wording.
            data-user-content=""
            maxLength={PASTE_FILE_NAME_MAX}
            onChange={(event) => onChange(active, { name: event.target.value })}
            data-testid="file-name"
          />
          <SelectField
            label={t('pastes.files.language')}
            value={current.language}
            onChange={(event) => onChange(active, { language: event.target.value as PasteLanguage })}
            data-testid="file-language"
          >
            {PASTE_LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {t(`pastes.languages.${language}`)}
              </option>
            ))}
          </SelectField>
          <Button
            variant="ghost"
            size="sm"
            disabled={!removable}
            onClick={() => onRemove(active)}
            aria-label={t('pastes.files.removeNamed', { name: current.name.trim() || `file-${active + 1}` })}
            data-testid="remove-file"
          >
            <TrashIcon className="size-4 text-danger-text" />
            {t('pastes.files.remove')}
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * The files of a multi-file paste being written: the list (empty for a paste of one text), the
 * active one, adding one (a paste of one text first becomes its first file) and changing one.
 */
export function useDraftFiles(initial: readonly PasteFile[] = []) {
  const [files, setFiles] = useState<DraftFile[]>(() =>
    initial.map((file, key) => ({
      key,
      name: file.name,
      language: file.language ?? 'text',
      content: file.content,
    })),
  );
  const [active, setActive] = useState(0);
  const nextKey = useRef(files.length);
  const newFile = (language: PasteLanguage, content = ''): DraftFile => ({
    key: nextKey.current++,
    name: '',
    language,
    content,
  });
  return {
    files,
    setFiles,
    active,
    setActive,
    /** Adds an empty file and shows it; `first` is the paste's one text when it has no files yet. */
    add(first: { language: PasteLanguage; content: string }) {
      const start = files.length > 0 ? files : [newFile(first.language, first.content)];
      setFiles([...start, newFile('text')]);
      setActive(start.length);
    },
    change(index: number, change: Partial<DraftFile>) {
      setFiles((list) => list.map((file, i) => (i === index ? { ...file, ...change } : file)));
    },
  };
}

/** "Add file", while the paste has room for one more (PASTE_MAX_FILES). */
export function AddFileButton({ files, onClick }: { files: number; onClick(): void }) {
  const { t } = useTranslation();
  return (
    <Button
      size="sm"
      variant="ghost"
      onClick={onClick}
      disabled={files >= PASTE_MAX_FILES}
      data-testid="add-file"
    >
      <PlusIcon className="size-4" />
      {t('pastes.files.add')}
    </Button>
  );
}
