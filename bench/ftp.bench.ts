/**
 * The FTP storage driver (issue 25) next to plain basic-ftp calls on the same pure-ftpd (started as
 * the tests start it, packages/server/test/support/ftpd.ts): a listing of a folder of 1,000 files,
 * and a large file written and read, through the driver and through one basic-ftp client directly.
 * Prints the figures and the ratio ours/plain of each (goal ≥ 0.8: time plain ÷ time ours), and writes
 * them to bench/RESULTS.md; never passes or fails.
 *
 *   node --import tsx bench/ftp.bench.ts [MiB]      (default 256)
 */
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { Client } from 'basic-ftp';
import { FtpDriver } from '../packages/server/src/storage/drivers/ftp/ftp-driver.ts';
import { startTestFtpd } from '../packages/server/test/support/ftpd.ts';
import { machine, median, timeMs, writeSection } from './lib/harness.ts';
import { drain, generated, MiB } from './lib/streams.ts';

const FILES = 1000;
const ROUNDS = 31;
const BLOCKS = 3;
const TRANSFER_ROUNDS = 3;
const size = Number(process.argv[2] ?? 256) * MiB;

const server = await startTestFtpd();
const driver = new FtpDriver({
  host: server.host,
  port: server.port,
  username: server.username,
  password: server.password,
  root: server.root,
  tls: 'none',
  tlsInsecureSkipVerify: false,
});
const client = new Client();
try {
  await client.access({
    host: server.host,
    port: server.port,
    user: server.username,
    password: server.password,
  });
  await client.ensureDir(`${server.root}/many`);
  for (let i = 0; i < FILES; i++) {
    await client.uploadFrom(Readable.from([Buffer.from(`file ${i}`)]), `f-${String(i).padStart(4, '0')}.txt`);
  }

  // In turns, BLOCKS blocks of ROUNDS each way after an untimed one (the code warm, as in a
  // running server): a change in the machine's load falls on both sides.
  const plainLists: number[] = [];
  const oursLists: number[] = [];
  for (let block = -1; block < BLOCKS; block++) {
    const plainMs = await timeMs(ROUNDS, () => client.list(`${server.root}/many`));
    const oursMs = await timeMs(ROUNDS, () => driver.list('/many'));
    if (block < 0) continue;
    plainLists.push(plainMs);
    oursLists.push(oursMs);
  }
  const listPlain = median(plainLists);
  const listOurs = median(oursLists);

  // Transfers: median of TRANSFER_ROUNDS after one warm-up, in seconds.
  const seconds = async (fn: () => Promise<unknown>): Promise<number> =>
    (await timeMs(TRANSFER_ROUNDS, fn)) / 1000;
  const writePlain = await seconds(() =>
    client.uploadFrom(
      Readable.fromWeb(generated(size) as unknown as NodeWebReadableStream<Uint8Array>),
      `${server.root}/plain.bin`,
    ),
  );
  const writeOurs = await seconds(() => driver.write('/ours.bin', generated(size), { size }));
  const readPlain = await seconds(async () => {
    const sink = new PassThrough();
    const drained = drain(Readable.toWeb(sink) as unknown as ReadableStream<Uint8Array>);
    await client.downloadTo(sink, `${server.root}/plain.bin`);
    await drained;
  });
  const readOurs = await seconds(async () => drain((await driver.read('/ours.bin')).body));

  const mbps = (s: number) => (size / MiB / s).toFixed(0);
  const rows = [
    `| list ${FILES} files | ${listPlain.toFixed(1)} ms | ${listOurs.toFixed(1)} ms | ${(listPlain / listOurs).toFixed(2)} |`,
    `| write ${size / MiB} MiB | ${mbps(writePlain)} MiB/s | ${mbps(writeOurs)} MiB/s | ${(writePlain / writeOurs).toFixed(2)} |`,
    `| read ${size / MiB} MiB | ${mbps(readPlain)} MiB/s | ${mbps(readOurs)} MiB/s | ${(readPlain / readOurs).toFixed(2)} |`,
  ];
  const body = [
    `Machine: ${machine()}. pure-ftpd on 127.0.0.1, plain FTP; listings: median of ${BLOCKS} blocks of ${ROUNDS} each way, in turns, after an untimed one; transfers: median of ${TRANSFER_ROUNDS} each way (after one warm-up each).`,
    '',
    '| step | plain basic-ftp | FtpDriver | ours/plain (goal ≥ 0.8) |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  console.log(body);
  writeSection('FTP storage driver', body);
} finally {
  client.close();
  await driver.close();
  await server.close();
}
