/** Clock difference between instances tolerated on `iat` and `nbf`. */
export const CLOCK_SKEW_SECONDS = 60;

export interface TimeClaims {
  iat?: unknown;
  exp?: unknown;
  nbf?: unknown;
}

const isSeconds = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * jsonwebtoken checks `exp` and `nbf` only when a token carries them, so a token signed
 * without `exp` would never expire. Cartograph's own tokens always carry `iat` and `exp`;
 * anything else is refused: both present and numeric, issued no later than now (give or
 * take the skew), expiring after it was issued and no further out than the configured
 * lifetime, and `nbf`, when present, already passed.
 */
export function hasSaneTimeClaims(claims: TimeClaims, nowSeconds: number, maxLifetimeSeconds: number): boolean {
  const { iat, exp, nbf } = claims;
  if (!isSeconds(iat) || !isSeconds(exp)) return false;
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) return false;
  if (exp <= iat || exp - iat > maxLifetimeSeconds) return false;
  if (nbf !== undefined && (!isSeconds(nbf) || nbf > nowSeconds + CLOCK_SKEW_SECONDS)) return false;
  return true;
}
