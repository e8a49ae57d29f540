/**
 * The position stream's event id: a watermark, the epoch milliseconds of the latest change
 * (a device row's `updated_at`) the client has been sent in full. Every row stamped at or
 * before it was sent; `Last-Event-ID` / `?after=` resume strictly after it.
 */
export function parseWatermark(value: string): number | null {
  if (!/^\d{1,15}$/.test(value)) return null;
  const ms = Number(value);
  return Number.isSafeInteger(ms) ? ms : null;
}

/**
 * Which changed rows a stream sends, given what it sent already. Writers stamp a row before
 * their transaction commits, so a row can become visible after rows stamped later; each read
 * looks `lagMs` behind the watermark and sends what it has not sent, so such a row is not
 * lost as long as its commit took less than `lagMs`.
 */
export class ChangeTracker {
  /** Device id → the change (stamp) sent, for stamps inside the lag window. */
  private readonly sent = new Map<string, number>();

  constructor(
    /** Changes at or before this stamp count as sent (the resume point, or the stream's start). */
    private watermark: number,
    private readonly lagMs: number,
    private primed = false,
  ) {}

  get current(): number {
    return this.watermark;
  }

  /** Where the next read starts. */
  get readFrom(): number {
    return Math.max(0, this.watermark - this.lagMs);
  }

  /**
   * Filters a read (ordered by stamp) down to what is new, and records it as sent. The first
   * read only learns which rows inside the window the client already has (stamped at or before
   * the watermark).
   */
  select<T extends { id: string; changedAt: number }>(rows: T[]): T[] {
    const fresh: T[] = [];
    const from = this.readFrom;
    for (const row of rows) {
      // Older than the window: what was sent of it is forgotten, and it was sent.
      if (row.changedAt < from) continue;
      if (this.sent.get(row.id) === row.changedAt) continue;
      if (!this.primed && row.changedAt <= this.watermark) {
        this.sent.set(row.id, row.changedAt);
        continue;
      }
      this.sent.set(row.id, row.changedAt);
      fresh.push(row);
    }
    this.primed = true;
    for (const row of fresh) if (row.changedAt > this.watermark) this.watermark = row.changedAt;
    this.prune();
    return fresh;
  }

  /**
   * A read covering this stream saw changes up to `stamp`, none of them for this stream (or
   * all sent): the watermark moves on, so the next reads need not look further back.
   */
  seen(stamp: number): void {
    if (!this.primed || stamp <= this.watermark) return;
    this.watermark = stamp;
    this.prune();
  }

  private prune(): void {
    const horizon = this.watermark - this.lagMs;
    for (const [id, stamp] of this.sent) if (stamp < horizon) this.sent.delete(id);
  }
}
