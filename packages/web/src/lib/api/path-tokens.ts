/**
 * Folder-password tokens (docs/architecture.md, "Folder rules"): the server answers one for a
 * folder's password, and the explorer remembers it for the visit (this tab's sessionStorage) and
 * sends every one it holds with each request (`X-FS-Path-Tokens`), so a folder asked for once stays
 * open until the tab closes or the token expires.
 */
const STORAGE_KEY = 'cubby.fsPathTokens';
/** The server looks at no more than this many (MAX_PATH_TOKENS). */
const MAX_TOKENS = 16;
export const PATH_TOKENS_HEADER = 'X-FS-Path-Tokens';

function read(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Remembers the token for the folder `path` (the newest last; the oldest go past the limit). */
export function rememberPathToken(path: string, token: string): void {
  const tokens = read();
  delete tokens[path];
  tokens[path] = token;
  const kept = Object.entries(tokens).slice(-MAX_TOKENS);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Storage full or refused: the folder asks again next time.
  }
}

/** Every remembered token, comma-separated for the header; empty when none. */
export function pathTokensHeader(): string {
  try {
    return Object.values(read()).join(',');
  } catch {
    return '';
  }
}
