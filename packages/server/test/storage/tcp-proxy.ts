/**
 * A TCP proxy on loopback in front of a test server (S3, SFTP, an FTP control port), for watching
 * what a driver does on the wire: how many connections it holds open, how many bytes the server has
 * sent it, and cutting a connection short.
 */
import net from 'node:net';

export interface TcpProxy {
  /** http://127.0.0.1:<port>, to use as the driver's endpoint. */
  endpoint: string;
  /** The proxy's port, for drivers configured by host and port. */
  port: number;
  /** Connections from the driver that are still open. */
  open(): number;
  /** Connections from the driver accepted so far. */
  accepted(): number;
  /** Bytes passed from the server to the driver so far. */
  bytesDown(): number;
  /** Cuts every connection once `bytes` more have gone down (from now on). */
  cutAfter(bytes: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const upstream = new URL(target);
  const sockets = new Set<net.Socket>();
  let down = 0;
  let accepted = 0;
  let cutAt = Infinity;
  const server = net.createServer((client) => {
    accepted++;
    const server = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(client);
    client.once('close', () => {
      sockets.delete(client);
      server.destroy();
    });
    server.once('close', () => client.destroy());
    client.on('error', () => undefined);
    server.on('error', () => undefined);
    server.on('data', (chunk: Buffer) => {
      down += chunk.length;
      if (down >= cutAt) {
        client.destroy();
        server.destroy();
      }
    });
    // pipe() pauses the server side while the driver is not reading: backpressure goes through.
    client.pipe(server);
    server.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    open: () => sockets.size,
    accepted: () => accepted,
    bytesDown: () => down,
    cutAfter: (bytes) => {
      cutAt = down + bytes;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
