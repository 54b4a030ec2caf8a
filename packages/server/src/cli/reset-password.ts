/**
 * `npm run admin:reset-password`: for an owner locked out. Sets a new admin password — ADMIN_PASSWORD
 * if given, else a random one printed here — and revokes every session of that admin. Picks the
 * admin named by ADMIN_USERNAME, else the first one. Uses the same DATA_DIR / DATABASE_URL as the server.
 */
import fs from 'node:fs';
import { loadConfig } from '../config/config.ts';
import { migrate, openDatabase } from '../db/database.ts';
import { systemClock } from '../lib/clock.ts';
import { resetPassword } from '../modules/auth/auth.service.ts';
import { SessionsRepository } from '../modules/auth/sessions.repository.ts';
import { UsersRepository } from '../modules/users/users.repository.ts';

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  for (const line of loaded.errors) console.error(line);
  process.exit(1);
}
const { config } = loaded;
fs.mkdirSync(config.dataDir, { recursive: true });
const db = openDatabase(config);
await migrate(db);
const result = await resetPassword(
  { users: new UsersRepository(db.kysely), sessions: new SessionsRepository(db.kysely), clock: systemClock },
  config.adminUsername,
  config.adminPassword,
);
await db.close();
if (!result) {
  console.error(
    config.adminUsername
      ? `No administrator named "${config.adminUsername}".`
      : 'There is no administrator yet: start the server once to create one.',
  );
  process.exit(1);
}
console.log(`Password reset for administrator "${result.username}"; every session was signed out.`);
if (result.generated) console.log(`New password: ${result.password}`);
