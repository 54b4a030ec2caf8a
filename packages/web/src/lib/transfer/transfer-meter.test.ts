/** Speed and time-left estimates of an upload, and how they are shown. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PROGRESS_INTERVAL_MS,
  TransferMeter,
  formatDuration,
  meteredProgress,
  percentOf,
} from './transfer-meter.ts';

test('no estimate until half a second of progress is known', () => {
  const meter = new TransferMeter();
  assert.deepEqual(meter.estimate(1000), { speed: null, eta: null });
  meter.sample(0, 0);
  meter.sample(100, 200);
  assert.deepEqual(meter.estimate(1000), { speed: null, eta: null });
});

test('speed is bytes per second over the window; time left from what remains', () => {
  const meter = new TransferMeter(5_000);
  meter.sample(0, 0);
  meter.sample(1_000_000, 1_000);
  meter.sample(2_000_000, 2_000);
  assert.deepEqual(meter.estimate(10_000_000), { speed: 1_000_000, eta: 8 });
});

test('old samples leave the window, so a slowdown shows', () => {
  const meter = new TransferMeter(5_000);
  meter.sample(0, 0);
  meter.sample(10_000_000, 1_000); // fast start
  for (let t = 2_000; t <= 12_000; t += 1_000) meter.sample(10_000_000 + (t - 1_000) * 100, t);
  const { speed, eta } = meter.estimate(20_000_000);
  assert.equal(speed, 100_000);
  assert.equal(eta, Math.ceil((20_000_000 - 11_100_000) / 100_000));
});

test('a stall reads as zero speed with no time left; a restart (retried part) resets', () => {
  const meter = new TransferMeter();
  meter.sample(500, 0);
  meter.sample(500, 2_000);
  assert.deepEqual(meter.estimate(1000), { speed: 0, eta: null });
  meter.sample(100, 2_100);
  assert.deepEqual(meter.estimate(1000), { speed: null, eta: null });
});

test('durations read m:ss or h:mm:ss; percent is whole and bounded', () => {
  assert.equal(formatDuration(0), '0:00');
  assert.equal(formatDuration(65), '1:05');
  assert.equal(formatDuration(3_725), '1:02:05');
  assert.equal(percentOf(1, 3), 33);
  assert.equal(percentOf(5, 3), 100);
  assert.equal(percentOf(0, 0), 0);
  assert.equal(percentOf(0, 0, true), 100);
});

test('a list is told progress at most every interval, and always when it is urgent', () => {
  let now = 0;
  const progress = meteredProgress(() => now);
  assert.deepEqual(progress.sample(0, 1000), { speed: null, eta: null });
  now = PROGRESS_INTERVAL_MS - 1;
  assert.equal(progress.sample(100, 1000), null);
  assert.notEqual(progress.sample(990, 1000, true), null);
  now += PROGRESS_INTERVAL_MS - 1;
  assert.equal(progress.sample(995, 1000), null, 'urgent samples restart the interval');
  now = 1000;
  assert.deepEqual(progress.sample(999, 1000), { speed: 999, eta: 1 });
});

test('no time left is told while the total is unknown', () => {
  let now = 0;
  const progress = meteredProgress(() => now);
  progress.sample(0, 0);
  now = 1000;
  assert.deepEqual(progress.sample(500, 0), { speed: 500, eta: null });
});
