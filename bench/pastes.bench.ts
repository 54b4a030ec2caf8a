/**
 * Paste throughput: GET /api/paste/:slug and GET /api/raw/:slug (each read counts a view: one
 * UPDATE … RETURNING) and POST /api/paste, at 32 connections, against the real server on SQLite;
 * and a bare node:http server answering the same bytes, as the ceiling on this machine.
 */
import { type LoadResult, adminToken, load, machine, startServer, writeSection } from './lib/harness.ts';
import { bareServer } from './lib/bare-server.ts';

const SEEDED = 200;

export async function benchPastes(): Promise<void> {
  const server = await startServer();
  try {
    const token = await adminToken(server.base);
    const content =
      '# Meeting notes\n\n' + 'Some **markdown** text with a [link](https://example.com).\n'.repeat(20);
    const slugs: string[] = [];
    for (let i = 0; i < SEEDED; i++) {
      const res = await fetch(`${server.base}/api/paste`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ content, remark: `seed ${i}` }),
      });
      slugs.push(((await res.json()) as { data: { slug: string } }).data.slug);
    }
    const requests = (prefix: string) =>
      slugs.map((slug) => ({ method: 'GET' as const, path: `${prefix}${slug}` }));

    // warm up
    const pid = server.child.pid!;
    await load({ url: server.base, requests: requests('/api/paste/'), duration: 3 });
    const view = await load({ url: server.base, requests: requests('/api/paste/') }, pid);
    const raw = await load({ url: server.base, requests: requests('/api/raw/') }, pid);
    const create = await load(
      {
        url: `${server.base}/api/paste`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ content, remark: 'bench' }),
      },
      pid,
    );

    const sample = await fetch(`${server.base}/api/paste/${slugs[0]}`);
    const bare = await bareServer(await sample.text(), 'application/json');
    const ceiling = await load({ url: bare.url }, bare.pid);
    await bare.close();

    const row = (name: string, r: LoadResult) =>
      `| ${name} | ${r.rps.toLocaleString('en')} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${(r.rps / ceiling.rps).toFixed(2)} | ${r.cpuUs} | ${Math.round(1e6 / r.cpuUs!).toLocaleString('en')} |`;
    const table = [
      '| request | req/s | p50 ms | p99 ms | errors + non-2xx | fraction of bare node:http | server CPU µs/req | req/s per server core (1e6 / CPU µs) |',
      '|---|---|---|---|---|---|---|---|',
      row('GET /api/paste/:slug (counts a view)', view),
      row('GET /api/raw/:slug (counts a view)', raw),
      row('POST /api/paste', create),
      row('bare node:http, same bytes as a view', ceiling),
    ].join('\n');
    console.log(table);
    writeSection(
      'Paste reads and writes',
      `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}.\n\n` +
        `Real server (\`packages/server/src/main.ts\`), SQLite in a temp DATA_DIR, access log on (info), ` +
        `${SEEDED} seeded Markdown pastes of ${Buffer.byteLength(content)} bytes, autocannon with 32 connections ` +
        `for 10 s per row, load generator on the same 2 cores. Target: ≥ 8,000 paste reads/s. ` +
        `The server's CPU time per request (from /proc) does not depend on what else the machine is doing, ` +
        `so its last column is the steadier figure when the machine is busy.\n\n${table}`,
    );
  } finally {
    await server.stop();
  }
}
