/**
 * Takes turns, in arrival order, among pieces of work that share a key, while work with
 * disjoint keys runs at once. A piece waits for every earlier piece holding any of its keys;
 * its keys are all registered in one synchronous step, so the waits follow arrival order and
 * cannot form a cycle.
 *
 * Ingest uses it on PostgreSQL in front of the per-device advisory locks: two batches of one
 * device on this instance then queue here, not inside a transaction holding a pooled
 * connection while it waits for the other's lock (that starved the pool under load). The
 * advisory lock still orders batches of one device across instances.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys currently held or awaited (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }

  async run<T>(keys: Iterable<string>, work: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const earlier: Promise<void>[] = [];
    const held: string[] = [];
    for (const key of new Set(keys)) {
      const tail = this.tails.get(key);
      if (tail) earlier.push(tail);
      this.tails.set(key, done);
      held.push(key);
    }
    try {
      if (earlier.length > 0) await Promise.all(earlier);
      return await work();
    } finally {
      for (const key of held) if (this.tails.get(key) === done) this.tails.delete(key);
      release();
    }
  }
}
