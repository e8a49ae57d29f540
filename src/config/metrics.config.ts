import { ConfigurationError, Env, readInteger, readOptionalString } from './env';

/** Off unless METRICS_TOKEN or METRICS_PORT is set: `/metrics` says how busy and how loaded the server is. */
export interface MetricsConfig {
  /** `/metrics` on the API port, for `Authorization: Bearer <token>` only. */
  token: string | undefined;
  /** `/metrics` on a port of its own (on HOST), for networks that reach only the scraper. */
  port: number | undefined;
}

const MIN_TOKEN_LENGTH = 16;

export function readMetricsConfig(env: Env): MetricsConfig {
  const token = readOptionalString(env, 'METRICS_TOKEN');
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigurationError(`METRICS_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters long`, 'METRICS_TOKEN');
  }
  const port = readOptionalString(env, 'METRICS_PORT') === undefined ? undefined : readInteger(env, 'METRICS_PORT', 0, { min: 0, max: 65535 });
  return { token, port };
}
