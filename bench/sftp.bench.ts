/**
 * The SFTP driver (issue 25) next to the plain ssh2 client doing the same on the same OpenSSH server
 * (the tests' sshd on 127.0.0.1, key login): listing a folder of 1,000 files (driver `list` against
 * one `readdir`), and writing and reading a large file (driver `write` and `read` against ssh2's
 * `createWriteStream`/`createReadStream` and its parallel `fastPut`/`fastGet`). Prints seconds, MiB/s
 * and the ratio ours/plain (goal ≥ 0.8: the driver's atomic write, fsync and link checks cost little
 * next to moving the bytes). Never passes or fails.
 *
 *   node --import tsx bench/sftp.bench.ts [MiB]      (default 256)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { Client, type SFTPWrapper } from 'ssh2';
import { SftpDriver } from '../packages/server/src/storage/drivers/sftp/sftp-driver.ts';
import { startTestSshd } from '../packages/server/test/support/sshd.ts';
import { machine, median, timeMs, writeSection } from './lib/harness.ts';
import { drain, generated, MiB } from './lib/streams.ts';

const FILES = 1000;
const ROUNDS = 31;
const BLOCKS = 3;
const TRANSFER_ROUNDS = 3;
const size = Number(process.argv[2] ?? 256) * MiB;

const nodeStream = (body: ReadableStream<Uint8Array>) =>
  Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>);

/** Median seconds of TRANSFER_ROUNDS runs of `fn`, after one warm-up. */
async function seconds(fn: () => Promise<unknown>): Promise<number> {
  return (await timeMs(TRANSFER_ROUNDS, fn)) / 1000;
}

function plainSftp(config: {
  host: string;
  port: number;
  username: string;
  privateKey: string;
}): Promise<{ sftp: SFTPWrapper; end(): void }> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('error', reject);
    client.once('ready', () => {
      client.setNoDelay(true); // as the driver does: no Nagle delay on small requests
      client.sftp((error, sftp) => (error ? reject(error) : resolve({ sftp, end: () => client.end() })));
    });
    client.connect(config);
  });
}

const sshd = await startTestSshd();
const root = await sshd.makeRoot();
const login = { host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey };
const driver = new SftpDriver({ ...login, root, hostKeyFingerprint: null });
const plain = await plainSftp(login);
const { sftp } = plain;
const promised = <T>(start: (done: (error: Error | undefined | null, value?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value as T))));

try {
  // ---- listing ------------------------------------------------------------------------------
  fs.mkdirSync(path.join(root, 'many'));
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, 'many', `f-${i}.txt`), String(i));
  // In turns, BLOCKS blocks of ROUNDS each way after an untimed one (the code warm, as in a
  // running server): a change in the machine's load falls on both sides.
  const oursLists: number[] = [];
  const plainLists: number[] = [];
  for (let block = -1; block < BLOCKS; block++) {
    const oursMs = await timeMs(ROUNDS, () => driver.list('/many'));
    const plainMs = await timeMs(ROUNDS, () => promised((done) => sftp.readdir(`${root}/many`, done)));
    if (block < 0) continue;
    oursLists.push(oursMs);
    plainLists.push(plainMs);
  }
  const oursList = median(oursLists);
  const plainList = median(plainLists);

  // ---- large file ---------------------------------------------------------------------------
  const local = path.join(os.tmpdir(), `cubby-sftp-bench-${process.pid}.bin`);
  await pipeline(nodeStream(generated(size)), fs.createWriteStream(local));
  const oursWrite = await seconds(() => driver.write('/ours.bin', generated(size), { size }));
  const plainStreamWrite = await seconds(() =>
    pipeline(nodeStream(generated(size)), sftp.createWriteStream(`${root}/plain-stream.bin`)),
  );
  const plainFastPut = await seconds(() =>
    promised((done) => sftp.fastPut(local, `${root}/plain-fast.bin`, done)),
  );
  const oursRead = await seconds(async () => drain((await driver.read('/ours.bin')).body));
  const plainStreamRead = await seconds(() =>
    pipeline(
      sftp.createReadStream(`${root}/plain-stream.bin`),
      new Writable({ write: (_chunk, _encoding, done) => done() }),
    ),
  );
  const plainFastGet = await seconds(() =>
    promised((done) => sftp.fastGet(`${root}/plain-fast.bin`, '/dev/null', done)),
  );
  fs.rmSync(local, { force: true });

  const mibs = (s: number) => (size / MiB / s).toFixed(0).padStart(5);
  const line = (label: string, s: number) =>
    `${label.padEnd(34)} ${s.toFixed(2).padStart(7)} s ${mibs(s)} MiB/s`;
  const ratio = (ours: number, best: number) => (best / ours).toFixed(2);
  const out: string[] = [];
  out.push(
    `SFTP driver vs plain ssh2 on OpenSSH's sshd at 127.0.0.1 (${machine()}); ratios ours/plain, goal ≥ 0.8`,
  );
  out.push(
    `listings: median of ${BLOCKS} blocks of ${ROUNDS} each way, in turns, after an untimed one; transfers: median of ${TRANSFER_ROUNDS} after one warm-up`,
  );
  out.push(
    `list ${FILES} files: driver ${oursList.toFixed(1)} ms, readdir ${plainList.toFixed(1)} ms` +
      ` → ours/plain ${ratio(oursList, plainList)}`,
  );
  out.push(`write ${size / MiB} MiB:`);
  out.push(line('  driver write (temp, fsync, rename)', oursWrite));
  out.push(line('  ssh2 createWriteStream', plainStreamWrite));
  out.push(line('  ssh2 fastPut (from a local file)', plainFastPut));
  out.push(`  → ours/plain ${ratio(oursWrite, Math.min(plainStreamWrite, plainFastPut))}`);
  out.push(`read ${size / MiB} MiB:`);
  out.push(line('  driver read', oursRead));
  out.push(line('  ssh2 createReadStream', plainStreamRead));
  out.push(line('  ssh2 fastGet (to /dev/null)', plainFastGet));
  out.push(`  → ours/plain ${ratio(oursRead, Math.min(plainStreamRead, plainFastGet))}`);
  console.log(out.join('\n'));
  writeSection('SFTP storage driver', ['```', ...out, '```'].join('\n'));
} finally {
  plain.end();
  await driver.close();
  await sshd.close();
}
