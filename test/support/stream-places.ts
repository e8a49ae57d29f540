import type { TestApp } from './test-app';
import { waitFor } from './webhook-receiver';

/** The open streams' places in the database (the per-organization bound; each test app has a database of its own). */
export async function streamPlacesHeld(t: TestApp): Promise<number> {
  const [row] = (await t.dataSource.query('SELECT COUNT(*) AS held FROM stream_leases')) as Array<{ held: number | string }>;
  return Number(row.held);
}

/** Waits until `count` places are held: a closed stream's place is given back just after the server notices the hang-up. */
export async function untilStreamPlacesHeld(t: TestApp, count: number, timeoutMs = 3000): Promise<void> {
  await waitFor(
    () => streamPlacesHeld(t),
    (held) => held === count,
    timeoutMs,
    `${count} stream places held`,
  );
}
