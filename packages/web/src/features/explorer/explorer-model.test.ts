import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FsListItem } from '@cubby/shared';
import {
  baseName,
  breadcrumb,
  childPath,
  filterItems,
  folderPath,
  keepBothName,
  nameProblem,
  parentFolder,
  sortItems,
} from './explorer-model.ts';

const file = (name: string, size = 0, modified: string | null = null): FsListItem => ({
  name,
  path: `/m/${name}`,
  isDirectory: false,
  isVirtual: false,
  size,
  modified,
});
const folder = (name: string): FsListItem => ({ ...file(name), path: `/m/${name}/`, isDirectory: true });

describe('explorer paths', () => {
  it('folder paths have one form; parents and names follow it', () => {
    assert.equal(folderPath(''), '/');
    assert.equal(folderPath('a//'), '/a/');
    assert.equal(parentFolder('/a/b/c.txt'), '/a/b/');
    assert.equal(parentFolder('/a/b/'), '/a/');
    assert.equal(parentFolder('/'), '/');
    assert.equal(baseName('/a/报告 #1/'), '报告 #1');
    assert.equal(childPath('/a', 'x y', true), '/a/x y/');
    assert.deepEqual(breadcrumb('/a/b/'), [
      { name: '/', path: '/' },
      { name: 'a', path: '/a/' },
      { name: 'b', path: '/a/b/' },
    ]);
  });
});

describe('sorting and filtering', () => {
  const items = [file('b10.txt', 5), folder('zeta'), file('b2.txt', 50), file('A1.md', 1), folder('alpha')];
  it('keeps folders first and names in natural order, both ways', () => {
    const names = (order: Parameters<typeof sortItems>[1]) =>
      sortItems(items, order).map((item) => item.name);
    assert.deepEqual(names({ key: 'name', direction: 'asc' }), [
      'alpha',
      'zeta',
      'A1.md',
      'b2.txt',
      'b10.txt',
    ]);
    assert.deepEqual(names({ key: 'name', direction: 'desc' }), [
      'zeta',
      'alpha',
      'b10.txt',
      'b2.txt',
      'A1.md',
    ]);
    assert.deepEqual(names({ key: 'size', direction: 'asc' }), [
      'alpha',
      'zeta',
      'A1.md',
      'b10.txt',
      'b2.txt',
    ]);
    assert.deepEqual(names({ key: 'type', direction: 'asc' }), [
      'alpha',
      'zeta',
      'A1.md',
      'b2.txt',
      'b10.txt',
    ]);
  });
  it('filters by a part of the name, ignoring case', () => {
    assert.deepEqual(
      filterItems(items, ' B1 ').map((item) => item.name),
      ['b10.txt'],
    );
    assert.equal(filterItems(items, '').length, items.length);
  });
});

describe('names', () => {
  it('refuses what storage cannot hold or what is taken', () => {
    assert.equal(nameProblem('  '), 'required');
    assert.equal(nameProblem('a/b'), 'slash');
    assert.equal(nameProblem('..'), 'dots');
    assert.equal(nameProblem('a\u0000b'), 'control');
    assert.equal(nameProblem('长'.repeat(90)), 'tooLong');
    assert.equal(nameProblem('x.txt', new Set(['x.txt'])), 'taken');
    assert.equal(nameProblem("报告 #1 & 'q'.txt"), null);
  });
  it('"keep both" numbers the stem, not the extension', () => {
    assert.equal(keepBothName('a.pdf', new Set(['a.pdf'])), 'a (1).pdf');
    assert.equal(keepBothName('a.pdf', new Set(['a.pdf', 'a (1).pdf'])), 'a (2).pdf');
    assert.equal(keepBothName('v1.2', new Set(), true), 'v1.2 (1)');
    assert.equal(keepBothName('.env', new Set()), '.env (1)');
  });
});
