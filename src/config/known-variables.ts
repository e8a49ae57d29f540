import { Env } from './env';

/**
 * Every environment variable Cartograph reads (the settings of the README's table, the
 * env-file pointer, and what Node or the tools around it read on our behalf). A variable
 * that is not here but looks like one of ours is reported at start-up: a misspelled
 * setting is otherwise silently replaced by its default. `known-variables.spec.ts` checks
 * that every name the configuration readers use is listed.
 */
export const KNOWN_VARIABLES: ReadonlySet<string> = new Set([
  'ACCESS_TOKEN_TTL_SECONDS',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'CARTOGRAPH_ENV_FILE',
  'CONNECTION_IDLE_TIMEOUT_MS',
  'CORS_ORIGINS',
  'CREDENTIAL_CACHE_MAX_AGE_SECONDS',
  'CREDENTIAL_CACHE_MAX_BYTES',
  'CREDENTIAL_CACHE_MAX_ENTRIES',
  'DASHBOARD_BASEMAP_ATTRIBUTION',
  'DASHBOARD_BASEMAP_URL',
  'DASHBOARD_DIR',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_POOL_SIZE',
  'DATABASE_QUERY_TIMEOUT_MS',
  'DATABASE_STARTUP_TIMEOUT_SECONDS',
  'DATABASE_URL',
  'DATA_DIR',
  'GATEWAY_MAX_MESSAGE_BYTES',
  'GATEWAY_MESSAGE_BURST',
  'GATEWAY_MESSAGES_PER_SECOND',
  'GATEWAY_OBSERVATION_RETENTION_HOURS',
  'GATEWAY_WINDOW_MS',
  'GEOFENCE_EVENT_RETENTION_DAYS',
  'GEOFENCE_SWEEPER',
  'GEOFENCE_SWEEP_INTERVAL_MS',
  'HEADERS_TIMEOUT_MS',
  'HOST',
  'HSTS',
  'HSTS_MAX_AGE_SECONDS',
  'IMAGE_STORAGE',
  'IMAGE_STORAGE_LOCAL_SHARED',
  'JWT_SECRET',
  'KEEP_ALIVE_TIMEOUT_MS',
  'LOGIN_ACCOUNT_BACKOFF_AFTER',
  'LOGIN_ACCOUNT_MAX_BACKOFF_SECONDS',
  'LOGIN_ADDRESS_FAILURE_LIMIT',
  'LOGIN_FAILURE_LIMIT',
  'LOGIN_FAILURE_WINDOW_SECONDS',
  'LOG_LEVEL',
  'LOG_QUERIES',
  'LOG_REQUESTS',
  'MAX_CONNECTIONS_PER_CLIENT',
  'METRICS_PORT',
  'METRICS_TOKEN',
  'MQTT_CONNECTIONS_PER_ORGANIZATION',
  'MQTT_HOST',
  'MQTT_PORT',
  'MQTT_SHARE_GROUP',
  'MQTT_TLS_CERT_FILE',
  'MQTT_TLS_KEY_FILE',
  'MQTT_URL',
  'NODE_ENV',
  'ORGANIZATION_NAME',
  'PORT',
  'POSITIONS_MAX_AGE_SECONDS',
  'POSITIONS_MAX_FUTURE_SECONDS',
  'POSITIONS_MAX_SEC_THRESHOLD',
  'POSITIONS_RETENTION_DAYS',
  'REFRESH_TOKEN_TTL_SECONDS',
  'REPORTS_MAX_ROWS',
  'REQUEST_TIMEOUT_MS',
  'SEALING_SECRET',
  'SQLITE_BUSY_TIMEOUT_MS',
  'STREAMS_PER_ORGANIZATION',
  'STREAM_HEARTBEAT_MS',
  'STREAM_MAX_BUFFERED_BYTES',
  'TRUSTED_PROXIES',
  'WEBHOOK_BLOCK_PRIVATE_NETWORKS',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_LEASE_SECONDS',
  'WEBHOOK_MAX_ENDPOINTS',
  'WEBHOOK_POLL_INTERVAL_MS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RECORD_RESPONSE_BODIES',
  'WEBHOOK_HEARTBEAT_MS',
  'WEBHOOK_WORKER',
]);

/** Names of the project's own tooling (tests, CI, benchmarks) that may be set where the server runs. */
const TOOLING = /^CARTOGRAPH_(TEST|BENCH|NODE|CI)_?/;
/** What Kubernetes sets for a Service named `cartograph` (service links): not a setting, not a typo. */
const SERVICE_LINK = /^CARTOGRAPH(_[A-Z0-9]+)*_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)$/;

/** Damerau-Levenshtein distance (optimal string alignment): a swapped pair of letters counts one. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known variable `name` is probably a misspelling of: one edit away for short names,
 * two for names of eight letters or more (compared in capitals, so `jwt_secret` is caught too).
 * Short unrelated names of the environment (HOME, PWD, TERM, ...) are more than that away.
 */
export function nearMiss(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (KNOWN_VARIABLES.has(upper)) return name === upper ? undefined : upper;
  let best: { name: string; distance: number } | undefined;
  for (const known of KNOWN_VARIABLES) {
    const allowed = Math.min(upper.length, known.length) >= 8 ? 2 : 1;
    if (Math.abs(known.length - upper.length) > allowed) continue;
    const distance = editDistance(upper, known);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: known, distance };
  }
  return best?.name;
}

/**
 * One warning per variable that is set, is not one Cartograph reads, and looks like one it
 * does: a near miss of a known name, or any name in Cartograph's own `CARTOGRAPH_` prefix.
 * Everything else in the environment (PATH, HOME, the platform's own variables) is left alone.
 */
export function unknownVariableWarnings(env: Env): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (KNOWN_VARIABLES.has(name) || env[name] === undefined) continue;
    const guess = nearMiss(name);
    if (guess) {
      warnings.push(`${name} is not a Cartograph setting and is ignored; did you mean ${guess}?`);
    } else if (name.toUpperCase().startsWith('CARTOGRAPH_') && !TOOLING.test(name.toUpperCase()) && !SERVICE_LINK.test(name)) {
      warnings.push(`${name} is not a Cartograph setting and is ignored (settings have no CARTOGRAPH_ prefix, except CARTOGRAPH_ENV_FILE)`);
    }
  }
  return warnings;
}
