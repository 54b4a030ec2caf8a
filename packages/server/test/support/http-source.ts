/** A plain HTTP server on 127.0.0.1 for tests that fetch URLs: records each request and counts connections. */
import http from 'node:http';
import type net from 'node:net';

export interface SeenRequest {
  path: string;
  host: string | undefined;
  method: string;
}

export type HttpSource = Awaited<ReturnType<typeof startHttpSource>>;

export async function startHttpSource(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
) {
  const seen: SeenRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', host: req.headers.host, method: req.method ?? '' });
    handler(req, res);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
