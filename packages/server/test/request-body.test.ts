/**
 * The request-body guard holds a streamed upload to its minimum rate without holding on to it: the
 * chunks a route has read are garbage as soon as it is done with them, however large the body.
 * (Racing each read against one long-lived "rule broken" promise left a reaction per chunk on that
 * promise, so a 1 GiB upload kept 1 GiB in memory until it ended.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Hono } from 'hono';
import type { AppEnv } from '../src/http/context.ts';
import { requestBodies } from '../src/http/request-body.ts';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;

test('a streamed body read to its end is not kept in memory while it is read', async () => {
  const total = 256 * MiB;
  let peakHeldMiB = 0;
  const app = new Hono<AppEnv>();
  app.use(
    '*',
    requestBodies({
      limits: { timeoutMs: 30_000, minBytes: 1, windowMs: 60_000 },
      streaming: () => true,
      maxBytes: () => ({ bytes: MiB, label: '1 MiB' }),
    }),
  );
  app.put('/upload', async (c) => {
    let read = 0;
    for await (const chunk of c.req.raw.body as unknown as AsyncIterable<Uint8Array>) {
      read += chunk.byteLength;
      if (read % (32 * MiB) === 0) {
        gc();
        peakHeldMiB = Math.max(peakHeldMiB, process.memoryUsage().arrayBuffers / MiB);
      }
    }
    return c.text(String(read));
  });
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += MiB;
        // A fresh buffer each time, as a socket gives: nothing shared that would hide retention.
        controller.enqueue(new Uint8Array(MiB));
      },
    },
    { highWaterMark: 0 },
  );
  const res = await app.request('/upload', { method: 'PUT', body, duplex: 'half' } as RequestInit);
  assert.equal(await res.text(), String(total));
  assert.ok(peakHeldMiB < 64, `held ${peakHeldMiB.toFixed(0)} MiB of array buffers while reading`);
});
