/**
 * The shared traversal corpus: path and file-name spellings that try to leave a base path of
 * `/team`. Tests run it through `normalizePath` and through every route that takes a path or a file
 * name; whatever a route does with an entry, what it stores must stay inside `/team`. Not exported
 * from the package index: it is test data.
 */

/** The base path the corpus attacks. */
export const CORPUS_BASE = '/team';

/** Paths that must never resolve outside `/team` (absolute, relative, encoded in every way). */
export const TRAVERSAL_PATHS: readonly string[] = [
  // plain and mixed separators
  '/team/..',
  '/team/../other',
  '/team/../team-b/x',
  '/team/./../other',
  '/team/sub/../../other',
  '/other/../../team/x/../../other',
  '/team\\..\\other',
  '/team/..\\other',
  '//other',
  '/team-b',
  '/TEAM/x',
  '..',
  '../other',
  'sub/../../other',
  // encoded once
  '/team/%2e%2e/other',
  '/team/%2E%2E/other',
  '/team%2f..%2fother',
  '/team/%2e./other',
  '/team/.%2e/other',
  '/team%5c..%5cother',
  '%2e%2e/other',
  // encoded twice and three times
  '/team-b/%252e%252e/team',
  '/%2574eam',
  '/%2574eam/x',
  '/team/%252e%252e/other',
  '/team/%252f..%252fother',
  '%252e%252e/other',
  '/team/%25252e%25252e/other',
  '/%252574eam',
  // overlong UTF-8 for "." and "/"
  '/team/%c0%ae%c0%ae/other',
  '/team/%e0%80%ae%e0%80%ae/other',
  '/team/%c0%af../other',
  '/team%c0%af..%c0%afother',
  '/team/%f0%80%80%ae%f0%80%80%ae/other',
  // surrogates, raw and encoded
  '/team/\ud800/x',
  '/team/x\udc00',
  '/team/%ed%a0%80/x',
  // NUL and control characters
  '/team\u0000/../other',
  '/team%00/x',
  '/team/%0a/x',
  // full-width and compatibility dots and slashes
  '/team/\uff0e\uff0e/other',
  '/team/\uff0e\uff0e\uff0fother',
  '/team\uff0f..\uff0fother',
  '/team\uff3c..\uff3cother',
  '/team/\u2025/other',
  '/team/\uff0e./other',
  '/team/%ef%bc%8e%ef%bc%8e/other',
  '/team/%ef%bc%8f..%ef%bc%8fother',
];

/** File names that try to climb out or break the key they are stored under. */
export const TRAVERSAL_FILENAMES: readonly string[] = [
  '../../other/x.txt',
  '..\\..\\other\\x.txt',
  '/other/x.txt',
  '%2e%2e%2fother%2fx.txt',
  '%252e%252e%252fx.txt',
  '..',
  '.',
  '.cubby-tmp-x',
  '\uff0e\uff0e\uff0fx.txt',
  '\u2025\uff0fx.txt',
  'a\u0000b.txt',
  '\u202eexe.txt',
  'a\ud800.txt',
  'CON',
];
