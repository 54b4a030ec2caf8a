/**
 * The design lives in the repository: code, tests, scripts and docs cite `docs/…`, never a document
 * outside it (the product spec, the CloudPaste API reference, the starting architecture, test-infra
 * and style notes the project began from). This walks every tracked (or new, not ignored) file under
 * packages/, e2e/, bench/, .ci/, scripts/, docs/ and README.md and fails, naming file:line, on
 *
 * - a citation of one of those outside documents, or a path that leaves the repository;
 * - a `§` that names no document (only `docs/*.md` and RFCs may be cited by section; inside docs/ a
 *   bare `§N` means the page's own section);
 * - a `docs/X.md` that does not exist, a `§N` it has no numbered heading for, a `#anchor` or a
 *   `, "Heading"` it has no heading for, and a `§N "label"` whose label section N does not contain.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const SCOPE = ['packages', 'e2e', 'bench', '.ci', 'scripts', 'docs', 'README.md'];
/** This file names the outside documents in order to refuse them. */
const SELF = path
  .relative(ROOT, fileURLToPath(import.meta.url))
  .split(path.sep)
  .join('/');
const BINARY = /\.(png|jpe?g|gif|webp|ico|icns|woff2?|ttf|otf|pdf|zip|gz|wasm|mp[34]|webm|ogg|wav)$/i;

/** Outside documents, as the code used to cite them, and what replaced each. */
const OUTSIDE: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /\bspec\s*§/i, what: 'the product spec (cite docs/product.md §N)' },
  { pattern: /\bproduct-spec\b/, what: 'the product spec (cite docs/product.md §N)' },
  { pattern: /\bAPI-REFERENCE\b/, what: "CloudPaste's API reference (cite docs/compatibility.md §N)" },
  { pattern: /\bfiles-api\b/, what: 'the files API brief (cite docs/api.md or docs/storage.md)' },
  { pattern: /\bARCHITECTURE\b/, what: 'the starting architecture (cite docs/architecture.md)' },
  { pattern: /\bTEST-INFRA\b/, what: 'the test-infra notes (cite docs/testing.md)' },
  { pattern: /\bSTYLE(?:\.md)?\b/, what: 'the style notes (cite docs/architecture.md)' },
  { pattern: /\/work\/|\bshared\/(?:spec|design|hooks)\//, what: 'a path outside the repository' },
];

interface Doc {
  /** Numbers of numbered headings (`## 2. …`, `### 9.1 …`) → the text of that section. */
  sections: Map<string, string>;
  /** GitHub anchors of every heading. */
  anchors: Set<string>;
  /** Every heading's text, normalised. */
  headings: Set<string>;
}

const plain = (text: string) => text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function parseDoc(markdown: string): Doc {
  const doc: Doc = { sections: new Map(), anchors: new Set(), headings: new Set() };
  const open: Array<{ level: number; number: string; start: number }> = [];
  const lines = markdown.split('\n');
  let fenced = false;
  const close = (level: number, end: number) => {
    while ((open.at(-1)?.level ?? -1) >= level) {
      const section = open.pop()!;
      doc.sections.set(section.number, lines.slice(section.start, end).join('\n'));
    }
  };
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) return;
    const [, hashes = '', text = ''] = heading;
    const level = hashes.length;
    doc.anchors.add(anchorOf(text));
    doc.headings.add(plain(text));
    close(level, i);
    const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(text);
    if (number) {
      open.push({ level, number: number[1]!, start: i });
      doc.headings.add(plain(text.slice(number[0].length)));
    }
  });
  close(0, lines.length);
  return doc;
}

/** `docs/x.md` mentions (not `/docs/…` URL paths) and RFCs: the documents a `§` may belong to. */
const DOC_MENTION = /(?<![\w/.-])docs\/([\w.-]+\.md)\b/g;
const RFC_MENTION = /\bRFC\s*\d+/g;
const NUMBER = String.raw`\d+(?:\.\d+)*`;
/** The sections right after a mention: `§2`, `§2, §4`, `§5–§6`, `§6.8–6.9`, `§9 "Label"`. */
const SECTIONS = new RegExp(
  String.raw`^\s*§\s*${NUMBER}(?:\s*"[^"]*")?(?:\s*(?:,|;|and)\s*§\s*${NUMBER}(?:\s*"[^"]*")?|\s*[–-]\s*§?\s*${NUMBER})*`,
);
const ONE_SECTION = new RegExp(String.raw`§?\s*(${NUMBER})(?:\s*"([^"]*)")?`, 'g');

interface Mention {
  index: number;
  end: number;
  /** `docs/x.md`, or null for an RFC. */
  file: string | null;
}

function mentionsIn(line: string): Mention[] {
  const found: Mention[] = [];
  for (const m of line.matchAll(DOC_MENTION))
    found.push({ index: m.index, end: m.index + m[0].length, file: `docs/${m[1]}` });
  for (const m of line.matchAll(RFC_MENTION))
    found.push({ index: m.index, end: m.index + m[0].length, file: null });
  return found.sort((a, b) => a.index - b.index);
}

/**
 * The problems of one file's text. `loadDoc` reads a docs page (undefined when it does not exist);
 * `file` is the path from the repository root.
 */
function citationProblems(
  file: string,
  text: string,
  loadDoc: (docPath: string) => Doc | undefined,
): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  const inDocs = file.startsWith('docs/');
  let previous: Mention | undefined;

  const checkSection = (where: string, docPath: string, number: string, label: string | undefined) => {
    const doc = loadDoc(docPath);
    if (!doc) return;
    const section = doc.sections.get(number);
    if (section === undefined) {
      problems.push(`${where}: ${docPath} has no section §${number}`);
    } else if (label !== undefined && !plain(section).includes(plain(label))) {
      problems.push(`${where}: ${docPath} §${number} does not mention "${label}"`);
    }
  };

  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    for (const { pattern, what } of OUTSIDE) {
      if (pattern.test(line)) problems.push(`${where}: cites ${what}: ${line.trim().slice(0, 120)}`);
    }
    for (const m of line.matchAll(/(?:\.\.\/)+[\w.-]*/g)) {
      const target = path.resolve(ROOT, path.dirname(file), m[0]);
      if (path.relative(ROOT, target).startsWith('..'))
        problems.push(`${where}: a path that leaves the repository (${m[0]})`);
    }

    const mentions = mentionsIn(line);
    const checked = new Set<number>();
    for (const mention of mentions) {
      if (mention.file === null) continue;
      const doc = loadDoc(mention.file);
      if (!doc) {
        problems.push(`${where}: ${mention.file} does not exist`);
        continue;
      }
      const rest = line.slice(mention.end);
      const anchor = /^#([\w-]+)/.exec(rest);
      if (anchor && !doc.anchors.has(anchor[1]!))
        problems.push(`${where}: ${mention.file} has no heading for #${anchor[1]}`);
      const named = /^,?\s*"([^"]+)"/.exec(rest);
      if (named && !doc.headings.has(plain(named[1]!)))
        problems.push(`${where}: ${mention.file} has no heading "${named[1]}"`);
      const sections = SECTIONS.exec(rest);
      if (sections) {
        for (const s of sections[0].matchAll(ONE_SECTION)) {
          checkSection(where, mention.file, s[1]!, s[2]);
          checked.add(mention.end + sections.index + s.index! + s[0].indexOf('§'));
        }
      }
    }

    // Every other § belongs to the nearest document named before it on this line (or the last one
    // named on the line before, for a comment that wraps); in docs/, to the page itself.
    for (const m of line.matchAll(new RegExp(String.raw`§\s*(${NUMBER})(?:\s*"([^"]*)")?`, 'g'))) {
      if (checked.has(m.index)) continue;
      const owner = [...mentions].reverse().find((mention) => mention.index < m.index) ?? previous;
      if (owner?.file === null) continue;
      const docPath = owner?.file ?? (inDocs ? file : undefined);
      if (!docPath) {
        problems.push(`${where}: §${m[1]} names no document: ${line.trim().slice(0, 120)}`);
        continue;
      }
      if (!loadDoc(docPath)) continue;
      checkSection(where, docPath, m[1]!, m[2]);
    }
    previous = mentions.at(-1) ?? (line.trim() === '' ? undefined : previous);
  });
  return problems;
}

function scopeFiles(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...SCOPE],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return [...new Set(out.split('\0').filter(Boolean))]
    .filter((f) => f !== SELF && !BINARY.test(f) && !/(^|\/)(node_modules|dist)\//.test(f))
    .filter((f) => fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile());
}

function docLoader(root: string): (docPath: string) => Doc | undefined {
  const cache = new Map<string, Doc | undefined>();
  return (docPath) => {
    if (!cache.has(docPath)) {
      const full = path.join(root, docPath);
      // Exact case: the repository is read on case-sensitive file systems too.
      const exists = fs.existsSync(full) && fs.readdirSync(path.dirname(full)).includes(path.basename(full));
      cache.set(docPath, exists ? parseDoc(fs.readFileSync(full, 'utf8')) : undefined);
    }
    return cache.get(docPath);
  };
}

describe('citations of the design', () => {
  it('cite only docs/ pages, sections and headings that exist', () => {
    const loadDoc = docLoader(ROOT);
    const problems: string[] = [];
    const files = scopeFiles();
    assert.ok(files.length > 100, `expected the repository's files, found ${files.length}`);
    for (const file of files) {
      const buffer = fs.readFileSync(path.join(ROOT, file));
      if (buffer.subarray(0, 8000).includes(0)) continue;
      problems.push(...citationProblems(file, buffer.toString('utf8'), loadDoc));
    }
    assert.deepEqual(problems, [], `${problems.length} citation problem(s):\n${problems.join('\n')}`);
  });

  it('notices every kind of bad citation, and lets good ones pass', () => {
    const page = parseDoc(
      '# Page\n\n## 1. One\n\nAlpha.\n\n## 2. Two\n\n**Route guard**: beta.\n\n### 2.1 Sub\n\n## Plain heading\n',
    );
    const loadDoc = (docPath: string) => (docPath === 'docs/page.md' ? page : undefined);
    const problems = (text: string, file = 'packages/x/a.ts') => citationProblems(file, text, loadDoc);

    const good = [
      '// docs/page.md §1, §2 "Route guard"; docs/page.md §2.1',
      '// docs/page.md §1–§2, and RFC 4918 §9.1 and RFC 9110 §13.1.2–3',
      '// (docs/page.md, "Plain heading") and docs/page.md#plain-heading',
      "fetch('/docs/readme.md'); import '../../shared/src/x.ts';",
      '// (docs/page.md §1,\n// §2)',
    ];
    for (const text of good) assert.deepEqual(problems(text), [], text);
    assert.deepEqual(problems('See §2 and §9.', 'docs/page.md'), [
      'docs/page.md:1: docs/page.md has no section §9',
    ]);

    const spec = 'sp' + 'ec';
    const bad: Array<[string, RegExp]> = [
      [`// ${spec} §2`, /product spec/],
      [`// ${'API'}-REFERENCE §6.11`, /API reference/],
      [`// ${'ARCHI'}TECTURE §5`, /starting architecture/],
      [`# see ${'TEST'}-INFRA §1.3`, /test-infra/],
      [`// ${'STY'}LE "texts"`, /style notes/],
      [`// ${'files'}-api "Storage configs"`, /files API/],
      [`// ../../../../${'shared'}/${spec}/x.md`, /leaves the repository|outside the repository/],
      ['// As CloudPaste (§7.1)', /names no document/],
      ['// docs/missing.md §1', /does not exist/],
      ['// docs/page.md §3', /no section §3/],
      ['// docs/page.md §2, §9', /no section §9/],
      ['// docs/page.md §6.8–6.9', /no section §6\.8/],
      ['// docs/page.md §1 "Route guard"', /does not mention "Route guard"/],
      ['// docs/page.md#nowhere', /no heading for #nowhere/],
      ['// (docs/page.md, "Nowhere")', /no heading "Nowhere"/],
    ];
    for (const [text, expected] of bad) {
      const found = problems(text);
      assert.ok(
        found.some((p) => expected.test(p)),
        `${text} → ${JSON.stringify(found)}`,
      );
    }
  });
});
