import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY_SELECTION, clickSelect, keepExisting, moveFocus, selectAll } from './selection.ts';

const order = ['a', 'b', 'c', 'd', 'e'];
const chosen = (selection: { selected: ReadonlySet<string> }) => [...selection.selected].sort();

describe('selection', () => {
  it('click, Ctrl+click and Shift+click as in a file manager', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'b', 'replace');
    assert.deepEqual(chosen(s), ['b']);
    s = clickSelect(s, order, 'd', 'range');
    assert.deepEqual(chosen(s), ['b', 'c', 'd']);
    s = clickSelect(s, order, 'a', 'range');
    assert.deepEqual(chosen(s), ['a', 'b'], 'the range starts at the anchor, not at the last click');
    s = clickSelect(s, order, 'e', 'toggle');
    assert.deepEqual(chosen(s), ['a', 'b', 'e']);
    s = clickSelect(s, order, 'a', 'toggle');
    assert.deepEqual(chosen(s), ['b', 'e']);
  });
  it('arrows move the focus and extend with Shift; Home/End from nothing', () => {
    let s = moveFocus(EMPTY_SELECTION, order, 1, false);
    assert.equal(s.focus, 'a');
    s = moveFocus(s, order, 2, true);
    assert.deepEqual(chosen(s), ['a', 'b', 'c']);
    s = moveFocus(s, order, 10, false);
    assert.deepEqual(chosen(s), ['e']);
    assert.equal(moveFocus(EMPTY_SELECTION, order, order.length, false).focus, 'e');
    assert.equal(moveFocus(EMPTY_SELECTION, order, -order.length, false).focus, 'a');
    assert.equal(moveFocus(EMPTY_SELECTION, order, -1, false).focus, 'e');
  });
  it('select all, and forgetting what left the folder', () => {
    const all = selectAll(EMPTY_SELECTION, order);
    assert.deepEqual(chosen(all), order);
    const kept = keepExisting({ ...all, focus: 'c', anchor: 'c' }, ['a', 'b']);
    assert.deepEqual(chosen(kept), ['a', 'b']);
    assert.equal(kept.focus, null);
    const same = clickSelect(EMPTY_SELECTION, order, 'a', 'replace');
    assert.equal(keepExisting(same, order), same, 'unchanged when nothing left');
  });
});
