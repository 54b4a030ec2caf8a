/**
 * The formatting toolbar as pure text edits: each command takes the document and the selection
 * and says what to replace and what to select afterwards. Placeholder words (e.g. "bold text")
 * come from the caller, already translated.
 */

export const EDITOR_COMMANDS = [
  'bold',
  'italic',
  'heading',
  'link',
  'code',
  'quote',
  'bulletList',
  'taskList',
  'table',
] as const;
export type EditorCommand = (typeof EDITOR_COMMANDS)[number];

/**
 * Keys that run a command in the editor, as CodeMirror writes them: `Mod` is ⌘ on Apple devices
 * and Ctrl elsewhere (the bindings CloudPaste's editor has).
 */
export const COMMAND_SHORTCUTS: Partial<Record<EditorCommand, `Mod-${string}`>> = {
  bold: 'Mod-b',
  italic: 'Mod-i',
};

/** A `Mod-<key>` shortcut as a tooltip shows it ("Ctrl+B", "⌘B") and as `aria-keyshortcuts` names it. */
export function describeShortcut(shortcut: `Mod-${string}`, apple: boolean): { label: string; aria: string } {
  const key = shortcut.slice('Mod-'.length).toUpperCase();
  return apple ? { label: `⌘${key}`, aria: `Meta+${key}` } : { label: `Ctrl+${key}`, aria: `Control+${key}` };
}

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  /** Selection after the edit, in the new document. */
  selectFrom: number;
  selectTo: number;
}

export interface CommandPlaceholders {
  bold: string;
  italic: string;
  code: string;
  linkText: string;
  column: string;
}

function wrap(doc: string, from: number, to: number, marker: string, placeholder: string): TextEdit {
  const selected = doc.slice(from, to);
  const before = doc.slice(Math.max(0, from - marker.length), from);
  const after = doc.slice(to, to + marker.length);
  if (selected && before === marker && after === marker) {
    // Already wrapped: unwrap.
    return {
      from: from - marker.length,
      to: to + marker.length,
      insert: selected,
      selectFrom: from - marker.length,
      selectTo: to - marker.length,
    };
  }
  const text = selected || placeholder;
  return {
    from,
    to,
    insert: marker + text + marker,
    selectFrom: from + marker.length,
    selectTo: from + marker.length + text.length,
  };
}

/** Adds `prefix` to every line touched by the selection, or removes it when all lines have it. */
function prefixLines(doc: string, from: number, to: number, prefix: string, pattern: RegExp): TextEdit {
  const start = doc.lastIndexOf('\n', from - 1) + 1;
  const endIndex = doc.indexOf('\n', to);
  const end = endIndex === -1 ? doc.length : endIndex;
  const lines = doc.slice(start, end).split('\n');
  const remove = lines.every((line) => pattern.test(line));
  const changed = lines.map((line) => (remove ? line.replace(pattern, '') : prefix + line)).join('\n');
  return { from: start, to: end, insert: changed, selectFrom: start, selectTo: start + changed.length };
}

/** Text before an inserted block: a blank line unless at the start of the document or a line. */
function blockPrefix(doc: string, at: number): string {
  if (at === 0) return '';
  if (doc.slice(at - 2, at) === '\n\n') return '';
  return doc[at - 1] === '\n' ? '\n' : '\n\n';
}

export function editFor(
  command: EditorCommand,
  doc: string,
  from: number,
  to: number,
  placeholders: CommandPlaceholders,
): TextEdit {
  switch (command) {
    case 'bold':
      return wrap(doc, from, to, '**', placeholders.bold);
    case 'italic':
      return wrap(doc, from, to, '_', placeholders.italic);
    case 'heading':
      return prefixLines(doc, from, to, '## ', /^#{1,6} /);
    case 'quote':
      return prefixLines(doc, from, to, '> ', /^> ?/);
    case 'bulletList':
      return prefixLines(doc, from, to, '- ', /^[-*+] (?!\[[ xX]\] )/);
    case 'taskList':
      return prefixLines(doc, from, to, '- [ ] ', /^[-*+] \[[ xX]\] /);
    case 'code': {
      const selected = doc.slice(from, to);
      if (!selected.includes('\n')) return wrap(doc, from, to, '`', placeholders.code);
      const lead = blockPrefix(doc, from);
      const insert = `${lead}\`\`\`\n${selected}\n\`\`\`\n`;
      const start = from + lead.length + 4;
      return { from, to, insert, selectFrom: start, selectTo: start + selected.length };
    }
    case 'link': {
      const text = doc.slice(from, to) || placeholders.linkText;
      const url = 'https://';
      const insert = `[${text}](${url})`;
      const urlStart = from + text.length + 3;
      return { from, to, insert, selectFrom: urlStart, selectTo: urlStart + url.length };
    }
    case 'table': {
      const lead = blockPrefix(doc, to);
      const a = `${placeholders.column} 1`;
      const b = `${placeholders.column} 2`;
      const insert = `${lead}| ${a} | ${b} |\n| --- | --- |\n|  |  |\n`;
      const start = to + lead.length + 2;
      return { from: to, to, insert, selectFrom: start, selectTo: start + a.length };
    }
  }
}

/** Applies an edit to a string (what the editor does with it), for tests and plain text areas. */
export function applyEdit(doc: string, edit: TextEdit): string {
  return doc.slice(0, edit.from) + edit.insert + doc.slice(edit.to);
}
