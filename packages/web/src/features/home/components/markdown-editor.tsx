/**
 * The code editor of the Home page (a lazy chunk: CodeMirror 6 with Markdown highlighting, or
 * plain text). Controlled: `value` in, `onChange` out; an outside change (restored draft, opened
 * file) replaces the document. Toolbar commands reach it through `handleRef`. A document longer
 * than HIGHLIGHT_MAX_CHARS is edited without highlighting, which would cost a second per keystroke.
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, keymap, placeholder as placeholderText } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { PasteFormat } from '@cubby/shared';
import { HIGHLIGHT_MAX_CHARS } from '../../../lib/markdown/highlight-limit.ts';
import { COMMAND_SHORTCUTS, type EditorCommand, type TextEdit } from '../editor-commands.ts';

export interface EditorHandle {
  /** The document and the main selection. */
  read(): { doc: string; from: number; to: number };
  apply(edit: TextEdit): void;
  focus(): void;
}

export interface MarkdownEditorProps {
  value: string;
  onChange(value: string): void;
  format: PasteFormat;
  label: string;
  placeholder: string;
  /** A command's keyboard shortcut was pressed (COMMAND_SHORTCUTS). */
  onShortcut?(command: EditorCommand): void;
  handleRef?: Ref<EditorHandle>;
  invalid?: boolean;
  describedBy?: string;
}

const markdownHighlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: '700', color: 'var(--accent-text)' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent-text)', textDecoration: 'underline' },
  { tag: tags.monospace, fontFamily: 'ui-monospace, monospace', color: 'var(--danger-text)' },
  { tag: tags.quote, color: 'var(--fg-muted)', fontStyle: 'italic' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], color: 'var(--fg-muted)' },
  { tag: tags.list, color: 'var(--accent-text)' },
]);

const theme = EditorView.theme({
  '&': {
    height: '100%',
    minHeight: '22rem',
    color: 'var(--fg)',
    backgroundColor: 'var(--surface)',
    fontSize: '0.9rem',
  },
  // The ring every text field has when focused, inside the editor's frame (which clips overflow).
  // On :focus-within, which holds from the moment the focus arrives: CodeMirror adds .cm-focused
  // from a timer 10 ms or more later (3 to 55 ms measured), and the ring must not lag behind.
  '&.cm-focused, &:focus-within': { outline: '2px solid var(--ring)', outlineOffset: '-2px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    lineHeight: '1.6',
    overflow: 'auto',
  },
  '.cm-content': { padding: '0.75rem 0', caretColor: 'var(--fg)' },
  '.cm-line': { padding: '0 0.85rem' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--accent-soft) !important',
  },
  '.cm-placeholder': { color: 'var(--fg-muted)' },
});

function languageFor(format: PasteFormat, length: number): Extension {
  return format === 'markdown' && length <= HIGHLIGHT_MAX_CHARS
    ? [markdown({ base: markdownLanguage }), syntaxHighlighting(markdownHighlight)]
    : [];
}

function attributesFor(label: string, invalid?: boolean, describedBy?: string) {
  return EditorView.contentAttributes.of({
    'aria-label': label,
    'aria-multiline': 'true',
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  });
}

export default function MarkdownEditor({
  value,
  onChange,
  format,
  label,
  placeholder,
  onShortcut,
  handleRef,
  invalid,
  describedBy,
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const onShortcutRef = useRef(onShortcut);
  const formatRef = useRef(format);
  const compartments = useRef({
    language: new Compartment(),
    attributes: new Compartment(),
    placeholder: new Compartment(),
  });
  // The first values only: later ones arrive through the effects below.
  const initial = useRef({ value, format, label, placeholder, invalid, describedBy });

  useEffect(() => {
    onChangeRef.current = onChange;
    onShortcutRef.current = onShortcut;
  }, [onChange, onShortcut]);

  useEffect(() => {
    formatRef.current = format;
    const editor = view.current;
    editor?.dispatch({
      effects: compartments.current.language.reconfigure(languageFor(format, editor.state.doc.length)),
    });
  }, [format]);

  useEffect(() => {
    const { language, attributes, placeholder: placeholderCompartment } = compartments.current;
    const start = initial.current;
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: start.value,
        extensions: [
          history(),
          drawSelection(),
          EditorView.lineWrapping,
          // The shortcuts first: the default keymap has Mod-i too (select the enclosing syntax).
          keymap.of([
            ...Object.entries(COMMAND_SHORTCUTS).map(([command, key]) => ({
              key,
              run: () => {
                onShortcutRef.current?.(command as EditorCommand);
                return true;
              },
            })),
            indentWithTab,
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          theme,
          language.of(languageFor(start.format, start.value.length)),
          // Highlighting goes and comes back as the document crosses the limit.
          EditorState.transactionExtender.of((tr) => {
            const wasLong = tr.startState.doc.length > HIGHLIGHT_MAX_CHARS;
            const isLong = tr.newDoc.length > HIGHLIGHT_MAX_CHARS;
            if (wasLong === isLong) return null;
            return { effects: language.reconfigure(languageFor(formatRef.current, tr.newDoc.length)) };
          }),
          attributes.of(attributesFor(start.label, start.invalid, start.describedBy)),
          placeholderCompartment.of(placeholderText(start.placeholder)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        compartments.current.attributes.reconfigure(attributesFor(label, invalid, describedBy)),
        compartments.current.placeholder.reconfigure(placeholderText(placeholder)),
      ],
    });
  }, [label, placeholder, invalid, describedBy]);

  useImperativeHandle(
    handleRef,
    (): EditorHandle => ({
      read() {
        const editor = view.current;
        if (!editor) return { doc: '', from: 0, to: 0 };
        const { from, to } = editor.state.selection.main;
        return { doc: editor.state.doc.toString(), from, to };
      },
      apply(edit) {
        const editor = view.current;
        if (!editor) return;
        editor.dispatch({
          changes: { from: edit.from, to: edit.to, insert: edit.insert },
          selection: { anchor: edit.selectFrom, head: edit.selectTo },
          scrollIntoView: true,
        });
        editor.focus();
      },
      focus: () => view.current?.focus(),
    }),
    [],
  );

  return <div ref={host} data-testid="paste-editor" data-user-content="" className="h-full min-h-[22rem]" />;
}
