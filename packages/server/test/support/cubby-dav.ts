/**
 * Cubby's own /dav as a WebDAV server for tests: the real app (test-app.ts, on SQLite) served in
 * this process on a real loopback listener, a local-disk storage config mounted at `/`, signed in
 * as its admin. Ready once it listens; `stop()` drops every connection at once (as when a server
 * process is killed), `start()` brings it back on the same port with the same data. Apart from
 * webdav-servers.ts, which browser tests import, because this loads the whole app.
 */
import { mkdir } from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serveApp } from '../../src/http/node-server.ts';
import { ADMIN, bearer, createTestApp, type TestApp } from './test-app.ts';
import type { TestWebdavServer } from './webdav-servers.ts';

export interface CubbyDavServer extends TestWebdavServer {
  app: TestApp;
  /** The local-disk storage config behind its `/`. */
  configId: string;
}

/** Cubby's own /dav over a fresh local-disk folder mounted at `/` (its data is `dataDir`). */
export async function startCubbyDav(): Promise<CubbyDavServer> {
  const app = await createTestApp('sqlite');
  // Its listing cache expires and its sweeps judge age as a server's would.
  app.clock.followRealTime();
  const dataDir = path.join(app.database.dataDir, 'disk');
  await mkdir(dataDir);
  const admin = bearer(await app.adminToken());
  const config = await app.json('/api/s3-configs', {
    method: 'POST',
    headers: admin,
    json: { name: 'disk', provider_type: 'Local', root_path: dataDir },
  });
  if (config.status !== 201) throw new Error(`storage config: ${JSON.stringify(config.body)}`);
  const mount = await app.json('/api/admin/mounts', {
    method: 'POST',
    headers: admin,
    json: { name: 'root', mount_path: '/', storage_config_id: config.body.data.id },
  });
  if (mount.status !== 201) throw new Error(`mount: ${JSON.stringify(mount.body)}`);
  let port = 0;
  let server: http.Server | undefined;
  const start = () =>
    new Promise<void>((resolve) => {
      server = serveApp({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        port = info.port;
        resolve();
      });
    });
  // Every connection drops at once, as when a server process is killed.
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    const closed = new Promise((resolve) => running.close(resolve));
    running.closeAllConnections();
    await closed;
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}/dav/`,
    username: ADMIN.username,
    password: ADMIN.password,
    port,
    dataDir,
    app,
    configId: config.body.data.id as string,
    start,
    stop,
    async close() {
      await stop();
      await app.close(); // its data folder goes with its database
    },
  };
}
