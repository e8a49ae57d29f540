/**
 * Long fits (a floor's reference points: seconds of CPU on a large survey) are written as
 * generators that yield between steps of a few milliseconds, so a server can let requests run
 * in between; tests and the benchmark run them through at once.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step at once. */
export function complete<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps, awaiting `pause` between them (the server's turn of the event loop). */
export async function completeYielding<T>(steps: Steps<T>, pause: () => Promise<unknown>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}
