/** The clock is injected everywhere time matters, so expiry is tested without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
