/**
 * When to try a webhook delivery again (contract 7.5): at once, 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h, 24 h, each with ±10 % jitter, then dead. Pure: the caller passes the random
 * source and the clock, so tests (and the configurable schedule) are deterministic.
 */
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../../config/webhooks.config';
export const DEFAULT_JITTER = 0.1;
/** A Retry-After longer than this is capped: an endpoint cannot park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

export type AttemptOutcome =
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver asks us to stop; the endpoint is disabled. */
  | { kind: 'endpoint_gone' }
  | { kind: 'failed'; retryAfterMs?: number };

/**
 * Classifies one attempt. Success is a 2xx (within the timeout, which the caller enforces);
 * redirects are failures (we never follow them: a redirect could point anywhere); 429 and 503
 * carry the receiver's Retry-After.
 */
export function classifyAttempt(status: number | null, retryAfterHeader?: string | null, now: Date = new Date()): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'endpoint_gone' };
  if ((status === 429 || status === 503) && retryAfterHeader) {
    const retryAfterMs = parseRetryAfter(retryAfterHeader, now);
    if (retryAfterMs !== null) return { kind: 'failed', retryAfterMs };
  }
  return { kind: 'failed' };
}

/** RFC 9110 Retry-After: delay-seconds or an HTTP-date; null when unparsable. */
export function parseRetryAfter(value: string, now: Date): number | null {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

export interface NextAttempt {
  /** null: no attempt left, the delivery is dead. */
  at: Date | null;
}

/**
 * The time of attempt number `attemptsMade + 1` (attempts are counted from 1; the first one is
 * schedule[0] after the event). A Retry-After pushes the next attempt later, never earlier.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attemptsMade: number,
  now: Date,
  options: { jitter?: number; random?: () => number; retryAfterMs?: number } = {},
): NextAttempt {
  if (attemptsMade >= schedule.length) return { at: null };
  const jitter = options.jitter ?? DEFAULT_JITTER;
  const random = options.random ?? Math.random;
  const base = schedule[attemptsMade];
  const jittered = base * (1 + jitter * (2 * random() - 1));
  const delay = Math.max(jittered, options.retryAfterMs ?? 0);
  return { at: new Date(now.getTime() + Math.round(delay)) };
}
