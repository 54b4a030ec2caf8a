/**
 * The file tabs of a multi-file paste in the Home editor (docs/api.md, "Multi-file pastes"): one
 * button per file (its name, or "File n" until it has one) and the active file's name and language.
 * The first file is the editor above (its text, Markdown tools and preview); the others get a plain
 * editor each. Buttons wrap on a narrow screen rather than scroll.
 */
import { useTranslation } from 'react-i18next';
import { PASTE_FILE_NAME_MAX, PASTE_LANGUAGES, type PasteLanguage } from '@cubby/shared';
import { Button } from '../../../components/button.tsx';
import { SelectField, TextField } from '../../../components/form-field.tsx';
import { TrashIcon } from '../../../components/icons.tsx';

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
}: {
  files: DraftFile[];
  active: number;
  onSelect(index: number): void;
  onChange(index: number, change: Partial<Pick<DraftFile, 'name' | 'language'>>): void;
  onRemove(index: number): void;
}) {
  const { t } = useTranslation();
  const current = files[active];
  return (
    <div className="space-y-3 border-b border-border px-3 py-2" data-testid="file-tabs">
      <div role="group" aria-label={t('home.files.label')} className="flex flex-wrap gap-1">
        {files.map((file, index) => (
          <button
            key={file.key}
            type="button"
            aria-pressed={index === active}
            onClick={() => onSelect(index)}
            data-testid="file-tab"
            className={`max-w-48 truncate rounded px-2.5 py-1 font-mono text-xs focus-visible:outline-2 focus-visible:outline-ring ${index === active ? 'bg-surface-sunken font-medium text-fg' : 'text-fg-muted hover:text-fg'}`}
          >
            {file.name.trim() || t('home.files.untitled', { n: index + 1 })}
          </button>
        ))}
      </div>
      {current && (
        <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end">
          <TextField
            label={t('home.files.name')}
            value={current.name}
            placeholder={`file-${active + 1}`}
            // The default name is what the file is sent under: data, not wording.
            data-user-content=""
            maxLength={PASTE_FILE_NAME_MAX}
            onChange={(event) => onChange(active, { name: event.target.value })}
            data-testid="file-name"
          />
          <SelectField
            label={t('home.files.language')}
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
            onClick={() => onRemove(active)}
            aria-label={t('home.files.removeNamed', { name: current.name.trim() || `file-${active + 1}` })}
            data-testid="remove-file"
          >
            <TrashIcon className="size-4 text-danger-text" />
            {t('home.files.remove')}
          </Button>
        </div>
      )}
    </div>
  );
}
