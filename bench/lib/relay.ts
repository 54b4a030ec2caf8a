/**
 * A bare TCP relay in a process of its own: every byte in one side out the other, nothing parsed.
 * Reading an object through it costs what a Node proxy on this machine must pay for the extra hop
 * (two more socket copies and a third busy process), so it is the ceiling for the server's proxy
 * route (a relay that splices sockets in the kernel could do better; Node has no splice).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './harness.ts';

const RELAY = `
const net = require('node:net');
const [port, host, targetPort] = process.argv.slice(1);
net.createServer((client) => {
  const upstream = net.connect(Number(targetPort), host);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
`;

export interface Relay {
  /** http://127.0.0.1:<port>, in front of the target. */
  endpoint: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startRelay(target: string): Promise<Relay> {
  const url = new URL(target);
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', RELAY, String(port), url.hostname, url.port], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout!, 'data');
  return {
    endpoint: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}
