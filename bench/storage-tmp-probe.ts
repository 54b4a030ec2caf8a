import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { S3Driver } from '../packages/server/src/storage/drivers/s3.ts';
const MiB = 1024 * 1024;
const [partMiB, queue] = process.argv.slice(2).map(Number);
const size = 512 * MiB;
const block = randomBytes(MiB);
let sent = 0;
const body = new ReadableStream<Uint8Array>(
  {
    pull(c) {
      if (sent >= size) return c.close();
      sent += MiB;
      c.enqueue(Uint8Array.prototype.slice.call(block));
    },
  },
  { highWaterMark: 0 },
);
const admin = new S3Client({
  endpoint: 'http://127.0.0.1:7480',
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'devak', secretAccessKey: 'devsecret' },
});
const bucket = 'cubby-bench-tmp';
await admin.send(new CreateBucketCommand({ Bucket: bucket })).catch(() => 0);
const d = new S3Driver({
  endpoint: 'http://127.0.0.1:7480',
  region: 'us-east-1',
  bucket,
  accessKeyId: 'devak',
  secretAccessKey: 'devsecret',
  pathStyle: true,
  provider: 'other',
  tuning: { partSize: partMiB! * MiB, queueSize: queue! },
});
global.gc?.();
const before = process.memoryUsage();
let peak = 0,
  peakAB = 0;
const t = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakAB = Math.max(peakAB, m.arrayBuffers);
}, 10);
const s = performance.now();
await d.write('/x.bin', body);
clearInterval(t);
console.log(
  partMiB,
  queue,
  'rss +',
  ((peak - before.rss) / MiB).toFixed(0),
  'arrayBuffers peak',
  (peakAB / MiB).toFixed(0),
  'MiB/s',
  (512 / ((performance.now() - s) / 1000)).toFixed(0),
);
await d.remove('/x.bin');
await d.close();
