/**
 * The Home editor: a CodeMirror editor (lazy) with a Markdown toolbar, edit / split / preview
 * modes, Markdown or plain-text format, opening a local .md/.txt file (after asking, when it would
 * replace text), character and word counts, the share settings, and the draft kept in the offline
 * database. A title, the public flag, and "Add file" for a paste of several named files
 * (the pastes feature's file tabs; docs/api.md, "Multi-file pastes").
 */
import { Suspense, useDeferredValue, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PASTE_MAX_BYTES, PASTE_TITLE_MAX, formatBytes, type PasteFormat } from '@cubby/shared';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { Checkbox, TextField } from '../../../components/form-field.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageLoading, Spinner } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/i18n/format-date.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { MarkdownView } from '../../../lib/markdown/markdown-view.tsx';
import {
  EMPTY_SETTINGS,
  PasteSettingsFields,
  usePasteForm,
  utf8Bytes,
  validateCreate,
  useCreatePaste,
  type CreatedPaste,
  type DraftFile,
  FileTabs,
  fileName,
  useDraftFiles,
  AddFileButton,
} from '../../pastes/index.ts';
import { SharePolicyNote, useSharePolicy } from '../../upload/index.ts';
import { editFor, type EditorCommand } from '../editor-commands.ts';
import { pasteDefaults } from '../paste-policy.ts';
import { countText } from '../text-stats.ts';
import { useMarkdownDraft } from '../use-markdown-draft.ts';
import { EditorToolbar } from './editor-toolbar.tsx';
import { MarkdownEditor } from './lazy-markdown-editor.ts';
import type { EditorHandle } from './markdown-editor.tsx';

type Mode = 'edit' | 'split' | 'preview';
const MODES: Mode[] = ['edit', 'split', 'preview'];

/**
 * Counting is one pass over the text (about 50 ms for 5 MiB): a text up to this length is counted
 * as it changes, a longer one once typing pauses, not on every keystroke.
 */
const STATS_LIVE_MAX_CHARS = 100_000;
const STATS_DELAY_MS = 300;

export interface PasteComposerProps {
  canCreate: boolean;
  onCreated(created: CreatedPaste, content: string, format: PasteFormat): void;
}

export function PasteComposer({ canCreate, onCreated }: PasteComposerProps) {
  const { t } = useTranslation();
  const [content, setContent] = useState('');
  const [format, setFormat] = useState<PasteFormat>('markdown');
  const [mode, setMode] = useState<Mode>('edit');
  const [fileError, setFileError] = useState<string | null>(null);
  /** A file read while the editor had text: it replaces the text only once the user agrees. */
  const [pendingFile, setPendingFile] = useState<{ name: string; text: string } | null>(null);
  const [title, setTitle] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  /** Empty for a paste of one text; else every file, the first being the editor's text. */
  const {
    files,
    setFiles,
    active: activeFile,
    setActive: setActiveFile,
    add,
    change: changeDraftFile,
  } = useDraftFiles();
  const extraEditor = useRef<EditorHandle | null>(null);
  const { errorScope, ...form } = usePasteForm(EMPTY_SETTINGS);
  // The share policy's defaults are preselected once it is known (docs/api.md, "Share policy").
  const policy = useSharePolicy();
  const [preselected, setPreselected] = useState(false);
  if (policy && !preselected) {
    setPreselected(true);
    form.change(pasteDefaults(policy));
  }
  const create = useCreatePaste();
  const draft = useMarkdownDraft();
  const editor = useRef<EditorHandle | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const deferred = useDeferredValue(content);
  const settled = useDebouncedValue(content, STATS_DELAY_MS);
  const counted = content.length <= STATS_LIVE_MAX_CHARS ? content : settled;
  const stats = useMemo(() => countText(counted), [counted]);
  const markdownMode = format === 'markdown';
  const shownMode: Mode = markdownMode ? mode : 'edit';
  const multi = files.length > 0;
  const extra = activeFile > 0 ? files[activeFile] : undefined;

  const changeContent = (value: string) => {
    draft.note(value);
    setContent(value);
    form.clearErrors(['content']);
  };

  // The first file's text stays in the editor above: the file starts empty.
  const addFile = () => add({ language: format === 'markdown' ? 'markdown' : 'text', content: '' });
  const changeFile = (index: number, change: Partial<DraftFile>) => {
    changeDraftFile(index, change);
    if (index === 0 && change.language) setFormat(change.language === 'markdown' ? 'markdown' : 'text');
    form.clearErrors(['content']);
  };
  const removeFile = (index: number) => {
    const rest = files.filter((_, i) => i !== index);
    if (index === 0) {
      // The next file moves into the editor.
      const next = rest[0]!;
      changeContent(next.content);
      setFormat(next.language === 'markdown' ? 'markdown' : 'text');
    }
    setFiles(rest.length > 1 ? rest : []);
    setActiveFile(0);
  };

  const runCommand = (command: EditorCommand) => {
    const handle = editor.current;
    if (!handle) return;
    const { doc, from, to } = handle.read();
    handle.apply(
      editFor(command, doc, from, to, {
        bold: t('home.placeholders.bold'),
        italic: t('home.placeholders.italic'),
        code: t('home.placeholders.code'),
        linkText: t('home.placeholders.linkText'),
        column: t('home.placeholders.column'),
      }),
    );
  };

  const loadFile = ({ name, text }: { name: string; text: string }) => {
    changeContent(text);
    setFormat(/\.txt$/i.test(name) ? 'text' : 'markdown');
  };

  const openFile = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    const limit = formatBytes(PASTE_MAX_BYTES);
    if (file.size > PASTE_MAX_BYTES) {
      setFileError(t('home.file.tooLarge', { name: file.name, limit }));
      return;
    }
    try {
      const text = await file.text();
      if (utf8Bytes(text) > PASTE_MAX_BYTES) {
        setFileError(t('home.file.tooLarge', { name: file.name, limit }));
        return;
      }
      if (content.trim() === '') loadFile({ name: file.name, text });
      else setPendingFile({ name: file.name, text });
    } catch {
      setFileError(t('home.file.unreadable', { name: file.name }));
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canCreate) return;
    const named = multi
      ? files.map((file, index) => ({
          name: fileName(file, index),
          language: file.language,
          content: index === 0 ? content : file.content,
        }))
      : undefined;
    const result = validateCreate({
      content,
      format,
      values: form.values,
      extras: { title, isPublic, ...(named ? { files: named } : {}) },
      maxBytes: policy?.max_bytes ?? null,
    });
    form.setFormError(null);
    if (!result.ok) {
      form.setErrors(result.errors);
      return;
    }
    create.mutate(result.input, {
      onSuccess: (created) => {
        draft.forget(content);
        onCreated(created, content, format);
      },
      onError: (error) => form.showServerError(error, t('errors.unexpected')),
    });
  };

  const contentError = form.fieldError('content', (key) =>
    t(key, { limit: formatBytes(policy?.max_bytes ?? PASTE_MAX_BYTES) }),
  );
  const editorPane = (
    <div className={`min-w-0 ${shownMode === 'preview' || extra ? 'hidden' : ''}`}>
      <Suspense fallback={<PageLoading />}>
        <MarkdownEditor
          value={content}
          onChange={changeContent}
          format={format}
          label={t('home.editor.label')}
          placeholder={markdownMode ? t('home.editor.placeholderMarkdown') : t('home.editor.placeholderText')}
          onShortcut={(command) => {
            if (markdownMode) runCommand(command);
          }}
          handleRef={editor}
          invalid={Boolean(contentError)}
          describedBy={contentError ? 'paste-content-error' : undefined}
        />
      </Suspense>
    </div>
  );

  return (
    <form ref={errorScope} onSubmit={onSubmit} noValidate className="space-y-6">
      {draft.offer && (
        <Alert tone="info" testId="draft-banner">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p>
              {t('home.draft.found', { date: formatDateTime(new Date(draft.offer.savedAt).toISOString()) })}
            </p>
            <div className="flex gap-2">
              <Button
                size="sm"
                onClick={() => {
                  changeContent(draft.offer!.content);
                  draft.accept();
                }}
              >
                {t('home.draft.restore')}
              </Button>
              <Button size="sm" variant="secondary" onClick={draft.discard}>
                {t('home.draft.discard')}
              </Button>
            </div>
          </div>
        </Alert>
      )}

      <TextField
        label={t('pastes.fields.title')}
        value={title}
        placeholder={t('home.title.placeholder')}
        maxLength={PASTE_TITLE_MAX}
        onChange={(event) => setTitle(event.target.value)}
        data-testid="paste-title"
      />

      {/* The policy's limits before the user writes; a text share has no file type to name. */}
      <SharePolicyNote types={false} />
      <section
        aria-label={t('home.editor.section')}
        className={`overflow-hidden rounded-xl border bg-surface shadow-card ${contentError ? 'border-danger' : 'border-border'}`}
      >
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-border px-2 py-1.5">
          {markdownMode && !extra ? (
            <EditorToolbar onCommand={runCommand} disabled={shownMode === 'preview'} />
          ) : (
            <span />
          )}
          <div className="flex flex-wrap items-center gap-2">
            {markdownMode && !extra && (
              <div
                role="group"
                aria-label={t('home.modes.label')}
                className="inline-flex rounded-md bg-surface-sunken p-0.5"
              >
                {MODES.map((value) => (
                  <button
                    key={value}
                    type="button"
                    aria-pressed={mode === value}
                    data-testid={`mode-${value}`}
                    onClick={() => setMode(value)}
                    className={`rounded px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-ring ${mode === value ? 'bg-surface text-fg shadow-card' : 'text-fg-muted hover:text-fg'}`}
                  >
                    {t(`home.modes.${value}`)}
                  </button>
                ))}
              </div>
            )}
            {!multi && (
              <>
                <label className="sr-only" htmlFor="paste-format">
                  {t('pastes.fields.format')}
                </label>
                <select
                  id="paste-format"
                  value={format}
                  onChange={(event) => setFormat(event.target.value as PasteFormat)}
                  className="h-8 rounded-md border border-border-strong/70 bg-surface px-2 text-xs text-fg focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <option value="markdown">{t('pastes.format.markdown')}</option>
                  <option value="text">{t('pastes.format.text')}</option>
                </select>
              </>
            )}
            <AddFileButton files={files.length} onClick={addFile} />
            <Button
              size="sm"
              variant="ghost"
              onClick={() => fileInput.current?.click()}
              data-testid="open-file"
            >
              {t('home.file.open')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept=".md,.markdown,.txt,text/markdown,text/plain"
              className="hidden"
              data-testid="open-file-input"
              onChange={(event) => {
                void openFile(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </div>
        </div>
        {multi && (
          <FileTabs
            files={files}
            active={activeFile}
            onSelect={setActiveFile}
            onChange={changeFile}
            onRemove={removeFile}
          />
        )}
        {extra && (
          <Suspense fallback={<PageLoading />}>
            <MarkdownEditor
              key={extra.key}
              value={extra.content}
              onChange={(value) => changeFile(activeFile, { content: value })}
              format={extra.language === 'markdown' ? 'markdown' : 'text'}
              label={t('pastes.files.editorLabel', { name: fileName(extra, activeFile) })}
              placeholder={t('home.editor.placeholderText')}
              onShortcut={() => undefined}
              handleRef={extraEditor}
            />
          </Suspense>
        )}
        <div
          className={shownMode === 'split' && !extra ? 'grid lg:grid-cols-2 lg:divide-x divide-border' : ''}
        >
          {editorPane}
          {markdownMode && shownMode !== 'edit' && !extra && (
            <div
              className={`min-w-0 overflow-auto px-4 py-3 ${shownMode === 'split' ? 'max-lg:border-t max-lg:border-border lg:max-h-[36rem]' : 'min-h-[22rem]'}`}
              aria-label={t('home.editor.preview')}
              role="region"
              data-testid="paste-preview"
            >
              {deferred.trim() === '' ? (
                <p className="text-sm text-fg-muted">{t('home.editor.emptyPreview')}</p>
              ) : (
                <MarkdownView content={deferred} />
              )}
            </div>
          )}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 border-t border-border px-4 py-2 text-xs text-fg-muted">
          <p data-testid="text-stats" aria-live="polite">
            {t('home.stats', { characters: stats.characters, words: stats.words })}
          </p>
          <p>{markdownMode ? t('home.editor.markdownHint') : t('home.editor.textHint')}</p>
        </div>
      </section>
      {contentError && (
        <p id="paste-content-error" className="-mt-4 text-sm font-medium text-danger-text">
          {contentError}
        </p>
      )}
      {fileError && (
        <Alert tone="error" testId="file-error" className="-mt-2">
          {fileError}
        </Alert>
      )}

      {pendingFile && (
        <ConfirmDialog
          title={t('home.file.replaceTitle')}
          description={t('home.file.replaceDescription', { name: pendingFile.name })}
          confirmLabel={t('home.file.replace')}
          onConfirm={() => {
            loadFile(pendingFile);
            setPendingFile(null);
          }}
          onClose={() => setPendingFile(null)}
          testId="replace-with-file"
        />
      )}

      <Card title={t('home.settings.title')} description={t('home.settings.description')}>
        <PasteSettingsFields form={form} />
        <Checkbox
          className="mt-4"
          label={t('pastes.fields.public')}
          description={t('pastes.hints.public')}
          checked={isPublic}
          onChange={(event) => setIsPublic(event.target.checked)}
          data-testid="paste-public"
        />
        {form.formError && (
          <Alert tone="error" className="mt-4" testId="paste-form-error">
            {form.formError}
          </Alert>
        )}
        <div className="mt-6 flex flex-wrap items-center justify-end gap-3">
          {!canCreate && (
            <p className="text-sm text-fg-muted">
              <Link to={paths.admin.getHref()} className="text-accent-text underline underline-offset-2">
                {t('home.notice.signIn')}
              </Link>
            </p>
          )}
          <Button type="submit" disabled={!canCreate || create.isPending} data-testid="create-paste">
            {create.isPending && <Spinner className="size-4 text-accent-fg" />}
            {t('home.submit')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
