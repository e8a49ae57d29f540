import { ConfigurationError, Env } from './env';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface LoggingConfig {
  /** The least severe level written; `debug` adds Nest's start-up details and `LOG_QUERIES` output. */
  level: LogLevelName;
}

export function readLoggingConfig(env: Env): LoggingConfig {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return { level: 'info' };
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigurationError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`, 'LOG_LEVEL');
  }
  return { level: raw as LogLevelName };
}
