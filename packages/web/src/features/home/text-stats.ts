/**
 * Character and word counts for the editor. Characters are Unicode code points; words are runs of
 * letters or digits, except that each CJK character (Han, kana, Hangul) counts as a word, as
 * Chinese and Japanese are written without spaces.
 */

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const TOKEN = new RegExp(`[${CJK}]|[^\\s${CJK}]+`, 'gu');
const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;

export interface TextStats {
  characters: number;
  words: number;
}

export function countText(text: string): TextStats {
  let characters = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    characters++;
  }
  let words = 0;
  for (const match of text.matchAll(TOKEN)) if (HAS_WORD_CHARACTER.test(match[0])) words++;
  return { characters, words };
}
