/** Removes the temporary DATA_DIR the server under test used. */
import fs from 'node:fs';

export default function globalTeardown(): void {
  const dir = process.env.CUBBY_E2E_DATA_DIR;
  if (dir && process.env.E2E_REUSE_SERVER !== '1') fs.rmSync(dir, { recursive: true, force: true });
}
