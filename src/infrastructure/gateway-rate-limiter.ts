/**
 * Token buckets per gateway, in this process (issue 39: 200 messages/s sustained, bursts of 1,000): a bucket holds at
 * most `burst` tokens, refills at `perSecond`, and a message takes one. Per instance by design (documented): with N
 * instances a gateway that spreads its messages over all of them may send up to N times the rate.
 */
export class GatewayRateLimiter {
  private readonly buckets = new Map<number, { tokens: number; atMs: number; notedMs: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    /** A refused gateway's health is written at most this often (a flood is not a write per message). */
    private readonly noteEveryMs = 1_000,
  ) {}

  /** Takes a token: `allowed`, and for a refusal whether the limit should be noted on the health now. */
  take(gatewayId: number, nowMs: number): { allowed: true } | { allowed: false; note: boolean; retryAfterMs: number } {
    let bucket = this.buckets.get(gatewayId);
    if (!bucket) {
      bucket = { tokens: this.burst, atMs: nowMs, notedMs: -Infinity };
      this.buckets.set(gatewayId, bucket);
    }
    const elapsed = Math.max(0, nowMs - bucket.atMs);
    bucket.tokens = Math.min(this.burst, bucket.tokens + (elapsed * this.perSecond) / 1000);
    bucket.atMs = Math.max(bucket.atMs, nowMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const note = nowMs - bucket.notedMs >= this.noteEveryMs;
    if (note) bucket.notedMs = nowMs;
    return { allowed: false, note, retryAfterMs: Math.ceil(((1 - bucket.tokens) * 1000) / this.perSecond) };
  }

  /** Buckets that are full again hold nothing worth keeping: dropped so the map does not grow with gateways gone. */
  sweep(nowMs: number): void {
    for (const [id, bucket] of this.buckets) {
      if (bucket.tokens + ((nowMs - bucket.atMs) * this.perSecond) / 1000 >= this.burst) this.buckets.delete(id);
    }
  }
}
