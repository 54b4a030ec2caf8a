/**
 * Upload speed and time left. Speed is measured over a sliding window of recent progress samples
 * (a few seconds), so a stall shows quickly and one burst does not dominate; before the window has
 * enough data there is no estimate rather than a wild one.
 */

export interface TransferSample {
  /** Milliseconds (any monotonic clock). */
  at: number;
  /** Bytes done so far. */
  loaded: number;
}

export interface TransferEstimate {
  /** Bytes per second, or null while unknown. */
  speed: number | null;
  /** Seconds left, or null while unknown. */
  eta: number | null;
}

export const METER_WINDOW_MS = 5_000;
/** Less time than this between the oldest and newest sample gives no estimate. */
export const METER_MIN_SPAN_MS = 500;

export class TransferMeter {
  private samples: TransferSample[] = [];

  constructor(private readonly windowMs = METER_WINDOW_MS) {}

  /** Records progress; `loaded` may restart lower (a retried part), which resets the window. */
  sample(loaded: number, at: number): void {
    const last = this.samples.at(-1);
    if (last && loaded < last.loaded) this.samples = [];
    this.samples.push({ at, loaded });
    // Keep one sample at or before the window start, so the span covers the whole window.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  estimate(total: number): TransferEstimate {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < METER_MIN_SPAN_MS) return { speed: null, eta: null };
    const speed = ((last.loaded - first.loaded) * 1000) / (last.at - first.at);
    if (speed <= 0) return { speed: 0, eta: null };
    return { speed, eta: Math.max(0, Math.ceil((total - last.loaded) / speed)) };
  }

  reset(): void {
    this.samples = [];
  }
}

/** A list shows progress at most this often (more would re-render it for nothing). */
export const PROGRESS_INTERVAL_MS = 150;

/**
 * Progress of one transfer as a list item shows it: every sample feeds the meter, and at most every
 * {@link PROGRESS_INTERVAL_MS} (always for an `urgent` sample, such as the last percent) one answers
 * what to show: the speed and time left (none while the total is unknown); null in between.
 */
export function meteredProgress(clock: () => number = () => performance.now()) {
  const meter = new TransferMeter();
  let shown = -Infinity;
  return {
    sample(loaded: number, total: number, urgent = false): TransferEstimate | null {
      const now = clock();
      meter.sample(loaded, now);
      if (!urgent && now - shown < PROGRESS_INTERVAL_MS) return null;
      shown = now;
      const { speed, eta } = meter.estimate(total);
      return { speed, eta: total > 0 ? eta : null };
    },
    /** A new phase (stage): its speed is measured afresh. */
    reset(): void {
      meter.reset();
    },
  };
}

/** Seconds as `m:ss` or `h:mm:ss` (digits only, the same in every language). */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Whole percent of `loaded` in `total`, 0–100; an empty total counts as done only when `done`. */
export function percentOf(loaded: number, total: number, done = false): number {
  if (total <= 0) return done ? 100 : 0;
  return Math.min(100, Math.max(0, Math.floor((loaded / total) * 100)));
}
