import { describe, expect, it } from 'vitest';
import { GatewayRateLimiter } from './gateway-rate-limiter';

describe('GatewayRateLimiter', () => {
  it('lets a burst through, then the sustained rate; notes a refusal at most once a second', () => {
    const limiter = new GatewayRateLimiter(200, 1000);
    for (let i = 0; i < 1000; i += 1) expect(limiter.take(1, 0).allowed).toBe(true);
    const refused = limiter.take(1, 0);
    expect(refused).toEqual({ allowed: false, note: true, retryAfterMs: 5 });
    expect(limiter.take(1, 1)).toMatchObject({ allowed: false, note: false });
    // 200 per second: after 100 ms, 20 more.
    let allowed = 0;
    for (let i = 0; i < 50; i += 1) if (limiter.take(1, 100).allowed) allowed += 1;
    expect(allowed).toBe(20);
    expect(limiter.take(1, 1001)).toMatchObject({ allowed: true });
    expect(limiter.take(2, 0).allowed).toBe(true);
  });

  it('forgets full buckets', () => {
    const limiter = new GatewayRateLimiter(10, 10);
    limiter.take(1, 0);
    limiter.sweep(50);
    expect(limiter.take(1, 50)).toEqual({ allowed: true });
    limiter.sweep(10_000);
    for (let i = 0; i < 10; i += 1) expect(limiter.take(1, 10_000).allowed).toBe(true);
    expect(limiter.take(1, 10_000).allowed).toBe(false);
  });
});
