/**
 * Measuring streamed transfers against the real server process: its resident memory and CPU while a
 * step runs, request bodies generated as they are sent, and answers read to their end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { cpuMicros } from './harness.ts';

export const MiB = 1024 * 1024;

/** Resident memory of a process, from /proc (bytes). */
export function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

export interface Step {
  seconds: number;
  /** Peak growth of the server's RSS over its level before the step. */
  growthMiB: number;
  /** Server CPU time (user + system), ms. */
  cpuMs: number;
}

/** Runs `fn` while sampling the server's RSS; returns seconds, the peak growth in MiB and server CPU. */
export async function measure(pid: number, fn: () => Promise<void>): Promise<Step> {
  const before = rss(pid);
  const cpuBefore = cpuMicros(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
  const start = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, rss(pid));
  return {
    seconds: (performance.now() - start) / 1000,
    growthMiB: (peak - before) / MiB,
    cpuMs: (cpuMicros(pid) - cpuBefore) / 1000,
  };
}

/** `bytes` of random data in 1 MiB chunks, produced only as fast as they are consumed. */
export function generated(bytes: number): ReadableStream<Uint8Array> {
  const block = randomBytes(MiB);
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= bytes) return controller.close();
        const n = Math.min(MiB, bytes - sent);
        sent += n;
        controller.enqueue(block.subarray(0, n));
      },
    },
    { highWaterMark: 0 },
  );
}

/** A multipart/form-data body: the fields, then the file streamed from `file`. */
export function formBody(fields: Record<string, string>, filename: string, file: ReadableStream<Uint8Array>) {
  const boundary = `----cubby-bench-${randomBytes(8).toString('hex')}`;
  const encoder = new TextEncoder();
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const tail = `\r\n--${boundary}--\r\n`;
  const reader = file.getReader();
  let stage: 'head' | 'file' | 'done' = 'head';
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (stage === 'head') {
          stage = 'file';
          return controller.enqueue(encoder.encode(head));
        }
        if (stage === 'file') {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          stage = 'done';
          controller.enqueue(encoder.encode(tail));
          return controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Reads a body to its end; returns the byte count. */
export async function drain(body: ReadableStream<Uint8Array> | null): Promise<number> {
  let n = 0;
  for await (const chunk of (body ?? []) as AsyncIterable<Uint8Array>) n += chunk.byteLength;
  return n;
}
