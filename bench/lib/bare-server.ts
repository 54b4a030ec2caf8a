/** A bare node:http server, the ceiling a benchmark compares an API route with. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './harness.ts';

/** A bare node:http server, in its own process like ours, answering `body` to every request. */
export async function bareServer(body: string, contentType: string) {
  const port = await freePort();
  const headers = JSON.stringify({ 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  // The body goes through a file: a large one does not fit in a command-line argument.
  const dir = await mkdtemp(path.join(tmpdir(), 'cubby-bare-'));
  const file = path.join(dir, 'body');
  await writeFile(file, body);
  const source =
    `const b = require('node:fs').readFileSync(${JSON.stringify(file)});` +
    `require('node:http').createServer((q, s) => { s.writeHead(200, ${headers}); s.end(b); })` +
    `.listen(${port}, '127.0.0.1', () => console.log('up'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  await rm(dir, { recursive: true, force: true });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid!,
    close: () => new Promise((r) => (child.once('exit', r), child.kill())),
  };
}
