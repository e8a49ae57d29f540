/** Where the engine and its timers read the time, so tests can drive it. Milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: scenario tests and `simulate`. */
export class ManualClock implements Clock {
  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  set(time: number): void {
    this.current = time;
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}

/** The engine's clock in the application (GeofencingModule provides systemClock; tests may give a ManualClock). */
export const ENGINE_CLOCK = Symbol('ENGINE_CLOCK');
