/** `npm run bench`: runs every benchmark and records the figures in bench/RESULTS.md. */
import { startServer, machine, writeSection } from './lib/harness.ts';
import { measurePasteViewJs } from './paste-view-js.ts';
import { benchFiles } from './files.bench.ts';
import { benchPastes } from './pastes.bench.ts';
import { benchFsList } from './fs-list.bench.ts';
import { benchDashboard } from './dashboard.bench.ts';
import { benchWebdav } from './webdav.bench.ts';
import { benchZip } from './zip.bench.ts';
import { benchStartup } from './startup.bench.ts';
import { benchExplorerList } from './explorer-list.bench.ts';
import { spawnSync } from 'node:child_process';

await benchPastes();
await benchFiles();
await benchFsList();
await benchDashboard();
await benchWebdav();
await benchZip();
await benchStartup();
// Needs the built web app, as the paste view's figures below do.
await benchExplorerList();
// The WebDAV, SFTP and FTP drivers next to each protocol's plain client on the same server: each a
// script of its own (it starts its server as the tests do), 256 MiB files.
for (const script of ['webdav-driver.bench.ts', 'sftp.bench.ts', 'ftp.bench.ts']) {
  spawnSync(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname], {
    stdio: 'inherit',
  });
}

// The paste view's JavaScript before content: needs the built web app (npm start or npm run build).
const server = await startServer();
try {
  const { files, totalGzipBytes } = await measurePasteViewJs(server.base);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const rows = files.map((f) => `| ${new URL(f.url).pathname} | ${kb(f.gzipBytes)} |`).join('\n');
  const table = `| file | KB gzip |\n|---|---|\n${rows}\n| **total** | **${kb(totalGzipBytes)}** |`;
  console.log(table);
  writeSection(
    'Paste view JavaScript before content',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. Cold load of /paste/<slug> in the system Chromium; ` +
      `JS files requested until the content is visible, each gzipped (node:zlib default level). Goal < 150 KB ` +
      `(issue 4), budget < 200 KB (docs/testing.md, "Budgets").\n\n${table}`,
  );
} finally {
  await server.stop();
}
