/**
 * A real OpenLDAP directory for tests: `slapd` (installed on the machine; its system service is
 * never used) started in the foreground on a free loopback port, from a slapd.conf in a temporary
 * folder — the mdb backend, the core/cosine/inetorgperson schemas, one suffix. Seeded through
 * ldapts as the root DN: people under ou=people (inetOrgPerson, `uid`, `mail`), a read-only
 * service account, and an admins group (groupOfNames, `member`). Ready when a bind succeeds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Attribute, Change, Client } from 'ldapts';
import { freePort } from './server-process.ts';

export const LDAP_SUFFIX = 'dc=cubby,dc=test';
export const LDAP_PEOPLE = `ou=people,${LDAP_SUFFIX}`;
export const LDAP_ADMINS_GROUP = `cn=cubby-admins,ou=groups,${LDAP_SUFFIX}`;
/** The service account Cubby searches with (it may read, not write). */
export const LDAP_READER_DN = `cn=reader,${LDAP_SUFFIX}`;
export const LDAP_READER_PASSWORD = 'reader-Secret-4711';
const ROOT_DN = `cn=root,${LDAP_SUFFIX}`;
const ROOT_PASSWORD = 'root-secret';
const READY_TIMEOUT_MS = 15_000;

export interface LdapPerson {
  uid: string;
  password: string;
  mail?: string;
  cn?: string;
}

export interface TestSlapd {
  url: string;
  port: number;
  /** The DN of a person added with addPerson. */
  dnOf(uid: string): string;
  addPerson(person: LdapPerson): Promise<string>;
  setAdmin(uid: string, admin: boolean): Promise<void>;
  /** Stops the server, keeping its data (start() brings it back on the same port). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const SLAPD = '/usr/sbin/slapd';
const SCHEMAS = ['core', 'cosine', 'inetorgperson'];

/** Starts slapd on a free port; `people` are added before it is answered. */
export async function startTestSlapd(people: LdapPerson[] = []): Promise<TestSlapd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cubby-slapd-'));
  await mkdir(path.join(dir, 'data'));
  const conf = [
    ...SCHEMAS.map((s) => `include /etc/ldap/schema/${s}.schema`),
    `pidfile ${path.join(dir, 'slapd.pid')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'database mdb',
    'maxsize 10485760',
    `suffix "${LDAP_SUFFIX}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ROOT_PASSWORD}`,
    `directory ${path.join(dir, 'data')}`,
    // Passwords: only ever compared by a bind. Everything else: readable by a bound account only.
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by users read by * none',
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'slapd.conf'), conf);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = '';

  const root = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ url, timeout: 5000, connectTimeout: 2000 });
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      return await work(client);
    } finally {
      await client.unbind().catch(() => {});
    }
  };

  const start = async () => {
    // -d 0: stays in the foreground (this process owns it), logging nothing but failures.
    child = spawn(SLAPD, ['-d', '0', '-f', path.join(dir, 'slapd.conf'), '-h', `${url}/`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<never>((_, reject) =>
      child!.once('exit', (code) => reject(new Error(`slapd exited (${code}): ${output}`))),
    );
    exited.catch(() => {});
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      try {
        await Promise.race([root(async () => {}), exited]);
        return;
      } catch (error) {
        if (child.exitCode !== null || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await gone;
  };

  await start();
  const dnOf = (uid: string) => `uid=${uid},${LDAP_PEOPLE}`;
  await root(async (client) => {
    await client.add(LDAP_SUFFIX, { objectClass: ['dcObject', 'organization'], dc: 'cubby', o: 'Cubby' });
    await client.add(LDAP_READER_DN, {
      objectClass: ['organizationalRole', 'simpleSecurityObject'],
      cn: 'reader',
      userPassword: LDAP_READER_PASSWORD,
    });
    await client.add(LDAP_PEOPLE, { objectClass: 'organizationalUnit', ou: 'people' });
    await client.add(`ou=groups,${LDAP_SUFFIX}`, { objectClass: 'organizationalUnit', ou: 'groups' });
    // groupOfNames needs one member: the reader stands in.
    await client.add(LDAP_ADMINS_GROUP, {
      objectClass: 'groupOfNames',
      cn: 'cubby-admins',
      member: LDAP_READER_DN,
    });
  });

  const slapd: TestSlapd = {
    url,
    port,
    dnOf,
    async addPerson(person) {
      const dn = dnOf(person.uid);
      await root((client) =>
        client.add(dn, {
          objectClass: 'inetOrgPerson',
          uid: person.uid,
          cn: person.cn ?? person.uid,
          sn: person.cn ?? person.uid,
          userPassword: person.password,
          ...(person.mail ? { mail: person.mail } : {}),
        }),
      );
      return dn;
    },
    async setAdmin(uid, admin) {
      await root((client) =>
        client.modify(
          LDAP_ADMINS_GROUP,
          new Change({
            operation: admin ? 'add' : 'delete',
            modification: new Attribute({ type: 'member', values: [dnOf(uid)] }),
          }),
        ),
      );
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  for (const person of people) await slapd.addPerson(person);
  return slapd;
}
