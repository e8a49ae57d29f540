/** Small typed readers for environment variables; a bad value stops the server at start-up. */
export type Env = Record<string, string | undefined>;

/** sysexits' EX_CONFIG: the exit status of a start refused for its configuration (supervisors: do not restart). */
export const EX_CONFIG = 78;

export class ConfigurationError extends Error {
  /** The variable at fault, when one is: lets start-up report every wrong setting at once. */
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

export function readString(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

export function readOptionalString(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function readInteger(env: Env, name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigurationError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`, name);
  }
  return value;
}

export function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigurationError(`${name} must be true or false, got "${raw}"`, name);
}

export function readList(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
