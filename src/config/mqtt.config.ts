import { ConfigurationError, Env, readInteger, readOptionalString } from './env';

/** The MQTT ways in for gateways (issue 39): the embedded broker, an external broker, and their limits. */
export interface MqttConfig {
  /** The embedded broker's TCP port (MQTT_PORT); null: no embedded broker. */
  port: number | null;
  /** The address the embedded broker listens on (the server's HOST by default). */
  host: string | null;
  /** TLS for the embedded broker: a PEM certificate (chain) and its key; both or neither. */
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  /** An external broker to subscribe to (MQTT_URL, `mqtt://user:password@host:port`); null: none. */
  url: string | null;
  /** The shared subscription's group on the external broker: instances of one group take each message once. */
  shareGroup: string;
  /** Largest gateway message in bytes, over HTTP and MQTT (issue 39's default: 256 KiB). */
  maxMessageBytes: number;
  /** Messages per second sustained per gateway (the token bucket's refill), per instance. */
  messagesPerSecond: number;
  /** The token bucket's size: a gateway may send this many at once after a pause. */
  messageBurst: number;
  /** Connections per organization on the embedded broker, per instance. */
  connectionsPerOrganization: number;
  /** A tag's observations within this many ms of its first unclaimed one make one position (GATEWAY_WINDOW_MS). */
  windowMs: number;
  /** Observations are deleted this many hours after they arrived (GATEWAY_OBSERVATION_RETENTION_HOURS). */
  observationRetentionHours: number;
}

export function readMqttConfig(env: Env): MqttConfig {
  const rawPort = readOptionalString(env, 'MQTT_PORT');
  const url = readOptionalString(env, 'MQTT_URL') ?? null;
  if (url !== null && !/^mqtts?:\/\/[^/]/.test(url)) throw new ConfigurationError('MQTT_URL must be mqtt://user:password@host:port (or mqtts://)', 'MQTT_URL');
  const tlsCertFile = readOptionalString(env, 'MQTT_TLS_CERT_FILE') ?? null;
  const tlsKeyFile = readOptionalString(env, 'MQTT_TLS_KEY_FILE') ?? null;
  if ((tlsCertFile === null) !== (tlsKeyFile === null))
    throw new ConfigurationError('MQTT_TLS_CERT_FILE and MQTT_TLS_KEY_FILE go together', tlsCertFile === null ? 'MQTT_TLS_CERT_FILE' : 'MQTT_TLS_KEY_FILE');
  return {
    tlsCertFile,
    tlsKeyFile,
    port: rawPort === undefined ? null : readInteger(env, 'MQTT_PORT', 1883, { min: 0, max: 65535 }),
    host: readOptionalString(env, 'MQTT_HOST') ?? null,
    url,
    shareGroup: readOptionalString(env, 'MQTT_SHARE_GROUP') ?? 'cartograph',
    maxMessageBytes: readInteger(env, 'GATEWAY_MAX_MESSAGE_BYTES', 256 * 1024, { min: 1024, max: 16 * 1024 * 1024 }),
    messagesPerSecond: readInteger(env, 'GATEWAY_MESSAGES_PER_SECOND', 200, { min: 1, max: 1_000_000 }),
    messageBurst: readInteger(env, 'GATEWAY_MESSAGE_BURST', 1000, { min: 1, max: 10_000_000 }),
    connectionsPerOrganization: readInteger(env, 'MQTT_CONNECTIONS_PER_ORGANIZATION', 500, { min: 1, max: 1_000_000 }),
    windowMs: readInteger(env, 'GATEWAY_WINDOW_MS', 1500, { min: 100, max: 60_000 }),
    observationRetentionHours: readInteger(env, 'GATEWAY_OBSERVATION_RETENTION_HOURS', 24, { min: 1, max: 24 * 365 }),
  };
}
