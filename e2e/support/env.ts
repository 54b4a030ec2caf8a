/** Where the server under test listens and the admin account it starts with. */
export const PORT = Number(process.env.E2E_PORT ?? 8790);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'e2e-admin-password-1';
/** Screenshots of every screen go here (repo root, gitignored). */
export const SCREENSHOT_DIR = new URL('../../artifacts/screenshots/', import.meta.url).pathname;
