/**
 * Storage drivers: memory and speed of a large streamed write and read (docs/testing.md, "Budgets": a 1 GiB
 * transfer adds < 64 MiB RSS). Prints figures; never passes or fails.
 *
 *   node --import tsx bench/storage-memory.ts [MiB]        (default 1024)
 * The S3 driver is measured on the server S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY name,
 * else on a throwaway radosgw (bench/lib/s3.ts), in a throwaway bucket.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StorageDriver } from '../packages/server/src/storage/driver.ts';
import { LocalDriver } from '../packages/server/src/storage/drivers/local/local-driver.ts';
import { S3Driver } from '../packages/server/src/storage/drivers/s3/s3-driver.ts';
import { withBucket, withS3Server } from './lib/s3.ts';

const MiB = 1024 * 1024;
const size = Number(process.argv[2] ?? 1024) * MiB;

/** Pull-driven 1 MiB chunks, each a fresh buffer, so nothing but the consumer holds them. */
function generated(bytes: number): ReadableStream<Uint8Array> {
  const block = randomBytes(MiB);
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= bytes) return controller.close();
        const n = Math.min(MiB, bytes - sent);
        sent += n;
        controller.enqueue(Uint8Array.prototype.slice.call(block, 0, n));
      },
    },
    { highWaterMark: 0 },
  );
}

/** Runs `fn` while sampling RSS; returns the peak growth over the RSS before it. */
async function measure(fn: () => Promise<void>): Promise<{ seconds: number; peakMiB: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds: (performance.now() - start) / 1000, peakMiB: (peak - before) / MiB };
}

async function bench(name: string, driver: StorageDriver): Promise<void> {
  const write = await measure(async () => {
    await driver.write('/bench/large.bin', generated(size));
  });
  const read = await measure(async () => {
    const result = await driver.read('/bench/large.bin');
    for await (const chunk of result.body as unknown as AsyncIterable<Uint8Array>) void chunk;
  });
  const rate = (s: number) => `${(size / MiB / s).toFixed(0)} MiB/s`;
  console.log(
    `${name.padEnd(6)} write ${rate(write.seconds).padStart(10)}  +${write.peakMiB.toFixed(0)} MiB RSS peak | ` +
      `read ${rate(read.seconds).padStart(10)}  +${read.peakMiB.toFixed(0)} MiB RSS peak`,
  );
  await driver.remove('/bench', { recursive: true });
}

console.log(
  `storage drivers, ${size / MiB} MiB streamed, ${os.cpus().length} cores, Node ${process.version}`,
);

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'cubby-bench-storage-'));
try {
  await bench('local', new LocalDriver({ root, configId: 'bench' }));
} finally {
  await fs.rm(root, { recursive: true, force: true });
}

await withS3Server((server) =>
  withBucket(server, async (bucket) => {
    const driver = new S3Driver({ ...server, bucket, pathStyle: true, provider: 'other' });
    try {
      await bench('s3', driver);
    } finally {
      await driver.close();
    }
  }),
);
