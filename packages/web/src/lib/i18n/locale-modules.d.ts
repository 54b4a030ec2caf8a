/** A part of a locale file (`<file>.json?section=<part>&locale-section`; see `locale-sections.ts`). */
declare module '*&locale-section' {
  const texts: Record<string, unknown>;
  export default texts;
}
