/** The Markdown toolbar's edits. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COMMAND_SHORTCUTS,
  applyEdit,
  describeShortcut,
  editFor,
  type EditorCommand,
} from './editor-commands.ts';

const P = { bold: 'bold', italic: 'italic', code: 'code', linkText: 'text', column: 'Col' };

function run(command: EditorCommand, doc: string, from: number, to = from) {
  const edit = editFor(command, doc, from, to, P);
  const next = applyEdit(doc, edit);
  return { doc: next, selected: next.slice(edit.selectFrom, edit.selectTo) };
}

test('bold and italic wrap the selection, or a placeholder that ends up selected', () => {
  assert.deepEqual(run('bold', 'say hi', 4, 6), { doc: 'say **hi**', selected: 'hi' });
  assert.deepEqual(run('bold', 'say ', 4), { doc: 'say **bold**', selected: 'bold' });
  assert.deepEqual(run('italic', 'a b', 2, 3), { doc: 'a _b_', selected: 'b' });
  // Pressing bold again on the wrapped selection unwraps it.
  assert.deepEqual(run('bold', 'say **hi**', 6, 8), { doc: 'say hi', selected: 'hi' });
});

test('heading, quote and lists prefix every selected line and toggle off', () => {
  assert.equal(run('heading', 'title\nbody', 2).doc, '## title\nbody');
  assert.equal(run('heading', '## title', 4).doc, 'title');
  assert.equal(run('quote', 'a\nb', 0, 3).doc, '> a\n> b');
  assert.equal(run('bulletList', 'a\nb', 0, 3).doc, '- a\n- b');
  assert.equal(run('bulletList', '- a\n- b', 0, 7).doc, 'a\nb');
  assert.equal(run('taskList', 'buy milk', 0).doc, '- [ ] buy milk');
  assert.equal(run('taskList', '- [x] done', 0).doc, 'done');
});

test('code is inline for one line and a fenced block for several', () => {
  assert.deepEqual(run('code', 'run ls now', 4, 6), { doc: 'run `ls` now', selected: 'ls' });
  assert.deepEqual(run('code', 'a\nb', 0, 3), { doc: '```\na\nb\n```\n', selected: 'a\nb' });
});

test('link selects the URL to type; table inserts a template on its own lines', () => {
  assert.deepEqual(run('link', 'see docs', 4, 8), { doc: 'see [docs](https://)', selected: 'https://' });
  const table = run('table', 'intro', 5);
  assert.equal(table.doc, 'intro\n\n| Col 1 | Col 2 |\n| --- | --- |\n|  |  |\n');
  assert.equal(table.selected, 'Col 1');
});

test('bold and italic have the shortcuts CloudPaste users know, named per platform', () => {
  assert.deepEqual(COMMAND_SHORTCUTS, { bold: 'Mod-b', italic: 'Mod-i' });
  assert.deepEqual(describeShortcut('Mod-b', false), { label: 'Ctrl+B', aria: 'Control+B' });
  assert.deepEqual(describeShortcut('Mod-i', true), { label: '⌘I', aria: 'Meta+I' });
});
