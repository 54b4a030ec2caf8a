/**
 * The WebDAV storage driver next to plain node:http requests against the same server (Apache httpd
 * with mod_dav on 127.0.0.1, started by packages/server/test/support/webdav-servers.ts): listing a
 * folder of 1,000 files (one PROPFIND Depth 1, parsed and sorted, against the same PROPFIND read to
 * its end), and writing and reading a file of N MiB (default 256; PUT to a temp name and MOVE, and
 * PROPFIND + GET, against one PUT and one GET). Prints each figure and the ratio plain/ours of the
 * times, i.e. our speed as a share of plain HTTP's (goal ≥ 0.8); never passes or fails.
 *
 *   node --import tsx bench/webdav-driver.bench.ts [MiB]
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { WebdavDriver } from '../packages/server/src/storage/drivers/webdav/webdav-driver.ts';
import { DAV_PASSWORD, DAV_USER, startApacheDav } from '../packages/server/test/support/webdav-servers.ts';
import { machine, timeMs, writeSection } from './lib/harness.ts';
import { drain, generated, MiB } from './lib/streams.ts';

const FILES = 1000;
const LIST_ROUNDS = 15;
const TRANSFER_ROUNDS = 3;
const mib = Number(process.argv[2] ?? 256);

const server = await startApacheDav();
const driver = new WebdavDriver({
  endpoint: server.url,
  username: DAV_USER,
  password: DAV_PASSWORD,
  rootFolder: '',
  tlsInsecureSkipVerify: false,
});
const agent = new http.Agent({ keepAlive: true });
const auth = `Basic ${Buffer.from(`${DAV_USER}:${DAV_PASSWORD}`).toString('base64')}`;

/** One plain request; resolves with the answer once `body` (if any) is sent. */
function plain(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: ReadableStream<Uint8Array> | string,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, server.url), {
      method,
      agent,
      headers: { Authorization: auth, ...headers },
    });
    req.on('response', resolve);
    req.on('error', reject);
    if (body === undefined || typeof body === 'string') req.end(body);
    else Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>).pipe(req);
  });
}

async function plainDrain(res: http.IncomingMessage): Promise<number> {
  let n = 0;
  for await (const chunk of res) n += (chunk as Buffer).length;
  return n;
}

const rows: Array<[string, number, number, string]> = [];
const record = (what: string, oursMs: number, plainMs: number, unit: string): void => {
  rows.push([what, oursMs, plainMs, unit]);
};

try {
  await driver.mkdir('/list');
  for (let i = 0; i < FILES; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        driver.write(`/list/f-${String(i + j).padStart(4, '0')}`, generated(10)),
      ),
    );
  }
  const propfind =
    '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
  const listOurs = await timeMs(LIST_ROUNDS, async () => {
    const page = await driver.list('/list');
    if (page.entries.length !== FILES) throw new Error(`listed ${page.entries.length}`);
  });
  const listPlain = await timeMs(LIST_ROUNDS, async () =>
    plainDrain(await plain('PROPFIND', 'list/', { Depth: '1', 'Content-Type': 'application/xml' }, propfind)),
  );
  record(`list ${FILES} files`, listOurs, listPlain, 'ms');

  const size = mib * MiB;
  const writeOurs = await timeMs(TRANSFER_ROUNDS, () => driver.write('/big.bin', generated(size), { size }));
  const writePlain = await timeMs(TRANSFER_ROUNDS, async () => {
    const res = await plain('PUT', 'plain.bin', { 'Content-Length': String(size) }, generated(size));
    await plainDrain(res);
  });
  record(`write ${mib} MiB`, writeOurs, writePlain, 'ms');

  const readOurs = await timeMs(TRANSFER_ROUNDS, async () => {
    if ((await drain((await driver.read('/big.bin')).body)) !== size) throw new Error('short read');
  });
  const readPlain = await timeMs(TRANSFER_ROUNDS, async () => {
    if ((await plainDrain(await plain('GET', 'plain.bin'))) !== size) throw new Error('short read');
  });
  record(`read ${mib} MiB`, readOurs, readPlain, 'ms');

  const table = [
    `Machine: ${machine()}. Apache httpd with mod_dav on 127.0.0.1; the driver next to plain node:http requests.`,
    '',
    '| operation | ours | plain | ratio plain/ours (goal ≥ 0.8) |',
    '| --- | --- | --- | --- |',
    ...rows.map(([what, ours, plainMs]) => {
      const rate = what.startsWith('list') ? '' : ` (${((mib / ours) * 1000).toFixed(0)} MiB/s)`;
      return `| ${what} | ${ours.toFixed(1)} ms${rate} | ${plainMs.toFixed(1)} ms | ${(plainMs / ours).toFixed(2)} |`;
    }),
  ].join('\n');
  console.log(table);
  writeSection('WebDAV storage driver', table);
} finally {
  agent.destroy();
  await driver.close();
  await server.close();
}
