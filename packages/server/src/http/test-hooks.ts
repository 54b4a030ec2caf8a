/**
 * Test hooks, mounted only when CUBBY_TEST_HOOKS=1: `POST /api/__test__/clock {advanceMs}` moves the
 * server's clock forward so expiry is tested without waiting; `POST /api/__test__/sweep` runs the
 * jobs that clear what crashed writes leave behind, now (the crash test). In this mode main.ts does
 * not start the periodic jobs.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AdjustableClock } from '../lib/clock.ts';
import type { AppEnv } from './context.ts';
import { ok } from './envelope.ts';
import { route } from './route-docs.ts';

/** The crash-leftover jobs, each by name; each answers how many leftovers it cleared. */
export type Sweeps = Record<string, () => Promise<number>>;

export function testHookRoutes(clock: AdjustableClock, sweeps: Sweeps) {
  const app = new Hono<AppEnv>();
  app.post(
    '/__test__/clock',
    route(
      {
        tag: 'Test hooks',
        summary: 'Moves the clock forward (only with CUBBY_TEST_HOOKS=1)',
        auth: 'none',
        body: z.object({
          advanceMs: z
            .number()
            .int()
            .min(0)
            .max(100 * 365 * 24 * 3600_000),
        }),
      },
      (c, { body }) => {
        clock.advance(body.advanceMs);
        return ok(c, 'common.ok', { now: clock.now().toISOString() });
      },
    ),
  );
  app.post(
    '/__test__/sweep',
    route(
      {
        tag: 'Test hooks',
        summary: 'Runs the crash-leftover jobs now (only with CUBBY_TEST_HOOKS=1)',
        auth: 'none',
      },
      async (c) => {
        const cleared: Record<string, number> = {};
        for (const [name, run] of Object.entries(sweeps)) cleared[name] = await run();
        return ok(c, 'common.ok', cleared);
      },
    ),
  );
  return app;
}
