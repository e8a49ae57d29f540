import { resolve } from 'node:path';
import { registerAs } from '@nestjs/config';
import { Env, readBoolean, readInteger, readList, readString } from './env';
import { readTransportConfig, TransportConfig } from './transport.config';
import { PositionsConfig, readPositionsConfig } from './positions.config';
import { MetricsConfig, readMetricsConfig } from './metrics.config';
import { GeofencingConfig, readGeofencingConfig } from './geofencing.config';
import { MqttConfig, readMqttConfig } from './mqtt.config';

export interface AppConfig {
  nodeEnv: string;
  port: number;
  host: string;
  dataDir: string;
  corsOrigins: string[];
  logRequests: boolean;
  /**
   * Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is trusted for the
   * client address (rate limits, logs); proxy-addr names such as `loopback` work too.
   */
  trustedProxies: string[];
  transport: TransportConfig;
  positions: PositionsConfig;
  metrics: MetricsConfig;
  geofencing: GeofencingConfig;
  mqtt: MqttConfig;
}

export function readAppConfig(env: Env): AppConfig {
  return {
    nodeEnv: readString(env, 'NODE_ENV', 'development'),
    port: readInteger(env, 'PORT', 3000, { min: 0, max: 65535 }),
    host: readString(env, 'HOST', '0.0.0.0'),
    dataDir: resolve(readString(env, 'DATA_DIR', './data')),
    corsOrigins: readList(env, 'CORS_ORIGINS'),
    logRequests: readBoolean(env, 'LOG_REQUESTS', true),
    trustedProxies: readList(env, 'TRUSTED_PROXIES'),
    transport: readTransportConfig(env),
    positions: readPositionsConfig(env),
    metrics: readMetricsConfig(env),
    geofencing: readGeofencingConfig(env),
    mqtt: readMqttConfig(env),
  };
}

export const appConfig = registerAs('app', (): AppConfig => readAppConfig(process.env));
