/** A bare node:http server, the ceiling a benchmark compares an API route with. */
import { spawn } from 'node:child_process';
import { freePort } from './harness.ts';

/** A bare node:http server, in its own process like ours, answering `body` to every request. */
export async function bareServer(body: string, contentType: string) {
  const port = await freePort();
  const headers = JSON.stringify({ 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  const source =
    `require('node:http').createServer((q, s) => { s.writeHead(200, ${headers}); s.end(${JSON.stringify(body)}); })` +
    `.listen(${port}, '127.0.0.1', () => console.log('up'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid!,
    close: () => new Promise((r) => (child.once('exit', r), child.kill())),
  };
}
