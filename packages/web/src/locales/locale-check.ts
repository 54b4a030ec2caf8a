/**
 * Checks between translation files: the same keys in both languages, the same {{placeholders}} in
 * both translations of a key, and no empty text. Used by the unit test beside it and by the e2e
 * suite.
 */

export type LocaleTree = { [key: string]: string | LocaleTree };

/** `{ a: { b: 'x' } }` → `Map { 'a.b' => 'x' }`. */
export function flattenLocale(tree: LocaleTree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [inner, text] of flattenLocale(value, path)) out.set(inner, text);
  }
  return out;
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((match) => match[1])
    .sort()
    .join(',');
}

/** Every problem between two flattened locales, as readable sentences (empty when they agree). */
export function compareLocales(
  a: Map<string, string>,
  b: Map<string, string>,
  [nameA, nameB]: [string, string] = ['a', 'b'],
): string[] {
  const problems: string[] = [];
  for (const key of a.keys()) if (!b.has(key)) problems.push(`${key} is missing in ${nameB}`);
  for (const key of b.keys()) if (!a.has(key)) problems.push(`${key} is missing in ${nameA}`);
  for (const [key, text] of a) {
    const other = b.get(key);
    if (other === undefined) continue;
    if (placeholders(text) !== placeholders(other)) {
      problems.push(
        `${key} has placeholders {${placeholders(text)}} in ${nameA} but {${placeholders(other)}} in ${nameB}`,
      );
    }
    if (text.trim() === '' || other.trim() === '')
      problems.push(`${key} is empty in ${text.trim() === '' ? nameA : nameB}`);
  }
  return problems;
}
