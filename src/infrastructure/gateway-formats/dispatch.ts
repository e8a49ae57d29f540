import { parseCartograph } from './cartograph';
import { parseEspresense } from './espresense';
import { parseMinew } from './minew';
import { badNow, guarded, normaliseHardwareId, ParseLimits, ParseResult, quote, reject } from './observation';
import { parseRuuviHttp, parseRuuviMqtt } from './ruuvi';

export type GatewayFormat = 'espresense' | 'ruuvi' | 'minew' | 'cartograph';
export const GATEWAY_FORMATS: readonly GatewayFormat[] = ['espresense', 'ruuvi', 'minew', 'cartograph'];

export interface GatewayMessage {
  /** The gateway's declared format (HTTP; for MQTT, checked against the topic when given). */
  format?: GatewayFormat;
  /** The MQTT topic with any organization prefix already removed; absent for HTTP. */
  topic?: string;
  /** The hardware id from the HTTP path (`POST /api/v1/gateways/{hardware_id}/observations`). */
  hardwareId?: string;
  /** Bytes or text as received, or an HTTP framework's parsed JSON body. */
  payload: unknown;
  /** When the message arrived, epoch ms: the time of observations whose own time is missing or not believed. */
  now: number;
  limits?: Partial<ParseLimits>;
}

/**
 * One gateway message → its observations, by topic for MQTT and by the declared format for HTTP:
 * - `espresense/devices/{id}/{room}` (and the rest of `espresense/…`): ESPresense;
 * - `ruuvi/{gw_mac}/{tag_mac}`: Ruuvi Gateway over MQTT; HTTP with format `ruuvi`: its batch;
 * - `minew/{hardware_id}`, or HTTP with format `minew`: Minew's JSON array;
 * - `cartograph/gateways/{hardware_id}/observations`, or HTTP with format `cartograph`: Cartograph JSON.
 * A topic of one family with a declared format of another is refused. Never throws.
 */
export function parseGatewayMessage(message: GatewayMessage): ParseResult {
  return guarded(() => {
    const { format, topic, hardwareId, payload, now, limits } = message;
    const bad = badNow(now);
    if (bad) return bad;
    if (format !== undefined && !GATEWAY_FORMATS.includes(format)) return reject(`format ${quote(format)} is not one of ${GATEWAY_FORMATS.join(', ')}`);
    if (topic !== undefined) {
      if (typeof topic !== 'string') return reject('topic is not a string');
      const parts = topic.split('/');
      const family = topicFamily(parts[0]);
      if (family === null) return reject(`topic ${quote(topic)} is not a gateway topic (espresense/…, ruuvi/…, minew/…, cartograph/gateways/…)`);
      if (format !== undefined && format !== family) return reject(`topic ${quote(topic)} is ${family}'s, not the gateway's declared format ${format}`, topicReceiver(parts));
      switch (family) {
        case 'espresense':
          return parseEspresense(topic, payload, now, limits);
        case 'ruuvi':
          return parseRuuviMqtt(topic, payload, now, limits);
        case 'minew':
          if (parts.length !== 2 || parts[1] === '') return reject(`topic ${quote(topic)} is not minew/{hardware_id}`);
          return parseMinew(payload, now, parts[1], limits);
        case 'cartograph':
          if (parts.length !== 4 || parts[1] !== 'gateways' || parts[3] !== 'observations')
            return reject(`topic ${quote(topic)} is not cartograph/gateways/{hardware_id}/observations`);
          return parseCartograph(parts[2], payload, now, limits);
      }
    }
    switch (format) {
      case 'ruuvi':
        return parseRuuviHttp(payload, now, hardwareId, limits);
      case 'minew':
        return parseMinew(payload, now, hardwareId, limits);
      case 'cartograph':
        return hardwareId === undefined ? reject('no hardware id: Cartograph JSON names its gateway in the topic or the path') : parseCartograph(hardwareId, payload, now, limits);
      case 'espresense':
        return reject(
          'ESPresense nodes publish over MQTT only (espresense/devices/{id}/{room})',
          hardwareId === undefined ? undefined : (normaliseHardwareId(hardwareId) ?? undefined),
        );
      default:
        return reject('no topic and no format: cannot tell how to read the message');
    }
  });
}

/** An MQTT topic's format family and the gateway it names (normalised), or null when it is no gateway topic. */
export function gatewayTopic(topic: string): { family: GatewayFormat; receiver: string | null } | null {
  const parts = topic.split('/');
  const family = topicFamily(parts[0]);
  return family === null ? null : { family, receiver: topicReceiver(parts) ?? null };
}

function topicFamily(first: string): GatewayFormat | null {
  return first === 'espresense' || first === 'ruuvi' || first === 'minew' || first === 'cartograph' ? first : null;
}

/** The gateway a topic names, for a rejection's health entry. */
function topicReceiver(parts: string[]): string | undefined {
  const segment = parts[0] === 'espresense' ? (parts[1] === 'rooms' ? parts[2] : parts[3]) : parts[0] === 'cartograph' ? parts[2] : parts[1];
  return segment === undefined ? undefined : (normaliseHardwareId(segment) ?? undefined);
}
