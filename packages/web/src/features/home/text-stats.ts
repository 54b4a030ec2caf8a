/**
 * Character and word counts for the editor. Characters are Unicode code points; words are runs of
 * letters or digits, except that each CJK character (Han, kana, Hangul) counts as a word, as
 * Chinese and Japanese are written without spaces.
 *
 * One pass over the text, one code point at a time, with a constant amount of memory: a text may
 * be 5 MiB without a space (minified JSON), and one regular expression matching such a run as a
 * whole overflowed the engine's stack (a `RangeError` that took the page down).
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * What a code point does to the count: a space ends a word; a CJK character is a word by itself;
 * letters, digits and marks (punctuation, symbols) make runs, which are words when they hold a
 * letter or digit.
 */
type Kind = 'space' | 'cjk' | 'letter' | 'mark';

function classify(char: string): Kind {
  if (SPACE.test(char)) return 'space';
  if (CJK.test(char)) return 'cjk';
  return WORD_CHARACTER.test(char) ? 'letter' : 'mark';
}

const ASCII_KINDS = Array.from({ length: 128 }, (_, code) => classify(String.fromCharCode(code)));
/** Kinds of the other code points met so far (a text uses few distinct ones). */
const kindCache = new Map<number, Kind>();

function kindOf(code: number): Kind {
  if (code < 128) return ASCII_KINDS[code]!;
  let kind = kindCache.get(code);
  if (kind === undefined) {
    kind = classify(String.fromCodePoint(code));
    kindCache.set(code, kind);
  }
  return kind;
}

export interface TextStats {
  characters: number;
  words: number;
}

export function countText(text: string): TextStats {
  let characters = 0;
  let words = 0;
  /** Inside a run of letters, digits and marks; whether it has a letter or digit yet. */
  let inRun = false;
  let runHasLetter = false;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    characters++;
    const kind = kindOf(code);
    if (kind === 'letter' || kind === 'mark') {
      inRun = true;
      runHasLetter ||= kind === 'letter';
      continue;
    }
    if (inRun && runHasLetter) words++;
    inRun = runHasLetter = false;
    if (kind === 'cjk') words++;
  }
  if (inRun && runHasLetter) words++;
  return { characters, words };
}
